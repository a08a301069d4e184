import { persistentJSON } from '@nanostores/persistent';
import { computed } from 'nanostores';

/**
 * State shared by islands and the header script. Persistent stores hold only
 * non-secret data: the session token lives in an HttpOnly cookie, never here.
 *
 * This module owns the stores: others read them (`useStore`, `.get()`, `.subscribe`) and change
 * them only through the named actions below, so each change has one name and one place.
 */
export interface Profile {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  image: string | null;
  country: 'nigeria' | 'south_africa';
}

/** The signed-in shopper's public profile, or null when logged out. */
export const $profile = persistentJSON<Profile | null>('ml:profile', null);
/** The e-mail waiting for its verification code (the registered e-mail). */
export const $registeredEmail = persistentJSON<string | null>('ml:registeredEmail', null);
/** The e-mail a reset code was sent to (the reset e-mail). */
export const $resetEmail = persistentJSON<string | null>('ml:resetEmail', null);
/** The shopper's cart id, kept for checkout. */
export const $cartId = persistentJSON<string | null>('ml:cartId', null);
/** Number of lines in the cart: the number of entries in items is the cart count. */
export const $cartCount = persistentJSON<number>('ml:cartCount', 0);

export const $loggedIn = computed($profile, (p) => p !== null);

/** Someone signed in, or their profile changed (unchanged profiles notify nobody). */
export function signedIn(profile: Profile): void {
  if (JSON.stringify($profile.get()) !== JSON.stringify(profile)) $profile.set(profile);
}

/** Signed out (or the session expired): forget who it was and their cart. */
export function signedOut(): void {
  $profile.set(null);
  $cartId.set(null);
  $cartCount.set(0);
}

/** The server answered with the cart (its lines, and its id when the answer has one). */
export function cartChanged(cart: { id?: string | null; items: readonly unknown[] }): void {
  $cartCount.set(cart.items.length);
  if (cart.id) $cartId.set(cart.id);
}

/** The page says how many lines the cart has (the server counted them). */
export function cartCounted(count: number): void {
  $cartCount.set(count);
}

/** An order took the cart's lines. */
export function cartEmptied(): void {
  $cartCount.set(0);
}

/** Placing the order failed: checkout falls back to the cart the page was rendered with. */
export function cartIdForgotten(): void {
  $cartId.set(null);
}

/** An account was created (or a code asked for again): this e-mail now waits for its code. */
export function verificationPending(email: string): void {
  $registeredEmail.set(email);
}

/** The registration code was accepted. */
export function verificationDone(): void {
  $registeredEmail.set(null);
}

/** A reset code was sent to this e-mail. */
export function resetRequested(email: string): void {
  $resetEmail.set(email);
}

/** The password was reset. */
export function resetDone(): void {
  $resetEmail.set(null);
}
