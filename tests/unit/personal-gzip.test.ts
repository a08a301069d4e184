import { randomBytes } from 'node:crypto';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { accountControl, cartLink, favouriteButton, favouriteForms, menuAccountLinks, sessionScript } from '@/components/personal-parts';
import { CSRF_TOKEN_LENGTH, csrfTokenFor } from '@/lib/server/infra/csrf';
import { copyBlock, personalGzip, personalGzipLayout, storedBlock } from '@/lib/server/storefront/personal-gzip';
import { CSRF_SLOT, personalise, SHOWN_SLOT, slotted, type PersonalParts, type SlottedPage } from '@/lib/server/storefront/shared-pages';

const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);
const join = (...parts: Uint8Array[]) => Buffer.concat(parts);

describe('deflate blocks written by hand', () => {
  it('a stored block gives its bytes back', () => {
    const bytes = randomBytes(1000);
    expect(inflateRawSync(join(storedBlock(bytes), FINAL_BLOCK)).equals(bytes)).toBe(true);
  });

  it('a copy block repeats what lies `distance` back, for every length and distance code', () => {
    const lengths = [3, 4, 10, 11, 18, 19, 34, 35, 43, 50, 66, 67, 130, 131, 257, 258];
    const distances = [1, 2, 4, 5, 8, 9, 24, 25, 100, 257, 1024, 1025, 4096, 8193, 16385, 24577, 32768];
    const before = randomBytes(32768);
    for (const length of lengths) {
      for (const distance of distances) {
        const expected = Buffer.alloc(before.length + length);
        before.copy(expected);
        // A copy may overlap what it writes (distance < length): byte by byte, as deflate does.
        for (let i = 0; i < length; i++) expected[before.length + i] = expected[before.length - distance + i]!;
        const stream = join(storedBlock(before), copyBlock(length, distance), FINAL_BLOCK);
        expect(inflateRawSync(stream).equals(expected), `length ${length}, distance ${distance}`).toBe(true);
      }
    }
  });

  it('refuses a copy deflate cannot express', () => {
    expect(() => copyBlock(2, 1)).toThrow(RangeError);
    expect(() => copyBlock(43, 32769)).toThrow(RangeError);
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

/** The layout as shared-pages makes it: the region from the first personal place to the header's last part. */
async function layoutOf({ body, slots }: SlottedPage) {
  const page = Buffer.from(body);
  const end = page.indexOf('<!--account links-->') + '<!--account links-->'.length;
  const start = Math.min(page.indexOf('<script type="application/json" id="ml-session">'), ...slots.filter((at) => at < end));
  return personalGzipLayout(page, { start, end }, slots, CSRF_SLOT.length);
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
      const layout = await layoutOf(page);
      for (const shopper of [parts('Ada', 0), parts('Ọláolúwa & <Chí>', 12), parts('A'.repeat(120), null), parts("O'Neil", 1)]) {
        const { body, missing, pressedHearts } = personalise(page.body, page.slots, shopper);
        expect(missing).toEqual([]);
        expect(pressedHearts).toBe(0);
        const answer = personalGzip(layout, body, Buffer.from(shopper.csrfToken!));
        expect(gunzipSync(answer).equals(Buffer.from(body))).toBe(true);
        expect(new TextDecoder().decode(gunzipSync(answer))).not.toContain(CSRF_SLOT);
        expect(new TextDecoder().decode(gunzipSync(answer))).not.toContain(SHOWN_SLOT);
      }
    });
  }

  it('writes each token below the header once; the others are copies of the one before (9 bytes, not 48)', async () => {
    const layout = await layoutOf(slotted(nobodysPage(48)));
    const tokens = layout.pieces.filter((p) => 'tokenAt' in p);
    // The hearts' two forms, the newsletter and the island: one slot each, whatever the number of hearts.
    expect(tokens).toHaveLength(4);
    expect(tokens.map((t) => t.copyDistance === null)).toEqual([true, false, false, false]);
  });

  it('a pressed heart below the header is left to the whole page\'s compression', () => {
    const page = slotted(nobodysPage(4));
    expect(personalise(page.body, page.slots, parts('Ada', 1, [3])).pressedHearts).toBe(1);
  });
});
