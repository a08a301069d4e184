import type { AstroCookies } from 'astro';
import { GIFT_RETURN_COOKIE } from '@/lib/domain/gift-returns';
import { isHttpsOrigin } from '@/lib/domain/public-origin';

/**
 * The proof of a gift recipient's phone between the page's steps (ADR 0045): a signed token with its
 * own expiry (gift-return-access.ts), kept in an http-only, SameSite=Strict cookie for as long, so
 * neither a form's hidden field nor a script carries it.
 */
export function keepGiftReturnProof(cookies: AstroCookies, publicOrigin: string, proof: string, maxAgeSeconds: number): void {
  cookies.set(GIFT_RETURN_COOKIE, proof, { httpOnly: true, sameSite: 'strict', path: '/', secure: isHttpsOrigin(publicOrigin), maxAge: maxAgeSeconds });
}

export function giftReturnProof(cookies: AstroCookies): string | undefined {
  return cookies.get(GIFT_RETURN_COOKIE)?.value;
}
