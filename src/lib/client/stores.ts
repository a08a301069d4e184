import { persistentJSON } from '@nanostores/persistent';
import { atom, computed } from 'nanostores';
import type { Country } from '../domain/geo';

/**
 * State shared by islands and the header script. Persistent stores hold only
 * non-secret data: the session token lives in an HttpOnly cookie, never here.
 */
export interface Profile {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  country: Country;
}

/** The signed-in shopper's public profile, or null when logged out. */
export const $profile = persistentJSON<Profile | null>('ml:profile', null);
/** The e-mail waiting for its verification code (spec: registered e-mail). */
export const $registeredEmail = persistentJSON<string | null>('ml:registeredEmail', null);
/** The e-mail a reset code was sent to (spec: reset e-mail). */
export const $resetEmail = persistentJSON<string | null>('ml:resetEmail', null);
/** The shopper's cart id, kept for checkout. */
export const $cartId = persistentJSON<string | null>('ml:cartId', null);
/** Number of lines in the cart (spec: the number of entries in items is the cart count). */
export const $cartCount = persistentJSON<number>('ml:cartCount', 0);

export const $loggedIn = computed($profile, (p) => p !== null);

/** Search text typed in the top bar. */
export const $searchText = atom('');

export function clearSession(): void {
  $profile.set(null);
  $cartId.set(null);
  $cartCount.set(0);
}
