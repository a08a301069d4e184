import { randomBytes } from 'node:crypto';
import { accountControl, cartLink, csrfInput, favouriteButton, menuAccountLinks, nameInLabel, PERSONAL_ROOM, profileOf, sessionJson, sessionScript } from '@/components/personal-parts';
import type { ActiveSession } from '../accounts/sessions';
import { CSRF_TOKEN_LENGTH } from '../infra/csrf';
import { personalGzip, personalGzipLayout, type PersonalGzipLayout, type PersonalPlace } from './personal-gzip';

/**
 * A shared page made a signed-in shopper's (ADR 0016, ADR 0069): the page rendered for nobody has
 * a slot where each form's CSRF token goes (`slotted` finds them) and the header's parts as
 * nobody's; `personalise` puts the shopper's in, and `signedInLayout` / `signedInGzip` give the
 * same page gzipped from pieces deflated once. Serving them is shared-pages.ts's business.
 */

/**
 * What a page rendered for nobody holds where each form's CSRF token goes, exactly as long as a
 * token (a shopper's copy keeps everything below the header in place, which its gzip answer relies
 * on: personal-gzip.ts). Random for each process and never sent: `slotted` takes it out of every
 * page before the page is stored or answered, keeping where each slot was. So no search, product
 * name or form field can carry it: a token goes only where the render put a slot.
 */
export const CSRF_SLOT = randomBytes(32).toString('base64url');

/** What anonymous visitors see in a slot (the hidden `_csrf` field; without a session it is ignored): text, never searched for. */
export const SHOWN_SLOT = 'ml-csrf-slot'.padEnd(CSRF_TOKEN_LENGTH, '_');
const SLOT = Buffer.from(CSRF_SLOT);
const SHOWN = Buffer.from(SHOWN_SLOT);

/**
 * The markup right before a slot: a form's hidden field (csrfInput) and an island's `csrf` prop as
 * Astro serialises it. Nothing a shopper types can write either (their quotes come out escaped).
 */
const SLOT_CONTEXTS = [csrfInput(CSRF_SLOT).slice(0, csrfInput(CSRF_SLOT).indexOf(CSRF_SLOT)), '&quot;csrf&quot;:[0,&quot;'].map((c) => Buffer.from(c));

/** A page rendered for nobody with its slots taken out: the page as stored and shown (SHOWN_SLOT in each), and where each slot is. */
export interface SlottedPage {
  body: Uint8Array<ArrayBuffer>;
  slots: number[];
  /** The marker was found outside a slot too (taken out as well): such a page is not stored. */
  stray: boolean;
}

/** Takes the slot marker out of a page rendered for nobody (see CSRF_SLOT). */
export function slotted(rendered: Uint8Array): SlottedPage {
  const body = new Uint8Array(rendered.byteLength);
  body.set(rendered);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const slots: number[] = [];
  let stray = false;
  for (let at = bytes.indexOf(SLOT); at >= 0; at = bytes.indexOf(SLOT, at + SLOT.length)) {
    const inSlot = SLOT_CONTEXTS.some((context) => at >= context.length && bytes.subarray(at - context.length, at).equals(context));
    if (inSlot) slots.push(at);
    else stray = true;
    SHOWN.copy(bytes, at);
  }
  return { body, slots, stray };
}


export interface PersonalParts {
  session: ActiveSession;
  csrfToken: string | null;
  cartCount: number | null;
  favouriteIds: ReadonlySet<number>;
}

/** The start of every heart rendered for nobody (favouriteButton, not pressed): its product id follows. */
const UNPRESSED_HEART = ((heart) => Buffer.from(heart.slice(0, heart.indexOf('value="') + 'value="'.length)))(favouriteButton(0, false));
const BUTTON_END = Buffer.from('</button>');

/** The header's parts as rendered for nobody, by name, as bytes (built once: they never change). */
let nobodysParts: [name: HeaderPart, bytes: Buffer][] | undefined;
type HeaderPart = 'session' | 'account' | 'cart' | 'menu account links';
const partsForNobody = () =>
  (nobodysParts ??= [
    ['session', Buffer.from(sessionScript(null))],
    ['account', Buffer.from(accountControl(null, null))],
    ['cart', Buffer.from(cartLink(null))],
    ['menu account links', Buffer.from(menuAccountLinks(null, null))],
  ]);

/** The header's parts as the shopper sees them, by name. */
function theirHeaderParts(parts: PersonalParts): Record<HeaderPart, string> {
  const profile = profileOf(parts.session.user);
  const token = parts.csrfToken ?? '';
  return {
    session: sessionScript(profile),
    account: accountControl(profile, token),
    cart: cartLink(parts.cartCount),
    'menu account links': menuAccountLinks(profile, token),
  };
}

/** Each heart rendered for nobody (unpressed): where it is and its product's id. */
function heartsOf(bytes: Buffer): { at: number; length: number; id: number }[] {
  const hearts: { at: number; length: number; id: number }[] = [];
  for (let at = bytes.indexOf(UNPRESSED_HEART); at >= 0; at = bytes.indexOf(UNPRESSED_HEART, at + 1)) {
    const idFrom = at + UNPRESSED_HEART.length;
    const idTo = bytes.indexOf('"', idFrom);
    const end = bytes.indexOf(BUTTON_END, idTo);
    if (idTo < 0 || end < 0) break;
    hearts.push({ at, length: end + BUTTON_END.length - at, id: Number(bytes.toString('latin1', idFrom, idTo)) });
  }
  return hearts;
}

/**
 * A page rendered for nobody, made the shopper's: each part rendered for nobody is swapped for
 * theirs, found by the markup personal-parts.ts produces. Returns the page and the parts it
 * could not find (none, unless the layout stopped rendering one: logged by the caller).
 *
 * It works on the page's bytes as stored: every cut is found with Buffer.indexOf, then the page is
 * put together once. (Decoding a 120 KB page with ₦ in it to a string and encoding it again cost
 * 2.6 ms of the 4 a signed-in page took; the parts are ASCII markers, found the same in UTF-8.)
 */
export function personalise(page: Uint8Array, slots: readonly number[], parts: PersonalParts): { body: Uint8Array<ArrayBuffer>; missing: string[]; pressedHearts: number } {
  const bytes = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  const theirs = theirHeaderParts(parts);
  const missing: string[] = [];
  let pressedHearts = 0;
  const cuts: { at: number; length: number; put: string }[] = [];
  for (const [name, nobodys] of partsForNobody()) {
    const at = bytes.indexOf(nobodys);
    if (at < 0) missing.push(name);
    else cuts.push({ at, length: nobodys.length, put: theirs[name] });
  }
  if (parts.favouriteIds.size > 0) {
    for (const heart of heartsOf(bytes)) {
      if (!parts.favouriteIds.has(heart.id)) continue;
      cuts.push({ at: heart.at, length: heart.length, put: favouriteButton(heart.id, true) });
      pressedHearts++;
    }
  }
  for (const at of slots) cuts.push({ at, length: SLOT.length, put: parts.csrfToken ?? '' });
  cuts.sort((a, b) => a.at - b.at);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) continue;
    pieces.push(bytes.subarray(from, cut.at), Buffer.from(cut.put));
    from = cut.at + cut.length;
  }
  pieces.push(bytes.subarray(from));
  return { body: Buffer.concat(pieces), missing, pressedHearts };
}

/** A stored page laid out for signed-in shoppers' gzip answers, and the products its hearts are for. */
export interface SignedInLayout {
  gzip: PersonalGzipLayout;
  heartIds: readonly number[];
}

/**
 * A shopper no one is, whose name is a marker (random for each process): a stored page made theirs
 * is the page every signed-in shopper gets, with the marker where their name goes, the session
 * script's JSON where their profile goes, and CSRF_SLOT in each token's place.
 */
const NAME_MARKER = `n${randomBytes(12).toString('hex')}`;
const MARKER_SHOPPER: PersonalParts = {
  session: { user: { id: NAME_MARKER, firstName: NAME_MARKER, lastName: NAME_MARKER, email: NAME_MARKER, imageHash: null, country: 'nigeria' } } as unknown as ActiveSession,
  csrfToken: CSRF_SLOT,
  cartCount: 0,
  favouriteIds: new Set(),
};
const SESSION_JSON_OPEN = ((script) => Buffer.from(script.slice(0, script.indexOf('null'))))(sessionScript(null));
const NAME = Buffer.from(NAME_MARKER);
/** The cart links most shoppers have: none to nine items, and the count not known. */
const COMMON_CARTS = [null, ...Array.from({ length: 10 }, (_, n) => n)].map(cartLink);

/**
 * A stored page's layout for signed-in shoppers: the page as every signed-in shopper gets it
 * (MARKER_SHOPPER's), with these places, each as long for every shopper (PERSONAL_ROOM): the
 * session script's JSON, the first name in the account menu's label, the cart link, and every CSRF
 * token. Everything else of the header (the account menu, the logout forms) is the same for all
 * and deflated with the page. Null when a header part is missing or a place is not where it
 * should be (such a page is compressed whole).
 */
export async function signedInLayout(page: Uint8Array, slots: readonly number[]): Promise<SignedInLayout | null> {
  const made = personalise(page, slots, MARKER_SHOPPER);
  if (made.missing.length) return null;
  const template = Buffer.from(made.body.buffer, made.body.byteOffset, made.body.byteLength);
  const places: PersonalPlace[] = [];
  const jsonAt = template.indexOf(SESSION_JSON_OPEN);
  const nameAt = template.indexOf(NAME, jsonAt + SESSION_JSON_OPEN.length + PERSONAL_ROOM.sessionJson);
  const cartAt = template.indexOf(cartLink(MARKER_SHOPPER.cartCount));
  if (jsonAt < 0 || nameAt < 0 || cartAt < 0 || template.indexOf(NAME, nameAt + NAME.length) >= 0) return null;
  places.push(
    { at: jsonAt + SESSION_JSON_OPEN.length, length: PERSONAL_ROOM.sessionJson, name: 'session json' },
    { at: nameAt, length: PERSONAL_ROOM.nameInLabel, name: 'name in label' },
    { at: cartAt, length: PERSONAL_ROOM.cartLink, name: 'cart', variants: COMMON_CARTS },
  );
  for (let at = template.indexOf(SLOT); at >= 0; at = template.indexOf(SLOT, at + SLOT.length)) places.push({ at, length: SLOT.length, name: 'token' });
  places.sort((a, b) => a.at - b.at);
  if (places.some((place, i) => i > 0 && place.at < places[i - 1]!.at + places[i - 1]!.length)) return null;
  const bytes = Buffer.from(page.buffer, page.byteOffset, page.byteLength);
  return { gzip: await personalGzipLayout(template, places), heartIds: heartsOf(bytes).map((heart) => heart.id) };
}

/** The shopper's page from a stored page's layout, gzipped: null when it cannot be (a heart of theirs pressed, a part longer than its room). */
export function signedInGzip(layout: SignedInLayout, parts: PersonalParts): Uint8Array<ArrayBuffer> | null {
  if (layout.heartIds.some((id) => parts.favouriteIds.has(id))) return null;
  const profile = profileOf(parts.session.user);
  return personalGzip(layout.gzip, {
    token: parts.csrfToken ?? '',
    'session json': sessionJson(profile),
    'name in label': nameInLabel(profile.firstName),
    cart: cartLink(parts.cartCount),
  });
}
