/**
 * The parts of a catalogue page that belong to one shopper: who is signed in (the session script,
 * the account control and the menu's account links), the cart count, the hearts, and the CSRF
 * token of every form. They are markup built here, once, for two readers:
 * - the layout and the heart component render them for the request at hand;
 * - a signed-in shopper's catalogue page is served from the shared route cache, rendered for
 *   nobody, and `personalise` (src/lib/server/storefront/shared-pages.ts) swaps each part rendered for
 *   nobody for the shopper's own, finding it by the very markup these functions produce.
 * Values are escaped here: a shopper's name must never become markup.
 */
import { CSRF_FIELD, FAVOURITE_FORMS } from '@/lib/domain/forms';
import { escapeHtml } from '@/lib/domain/html';
import { imageUrl } from '@/lib/domain/images';
import type { Profile } from '@/lib/client/stores';
import type { SessionUser } from '@/lib/server/accounts/sessions';

export const ICON_PATHS = {
  menu: 'M3 6h18M3 12h18M3 18h12',
  search: 'M10.5 18a7.5 7.5 0 1 1 0-15 7.5 7.5 0 0 1 0 15Zm5.3-2.2L21 21',
  user: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm-8 9c.8-4 4-6 8-6s7.2 2 8 6',
  bag: 'M5 8h14l-1 13H6L5 8Zm4 0V6a3 3 0 0 1 6 0v2',
  close: 'M5 5l14 14M19 5 5 19',
  chevron: 'm9 5 7 7-7 7',
  exchange: 'M4 8h13l-3-3M20 16H7l3 3',
  return: 'M9 14 4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  support: 'M4 14v-2a8 8 0 0 1 16 0v2M4 14h3v5H5a1 1 0 0 1-1-1v-4Zm16 0h-3v5h2a1 1 0 0 0 1-1v-4Z',
  check: 'm5 12 5 5 9-10',
} as const;
export type IconName = keyof typeof ICON_PATHS;

/** An inline line icon (decorative: the control that holds one carries the label). */
export function iconSvg(name: IconName, size = 22): string {
  return `<svg class="icon icon-${name}" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="${ICON_PATHS[name]}"></path></svg>`;
}

/** The signed-in shopper as the page tells the browser (the header script syncs $profile from it). */
export function profileOf(user: SessionUser): Profile {
  return {
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    image: user.imageHash ? imageUrl(user.imageHash, 160, 'webp') : null,
    country: user.country,
  };
}

/** The session's CSRF token as a form field; nothing without one. */
export function csrfInput(token: string | null): string {
  return token ? `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">` : '';
}

/** The log-out form (the header script sends it through the API client: `data-logout`; without scripts it posts). */
export function logoutForm(label: string, csrf: string | null): string {
  return `<form method="post" action="/api/v1/user-auth/logout" data-logout>${csrfInput(csrf)}<button type="submit">${escapeHtml(label)}</button></form>`;
}

/** Who is signed in, for the header script (chrome.ts), which keeps the browser's stores in step. */
export function sessionScript(profile: Profile | null): string {
  return `<script type="application/json" id="ml-session">${sessionJson(profile)}</script>`;
}

/** What the session script holds: the profile as JSON, safe inside a script element (a shopper's filled out to its room). */
export function sessionJson(profile: Profile | null): string {
  const json = JSON.stringify(profile).replace(/</g, '\\u003c');
  return profile ? filledOut(json, PERSONAL_ROOM.sessionJson) : json;
}

/**
 * The bytes kept for each part of the header that differs between signed-in shoppers, filled out
 * with spaces where theirs is shorter (inside a tag or a script, where a space shows nothing), so
 * that everything around those parts is in the same place for every shopper: a stored page is
 * laid out once for all their gzip answers (shared-pages.ts). A longer part is written whole and
 * that shopper's page is compressed on its own.
 */
export const PERSONAL_ROOM = {
  sessionJson: 1024,
  nameInLabel: 160,
  // A cart of up to 99,999 items (the link is ASCII: one byte a character).
  cartLink: cartLinkParts(99_999).join('').length,
};

const filledOut = (text: string, room: number) => text + ' '.repeat(Math.max(0, room - Buffer.byteLength(text)));

/** The header's account control: the profile menu when signed in, else the way to an account. */
export function accountControl(profile: Profile | null, csrf: string | null): string {
  if (!profile) return `<a href="/register" class="icon-btn" aria-label="Create an account or log in">${iconSvg('user')}</a>`;
  return (
    `<div class="profile-menu" data-profile-menu>` +
    `<button type="button" class="icon-btn" aria-haspopup="true" aria-expanded="false" aria-controls="profile-menu-list" aria-label="Account menu for ${nameInLabel(profile.firstName)}>${iconSvg('user')}</button>` +
    `<ul id="profile-menu-list" class="profile-menu-list"><li><a href="/profile">My Profile</a></li><li>${logoutForm('LogOut', csrf)}</li></ul>` +
    `</div>`
  );
}

/** The first name in the account menu's label, the label's closing quote, and the room left (PERSONAL_ROOM). */
export function nameInLabel(firstName: string): string {
  return filledOut(`${escapeHtml(firstName)}"`, PERSONAL_ROOM.nameInLabel);
}

/** The side menu's account links (an invisible mark when signed out, where the links go when signed in). */
export function menuAccountLinks(profile: Profile | null, csrf: string | null): string {
  if (!profile) return '<!--account links-->';
  return `<div class="side-menu-foot"><a href="/profile">My Profile</a><a href="/order-history">Orders</a>${logoutForm('Logout', csrf)}</div>`;
}

/**
 * The cart link with its count (null: not known to the server, the header script asks for it).
 * A known count is also in `data-cart-link`, where the header script reads it instead of asking.
 */
export function cartLink(count: number | null): string {
  const [open, rest] = cartLinkParts(count);
  return open + ' '.repeat(Math.max(0, PERSONAL_ROOM.cartLink - open.length - rest.length)) + rest;
}

/** The cart link before and after the end of its start tag (where it is filled out to its room). */
function cartLinkParts(count: number | null): [string, string] {
  const n = count ?? 0;
  const label = count === null ? 'Cart' : n === 1 ? 'Cart, 1 item' : `Cart, ${n} items`;
  return [
    `<a href="/cart" class="icon-btn cart-link" aria-label="${label}" data-cart-link${count === null ? '' : `="${n}"`}`,
    `>${iconSvg('bag')}<span class="cart-badge" data-cart-count${n > 0 ? '' : ' hidden'}>${n > 0 ? n : ''}</span></a>`,
  ];
}

const FAVOURITE_LABELS = { add: 'Add to favourites', remove: 'Remove from favourites' } as const;
const HEART_PATH = 'M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.6 4.5 7.1 4.5c2 0 3.6 1.1 4.9 2.9 1.3-1.8 2.9-2.9 4.9-2.9 3.5 0 5.6 3.5 4.4 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z';

/**
 * The page's two heart forms, rendered once before its first heart (FavouriteButton.astro): real
 * forms posting to the favourites add and remove endpoints, back to `back` (a local path) with the
 * message, so hearts work without scripts. Each heart is a button that submits one (favouriteButton).
 */
export function favouriteForms(back: string, csrf: string | null): string {
  const to = escapeHtml(encodeURIComponent(back));
  return (Object.keys(FAVOURITE_FORMS) as (keyof typeof FAVOURITE_FORMS)[])
    .map((action) => `<form id="${FAVOURITE_FORMS[action]}" method="post" action="/api/v1/favourites/${action}?back=${to}" hidden>${csrfInput(csrf)}</form>`)
    .join('');
}

/** A product's heart: a button that submits the page's add or remove form (favouriteForms) with its product. */
export function favouriteButton(productId: number, pressed: boolean): string {
  const label = pressed ? FAVOURITE_LABELS.remove : FAVOURITE_LABELS.add;
  return (
    `<button type="submit" form="${pressed ? FAVOURITE_FORMS.remove : FAVOURITE_FORMS.add}" name="productId" value="${productId}" class="fav-btn" data-fav="${productId}" aria-pressed="${pressed}" aria-label="${label}" title="${label}">` +
    `<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${HEART_PATH}"></path></svg></button>`
  );
}
