import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { labelPdf, type ManualLabelFacts } from '@/lib/server/delivery/manual';
import type { CourierAddress } from '@/lib/server/delivery/port';
import { packingSlipPdf, type PackingSlipFacts } from '@/lib/server/delivery/packing-slip';
import { HOUSE_FONTS, houseDocument } from '@/lib/server/infra/pdf';
import { NAMES, pdfPages, pdfText } from '../support/pdf-text';


/**
 * Every letter of Nigerian and South African names, precomposed and with combining marks, and the
 * signs the documents print: Yoruba (tones on ẹ ọ ṣ and the syllabic n and m), Igbo (ị ụ ṅ), Hausa
 * (the hooked ɓ ɗ ƙ ƴ and its apostrophe), Afrikaans, Sesotho sa Leboa (š), Tshivenḓa (ḓ ḽ ṅ ṋ ṱ),
 * the two currencies and the separators en-ZA's number format uses.
 */
const LETTERS = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'àáèéìíòóùúÀÁÈÉÌÍÒÓÙÚ ẹọṣẸỌṢ ńǹḿŃǸḾ ẹ́ẹ̀ọ́ọ̀ṣ́Ẹ́Ẹ̀Ọ́Ọ̀ m̀ M̀ ā ē ī ō ū',
  'ịụṅỊỤṄ ị́ị̀ụ́ụ̀',
  'ɓɗƙƴƁƊƘƳ ʼ ’',
  'êëôûîïýŉÊËÔÛÎÏÝ',
  'šŠ ḓḽṋṱḒḼṊṰ',
  '₦ R € £ $ % × – — · “ ” ‘ ’ … ₦\u00a0\u202f',
];
const COMBINING = ['\u0300', '\u0301', '\u0302', '\u0304', '\u0307', '\u0308', '\u0323', '\u032d'];

const codePoints = (s: string) => [...new Set([...s.normalize('NFC'), ...s.normalize('NFD'), ...COMBINING])].filter((c) => c.trim() !== '' || c === '\u00a0' || c === '\u202f');

describe('the house font', () => {
  for (const [face, path] of Object.entries(HOUSE_FONTS)) {
    it(`${face} carries every letter of the markets' names, precomposed and combining, and the marks' anchors`, () => {
      const font = fontkit.create(readFileSync(path)) as fontkit.Font;
      const missing = codePoints(LETTERS.join('')).filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!));
      expect(missing.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)).toEqual([]);
      // The marks are placed by the font's own positioning, not stacked by chance.
      expect(font.availableFeatures).toEqual(expect.arrayContaining(['mark', 'mkmk', 'kern']));
    });
  }
});

describe('a PDF in the house style', () => {
  it('prints each name as written and reads back the same letters (NFC), also when typed decomposed', async () => {
    const pdf = houseDocument({ size: 'A4', title: 'Names' });
    for (const name of NAMES) pdf.text(name, 'body').text(name.normalize('NFD'), 'strong').text(`For ${name}`, 'eyebrow');
    // The plain letters that share a glyph with a marked one read back plain.
    pdf.text('Nomvula oko ẹyẹ ọkọ', 'body');
    const text = await pdfText(await pdf.finish());
    for (const name of NAMES) {
      expect(text.split(name.normalize('NFC')).length - 1).toBe(2);
      // In spaced capitals too, the words kept apart.
      expect(text).toContain(`FOR ${name.toLocaleUpperCase('en')}`.normalize('NFC'));
    }
    expect(text).toContain('Nomvula oko ẹyẹ ọkọ');
    expect(text).not.toMatch(/[\u0000-\u0008\ufffd]/);
  });

  it('documents made one after another each read back right (no glyph keeps another document\'s text)', async () => {
    // The first embeds Ò, whose outline is O's and a grave's; the second draws a plain O.
    const first = houseDocument({ size: 'A6', title: 'First' });
    await first.text('Ògúnlẹ́sì ẹ ọ', 'body').finish();
    const second = houseDocument({ size: 'A6', title: 'Second' });
    expect(await pdfText(await second.text('Order OE eo', 'body').finish())).toContain('Order OE eo');
  });

  it('embeds a subset of the font: a page of text stays small', async () => {
    const pdf = houseDocument({ size: 'A4', title: 'Small' });
    pdf.text('Maison Luxe', 'brand').text(NAMES.join(', '), 'body');
    const bytes = await pdf.finish();
    expect(bytes.length).toBeLessThan(30_000);
    expect(Buffer.from(bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
  });

  it('repeats a table\'s headings on every page its rows run on to, and numbers the pages', async () => {
    const pdf = houseDocument({ size: 'A4', title: 'Long', footer: 'Long table' });
    pdf.table(
      [
        { header: 'Piece', width: 300 },
        { header: 'Count', width: 199, align: 'right' },
      ],
      Array.from({ length: 90 }, (_, i) => ({ cells: [`Piece ${i + 1}`, String(i + 1)] })),
    );
    const pages = await pdfPages(await pdf.finish());
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, i) => {
      expect(page).toMatch(/PIECE\s+COUNT/);
      expect(page).toContain(`Long table · Page ${i + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    for (let i = 1; i <= 90; i++) expect(all).toMatch(new RegExp(`Piece ${i}\\s+${i}(\\s|$)`));
  });
});

const address = (name: string): CourierAddress => ({ name, country: 'NG', line1: '12 Awolowo Road', line2: 'Flat 3', city: 'Ikoyi', region: 'Lagos', postalCode: '101233', phone: '+2348031234567', landmark: 'Opposite the bank' });

describe('the parcel label', () => {
  for (const name of NAMES) {
    it(`prints ${name} on an A6 page and reads it back`, async () => {
      const facts: ManualLabelFacts = { orderReference: 'ML-ABCD2345', trackingNumber: 'MLD-0123456789', kind: 'delivery', from: { ...address('Maison Luxe Lagos'), landmark: null }, to: address(name), collect: 'NGN 12,000.00' };
      const bytes = await labelPdf(facts);
      const text = await pdfText(bytes);
      expect(text).toContain(name);
      for (const part of ['MAISON LUXE', 'DELIVERY', 'Tracking MLD-0123456789', 'Order ML-ABCD2345', 'TO', 'FROM', '12 Awolowo Road', 'Landmark: Opposite the bank', 'COLLECT AT THE DOOR: NGN 12,000.00']) expect(text).toContain(part);
      const pages = await pdfPages(bytes);
      expect(pages).toHaveLength(1);
    });
  }

  it('says a return is a collection, and asks nothing at the door when nothing is due', async () => {
    const text = await pdfText(await labelPdf({ orderReference: 'ML-ABCD2345', trackingNumber: 'MLD-0123456789', kind: 'return', from: address(NAMES[0]!), to: address('Maison Luxe Lagos'), collect: null }));
    expect(text).toContain('RETURN COLLECTION');
    expect(text).toContain(NAMES[0]);
    expect(text).not.toContain('COLLECT AT THE DOOR');
  });
});

describe('the packing slip', () => {
  const slip = (name: string, over: Partial<PackingSlipFacts> = {}): PackingSlipFacts => ({
    trackingNumber: 'ML-ABCD2345',
    placed: '2026-11-14',
    locker: null,
    recipient: { heading: 'Deliver to', name, address: '12 Awolowo Road, Ikoyi, Lagos, 101233, Nigeria', phone: '+2348031234567' },
    items: [
      { name: 'Quilted leather shoulder bag', colour: 'Black', size: null, quantity: 1 },
      { name: 'Silk twill scarf', colour: 'Ivory', size: 'One size', quantity: 2 },
    ],
    gift: null,
    ...over,
  });

  for (const name of NAMES) {
    it(`prints ${name} and what is in the parcel, never a price`, async () => {
      const text = await pdfText(await packingSlipPdf(slip(name)));
      expect(text).toContain(name);
      for (const part of ['Packing slip', 'Order ML-ABCD2345 · placed 2026-11-14', 'DELIVER TO', 'Phone: +2348031234567', 'IN THIS PARCEL', 'Quilted leather shoulder bag', 'Silk twill scarf', 'One size']) expect(text).toContain(part);
      expect(text).not.toMatch(/₦|NGN|(^|\s)R[\s\u00a0]?\d/);
    });
  }

  it("a gift's card: for whom, the message, from whom and the recipient's return link; a locker and its code", async () => {
    const text = await pdfText(
      await packingSlipPdf(
        slip(NAMES[1]!, {
          locker: { line: 'PUDO locker Rosebank Mall, 50 Bath Ave, Johannesburg', code: 'CG54' },
          recipient: { heading: 'Collected by', name: NAMES[1]!, address: null, phone: '+27821234567' },
          gift: { recipientName: NAMES[1]!, message: 'E ku ọjọ́ ìbí, from all of us in Ìbàdàn', from: 'Adébáyọ̀', returnLink: 'https://maisonluxe.example/gift-return/abc' },
        }),
      ),
    );
    for (const part of ['DELIVER TO PUDO LOCKER', 'Locker code: CG54', 'COLLECTED BY', `A GIFT FOR ${NAMES[1]!.toLocaleUpperCase('en')}`, 'E ku ọjọ́ ìbí, from all of us in Ìbàdàn', 'From Adébáyọ̀', 'https://maisonluxe.example/gift-return/abc']) {
      expect(text).toContain(part.normalize('NFC'));
    }
  });
});
