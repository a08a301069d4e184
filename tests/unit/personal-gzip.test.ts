import { randomBytes } from 'node:crypto';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { accountControl, cartLink, favouriteButton, favouriteForms, menuAccountLinks, nameInLabel, PERSONAL_ROOM, sessionScript } from '@/components/personal-parts';
import { CSRF_TOKEN_LENGTH, csrfTokenFor } from '@/lib/server/infra/csrf';
import { storedBlocks } from '@/lib/server/storefront/personal-gzip';
import { CSRF_SLOT, personalise, SHOWN_SLOT, signedInGzip, signedInLayout, slotted, type PersonalParts } from '@/lib/server/storefront/personal-page';

const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);
const join = (...parts: Uint8Array[]) => Buffer.concat(parts);

describe('stored blocks', () => {
  it('give their bytes back, beyond one block\'s 65,535 too', () => {
    for (const bytes of [Buffer.alloc(0), randomBytes(1000), randomBytes(200_000)]) {
      expect(inflateRawSync(join(...storedBlocks(bytes), FINAL_BLOCK)).equals(bytes)).toBe(true);
    }
  });
});

/** A page as the layout renders it for nobody: a head, the header's parts (one slot among them), then cards with hearts and slots. */
function nobodysPage(cards: number, slotBeforeHeader = false): Buffer {
  const card = (id: number) => `<li class="card"><a href="/product/${id}"><img src="/media/${id}.webp" alt="Tote ${id}"><span>₦ 1,250,000 · R 9 999</span></a>${id === 1 ? favouriteForms(`/collection?page=2&q=it's`, CSRF_SLOT) : ''}${favouriteButton(id, false)}</li>`;
  return Buffer.from(
    [
      '<!doctype html><html><head><title>Maison Luxe</title><link rel="stylesheet" href="/_astro/a.css"></head><body>',
      slotBeforeHeader ? `<form method="post" action="/market"><input type="hidden" name="_csrf" value="${CSRF_SLOT}"></form>` : '',
      sessionScript(null),
      '<header><a href="/" class="logo">MAISON LUXE</a>',
      accountControl(null, CSRF_SLOT),
      cartLink(null),
      '</header><nav>',
      menuAccountLinks(null, CSRF_SLOT),
      '</nav><main><ul>',
      ...Array.from({ length: cards }, (_, i) => card(i + 1)),
      `</ul><form method="post" action="/newsletter"><input type="hidden" name="_csrf" value="${CSRF_SLOT}"></form></main>`,
      `<astro-island props="{&quot;csrf&quot;:[0,&quot;${CSRF_SLOT}&quot;]}"></astro-island></body></html>`,
    ].join(''),
  );
}

function parts(firstName: string, cartCount: number | null, favouriteIds: number[] = []): PersonalParts {
  const user = { id: 'u-1', firstName, lastName: 'Obi', email: 'ada@example.com', imageHash: null, country: 'nigeria' };
  return { session: { user } as unknown as PersonalParts['session'], csrfToken: csrfTokenFor(randomBytes(32).toString('base64url')), cartCount, favouriteIds: new Set(favouriteIds) };
}

describe('a signed-in shopper\'s gzip answer from the stored page\'s layout', () => {
  it('a slot is exactly as long as a token', () => {
    expect(CSRF_SLOT).toHaveLength(CSRF_TOKEN_LENGTH);
    expect(SHOWN_SLOT).toHaveLength(CSRF_TOKEN_LENGTH);
    expect(csrfTokenFor('any session')).toHaveLength(CSRF_TOKEN_LENGTH);
  });

  for (const [label, page] of [
    ['a product page', slotted(nobodysPage(4))],
    ['a collection page of 48 cards', slotted(nobodysPage(48))],
    ['a page with a slot above the header', slotted(nobodysPage(3, true))],
  ] as const) {
    it(`gives back exactly the shopper's page, whoever they are: ${label}`, async () => {
      const layout = (await signedInLayout(page.body, page.slots))!;
      expect(layout).not.toBeNull();
      // A heart pressed on another page changes nothing here.
      for (const shopper of [parts('Ada', 0), parts('Ọláolúwa & <Chí>', 12), parts('A'.repeat(120), null), parts("O'Neil", 1, [999])]) {
        const { body, missing, pressedHearts } = personalise(page.body, page.slots, shopper);
        expect(missing).toEqual([]);
        expect(pressedHearts).toBe(0);
        const answer = signedInGzip(layout, shopper)!;
        expect(gunzipSync(answer).equals(Buffer.from(body))).toBe(true);
        expect(new TextDecoder().decode(gunzipSync(answer))).not.toContain(CSRF_SLOT);
        expect(new TextDecoder().decode(gunzipSync(answer))).not.toContain(SHOWN_SLOT);
      }
    });
  }

  it('compresses nothing per request: every stretch between the places is deflated once, and the places are written as they are', async () => {
    const page = slotted(nobodysPage(48));
    const layout = (await signedInLayout(page.body, page.slots))!;
    const places = layout.gzip.pieces.filter((p) => 'place' in p).map((p) => p.place);
    // What differs between signed-in shoppers' headers: the profile, the first name and the cart;
    // and a token in the two logout forms, the hearts' two forms, the newsletter and the island.
    expect(places.filter((name) => name !== 'token')).toEqual(['session json', 'name in label', 'cart']);
    expect(places.filter((name) => name === 'token')).toHaveLength(6);
    expect(layout.heartIds).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
    // Whatever the shopper, the answer is the deflated stretches plus their parts and tokens written out.
    const shopper = parts('Ada', 3);
    const stretches = layout.gzip.pieces.reduce((n, p) => n + ('deflated' in p ? p.deflated.length : 0), 0);
    const { body } = personalise(page.body, page.slots, shopper);
    const theirs = body.length - layout.gzip.pieces.reduce((n, p) => n + ('deflated' in p ? p.length : 0), 0);
    expect(signedInGzip(layout, shopper)!.length).toBeLessThanOrEqual(10 + stretches + theirs + 5 * places.length + 2 + 8);
  });

  it('a cart of up to nine items is deflated with the page; a larger one is written as it is', async () => {
    const page = slotted(nobodysPage(4));
    const layout = (await signedInLayout(page.body, page.slots))!;
    const size = (count: number) => signedInGzip(layout, parts('Ada', count))!.length;
    expect(size(12) - size(3)).toBeGreaterThan(cartLink(12).length / 2);
    expect(gunzipSync(signedInGzip(layout, parts('Ada', 12))!).toString()).toContain(cartLink(12));
  });

  it('every shopper\'s page is as long, the parts filled out to their room; a part longer than its room gets the page compressed whole', async () => {
    const page = slotted(nobodysPage(4));
    const layout = (await signedInLayout(page.body, page.slots))!;
    const lengths = [parts('Ada', 0), parts('Ọláolúwa & <Chí>', 12), parts('A'.repeat(120), null)].map((shopper) => personalise(page.body, page.slots, shopper).body.length);
    expect(new Set(lengths).size).toBe(1);
    const long = parts('&'.repeat(40), 1);
    expect(nameInLabel('&'.repeat(40)).length).toBeGreaterThan(PERSONAL_ROOM.nameInLabel);
    expect(signedInGzip(layout, long)).toBeNull();
    expect(personalise(page.body, page.slots, long).body.toString()).toContain(`aria-label="Account menu for ${'&amp;'.repeat(40)}"`);
  });

  it('a pressed heart on the page is left to the whole page\'s compression', async () => {
    const page = slotted(nobodysPage(4));
    const layout = (await signedInLayout(page.body, page.slots))!;
    expect(signedInGzip(layout, parts('Ada', 1, [3]))).toBeNull();
    expect(personalise(page.body, page.slots, parts('Ada', 1, [3])).pressedHearts).toBe(1);
  });

  it('a page without one of the header parts is not laid out', async () => {
    const page = slotted(Buffer.from(nobodysPage(2).toString().replace(cartLink(null), '')));
    expect(await signedInLayout(page.body, page.slots)).toBeNull();
  });
});
