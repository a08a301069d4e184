import type { APIContext, AstroCookies } from 'astro';
import { z } from 'zod';
import type { MessageCode } from '@/lib/domain/messages';
import type { MarketCode } from '@/lib/domain/markets';
import { localRedirectPath } from '@/lib/domain/redirects';
import { isHttpsOrigin } from '@/lib/domain/public-origin';
import type { SessionUser } from '@/lib/server/accounts/auth';
import { sameLine } from '@/lib/domain/cart';
import type { LinkSigner } from '@/lib/server/infra/signing';
import type { Logger } from '@/lib/server/infra/log';
import type { CartDto } from '@/lib/domain/cart';
import type { AddToCartInput } from '@/lib/domain/cart-input';

/**
 * What a signed-out shopper reached for (ADD TO CART with a colour and size, or a heart), kept
 * through signing in, or registering and its code, in a short-lived signed cookie: the sign-in
 * that ends the journey does it, once (the cookie goes with it), and comes back to the piece.
 */
const COOKIE = 'ml_after_sign_in';
const KEPT_MINUTES = 30;

const intentSchema = z.object({
  kind: z.enum(['cart', 'favourite']),
  productId: z.number().int().positive(),
  color: z.string().max(100).nullable(),
  size: z.string().max(100).nullable(),
  back: z.string().max(600),
  until: z.number(),
});
export type AfterSignIn = Omit<z.infer<typeof intentSchema>, 'until'>;

/** The product page showing the choice: the colour and size as its links name them. */
export function pieceUrl(productId: number, color: string | null, size: string | null): string {
  const q = new URLSearchParams();
  if (color) q.set('color', color);
  if (size) q.set('size', size);
  const query = q.toString();
  return `/product/${productId}${query ? `?${query}` : ''}`;
}

/** What the sign-in's follow-up needs of the bag and the hearts. */
export interface AfterSignInDeps {
  signer: LinkSigner;
  log: Logger;
  cart: { view(user: SessionUser, market: MarketCode): Promise<CartDto>; add(user: SessionUser, input: AddToCartInput, market: MarketCode): Promise<CartDto> };
  favourites: { add(userId: string, productId: number): Promise<unknown> };
}

export function createAfterSignIn({ signer, log, cart, favourites }: AfterSignInDeps) {
  /** The choice kept for this browser, taken (the cookie is cleared): null when none, expired or forged. */
  function take(cookies: AstroCookies, secure: boolean): AfterSignIn | null {
    const token = cookies.get(COOKIE)?.value;
    if (!token) return null;
    cookies.delete(COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
    const subject = signer.verify('after-sign-in', token);
    if (!subject) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(subject);
    } catch {
      return null;
    }
    const intent = intentSchema.safeParse(parsed);
    if (!intent.success || intent.data.until < Date.now()) return null;
    const { until: _until, ...rest } = intent.data;
    return rest;
  }

  return {
    /** Keeps the choice and answers a page post with the way to /login (`notice` says why), and back to the piece after. */
    signInFirst(ctx: Pick<APIContext, 'cookies' | 'locals'>, intent: AfterSignIn, notice: MessageCode): Response {
      const back = localRedirectPath(intent.back, ctx.locals.publicOrigin) ?? '/';
      const kept = JSON.stringify({ ...intent, back, until: Date.now() + KEPT_MINUTES * 60_000 });
      ctx.cookies.set(COOKIE, signer.token('after-sign-in', kept), {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: isHttpsOrigin(ctx.locals.publicOrigin),
        maxAge: KEPT_MINUTES * 60,
      });
      const login = `/login?${new URLSearchParams({ next: back, notice })}`;
      return new Response(null, { status: 303, headers: { location: login, 'cache-control': 'no-store' } });
    },

    /**
     * After a sign-in: does what was kept, once. A piece is put in the bag only when the bag does not
     * already hold it in that colour and size (a second sign-in from the same tap adds nothing); a
     * heart is kept as it is. Answers the page to go to and its notice, or null when nothing was kept.
     * What can no longer be done (sold out since, not sold in this market) leaves the sign-in standing.
     */
    async done(ctx: Pick<APIContext, 'cookies' | 'locals'>, user: SessionUser, market: MarketCode): Promise<{ next: string; notice: MessageCode } | null> {
      const intent = take(ctx.cookies, isHttpsOrigin(ctx.locals.publicOrigin));
      if (!intent) return null;
      const next = localRedirectPath(intent.back, ctx.locals.publicOrigin) ?? '/';
      try {
        if (intent.kind === 'favourite') {
          await favourites.add(user.id, intent.productId);
          return { next, notice: 'favourite-added' };
        }
        const bag = await cart.view(user, market);
        if (!bag.items.some((i) => sameLine(i, intent))) await cart.add(user, { productId: intent.productId, color: intent.color ?? undefined, size: intent.size ?? undefined, quantity: 1 }, market);
        return { next, notice: 'cart-added' };
      } catch (err) {
        log.warn('the choice kept over sign-in could not be done', { err, kind: intent.kind, productId: intent.productId });
        return { next, notice: 'logged-in' };
      }
    },
  };
}
export type AfterSignInService = ReturnType<typeof createAfterSignIn>;
