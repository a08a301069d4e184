import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { encode as encodeQr } from 'uqr';
import { STORE_NAME } from '@/lib/domain/brand';

/**
 * A PDF document in the house's style: the one way the store makes a PDF (the parcel label, the
 * packing slip, tax invoices and credit notes). pdfkit lays the text out with fontkit, which places
 * combining marks from the font's own anchors, and embeds a subset of Noto Sans, whose one file
 * carries every letter of Nigerian and South African names (Yoruba ẹ ọ ṣ with their tones, Igbo
 * ị ụ ṅ, Hausa ɓ ɗ ƙ ƴ, Afrikaans ê ë ŉ) and the ₦ sign. ADR 0057 says why this font package.
 */

const fontFolder = join(dirname(createRequire(import.meta.url).resolve('@embedpdf/fonts-latin')), '..', 'fonts');

/** The two faces every document uses, from node_modules (nothing is fetched at run time). */
export const HOUSE_FONTS = {
  regular: join(fontFolder, 'NotoSans-Regular.ttf'),
  bold: join(fontFolder, 'NotoSans-Bold.ttf'),
} as const;

/**
 * The faces, read and parsed once per process and shared by every document: parsing Noto Sans's
 * positioning tables costs more than drawing a page (a label took ten times as long with a copy
 * per document). Each document still embeds its own subset.
 *
 * pdfkit writes each glyph's text (the ToUnicode map) from the code points fontkit keeps with the
 * glyph, and fontkit keeps the glyph it made first. A subset made for one document makes the
 * outlines a composite letter is built of (Ò is O and a grave) with no code points, and the next
 * document's plain O would then read back as nothing. So a glyph asked for again with its code
 * points takes them when it had none.
 */
function face(path: string): fontkit.Font {
  const font = fontkit.create(readFileSync(path)) as fontkit.Font;
  const getGlyph = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints);
    if (codePoints?.length && glyph.codePoints.length === 0) glyph.codePoints = codePoints;
    return glyph;
  };
  return font;
}
let faces: { regular: fontkit.Font; bold: fontkit.Font } | undefined;
/** pdfkit's types know paths and bytes; it also takes a fontkit font as it is (PDFFontFactory.open). */
function houseFaces(): { regular: string; bold: string } {
  faces ??= { regular: face(HOUSE_FONTS.regular), bold: face(HOUSE_FONTS.bold) };
  return faces as unknown as { regular: string; bold: string };
}

/**
 * The tokens' colours (src/styles/tokens.css) as PDF drawing takes them: --ink, --muted,
 * --gold-ink (gold text on paper), --gold (rules and the gift card's border) and --line.
 */
const COLOURS = { ink: '#16130e', muted: '#5c544a', goldInk: '#7a5a1c', gold: '#c9a14a', line: '#ddd3c2' } as const;
export type HouseColour = keyof typeof COLOURS;

/**
 * The type scale of printed documents, in points. Capitals are spaced by less than a tenth of
 * their size: more, and readers copying the text (pdf.js, Acrobat) take each gap for a space.
 */
const STYLES = {
  /** The store's name: small capitals, spaced. */
  brand: { face: 'bold', size: 9, colour: 'goldInk', spacing: 0.85 },
  /** A document's title ("Tax Invoice"). */
  title: { face: 'regular', size: 22, colour: 'ink', spacing: 0 },
  /** A section's name over its content ("Bill to"), in spaced capitals. */
  eyebrow: { face: 'bold', size: 7, colour: 'muted', spacing: 0.65 },
  /** A table's column headings: the eyebrow's capitals, set tighter to keep to one line. */
  columnHead: { face: 'bold', size: 6.8, colour: 'muted', spacing: 0.5 },
  body: { face: 'regular', size: 9.5, colour: 'ink', spacing: 0 },
  strong: { face: 'bold', size: 9.5, colour: 'ink', spacing: 0 },
  small: { face: 'regular', size: 7.5, colour: 'muted', spacing: 0 },
  /** What must be read from a distance: a label's tracking number, a gift's message. */
  large: { face: 'bold', size: 13, colour: 'ink', spacing: 0 },
  lead: { face: 'regular', size: 12, colour: 'ink', spacing: 0 },
  /** A gift's message on its card. */
  message: { face: 'regular', size: 15, colour: 'ink', spacing: 0 },
} as const;
export type HouseStyle = keyof typeof STYLES;
/** The styles set in capitals (the text is written as given; the capitals are the style's). */
const CAPITALS: ReadonlySet<HouseStyle> = new Set(['brand', 'eyebrow', 'columnHead']);

/**
 * fontkit's shaping with the glyph composition feature off. The font's ccmp feature takes a
 * precomposed letter apart when a mark follows (ọ and a grave become o, a dot below and the
 * grave), and pdfkit writes each glyph's text from the first time it drew it: every later plain
 * o would then copy out as ọ. Off, each glyph comes from one code point (the text is NFC first,
 * so ọ is one glyph), the marks are still placed by GPOS, and copying the text or reading it
 * back gives the letters that were written. fontkit takes features as an object of on/off, which
 * pdfkit passes through untouched; its types only know the list form.
 */
const SHAPING = { ccmp: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];

const PAGE_SIZES = { A4: [595.28, 841.89], A6: [297.64, 419.53] } as const;

export interface HouseDocumentOptions {
  size: keyof typeof PAGE_SIZES;
  /** The document's title in the reader's window and its metadata. */
  title: string;
  margin?: number;
  /** The text at the foot of every page, before "Page n of N"; none when absent. */
  footer?: string;
  /** The date the file says it was made (a tax document's issue date); now by default. */
  createdAt?: Date;
}

export interface TextOptions {
  x?: number;
  y?: number;
  width?: number;
  align?: 'left' | 'right' | 'center';
  colour?: HouseColour;
  /** Extra space under each line, in points. */
  lineGap?: number;
}

/** A table's column: its heading, its width in points and which side its text keeps to. */
export interface TableColumn {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** A table's row: one text per column (a cell may hold line breaks), and its style. */
export interface TableRow {
  cells: string[];
  style?: HouseStyle;
  /** A second, smaller line under the first cell (a unit price, a colour and size). */
  note?: string;
}

const CELL_PADDING = 5;
const FOOTER_ROOM = 22;

export class HouseDocument {
  private readonly doc: PDFKit.PDFDocument;
  private readonly bytes: Promise<Uint8Array>;
  private readonly footer: string | undefined;
  readonly left: number;
  readonly width: number;

  constructor(options: HouseDocumentOptions) {
    const margin = options.margin ?? 48;
    this.doc = new PDFDocument({
      size: [...PAGE_SIZES[options.size]],
      margin,
      // The house font from the first line: pdfkit would otherwise open Helvetica from its own files.
      font: houseFaces().regular,
      pdfVersion: '1.7',
      lang: 'en',
      displayTitle: true,
      bufferPages: options.footer !== undefined,
      info: { Title: options.title, Author: STORE_NAME, Creator: STORE_NAME, CreationDate: options.createdAt ?? new Date() },
    });
    this.doc.registerFont('regular', houseFaces().regular);
    this.doc.registerFont('bold', houseFaces().bold);
    const chunks: Buffer[] = [];
    this.doc.on('data', (c: Buffer) => chunks.push(c));
    this.bytes = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      this.doc.on('error', reject);
    });
    this.footer = options.footer;
    this.left = margin;
    this.width = this.doc.page.width - 2 * margin;
  }

  /** Where the next block starts, from the top of the page. */
  get y(): number {
    return this.doc.y;
  }

  set y(value: number) {
    this.doc.y = value;
  }

  get right(): number {
    return this.left + this.width;
  }

  /** The lowest point content may reach on a page (the footer keeps its room below). */
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom - (this.footer === undefined ? 0 : FOOTER_ROOM);
  }

  /**
   * Sets the style's face, size and colour; the options for writing `text` in it. Spaced capitals
   * are spaced only when no combining mark is left after NFC: pdfkit places a mark by moving to
   * its position and back, and that move forgets the spacing of the letters before it, so the rest
   * of the line would slide back over them.
   */
  private use(style: HouseStyle, text: string, colour?: HouseColour): PDFKit.Mixins.TextOptions {
    const s = STYLES[style];
    this.doc.font(s.face).fontSize(s.size).fillColor(COLOURS[colour ?? s.colour]);
    return { characterSpacing: /\p{Mn}/u.test(text) ? 0 : s.spacing, features: SHAPING };
  }

  private prepared(value: string, style: HouseStyle): string {
    return (CAPITALS.has(style) ? value.toLocaleUpperCase('en') : value).normalize('NFC');
  }

  /** Writes text in a style, wrapped to the width (the column's from x by default); the next block goes under it. */
  text(value: string, style: HouseStyle, options: TextOptions = {}): this {
    const text = this.prepared(value, style);
    const base = this.use(style, text, options.colour);
    const x = options.x ?? this.left;
    this.doc.text(text, x, options.y ?? this.doc.y, {
      ...base,
      width: options.width ?? this.right - x,
      align: options.align ?? 'left',
      lineGap: options.lineGap ?? 1.5,
    });
    return this;
  }

  /** The height the text would take in a style and width. */
  heightOf(value: string, style: HouseStyle, width: number, lineGap = 1.5): number {
    const text = this.prepared(value, style);
    return this.doc.heightOfString(text, { ...this.use(style, text), width, lineGap });
  }

  /** Leaves a gap under the last block. */
  space(points: number): this {
    this.doc.y += points;
    return this;
  }

  /** A hairline across the column (or from x to x + width) at the current height. */
  rule(options: { colour?: HouseColour; x?: number; width?: number; weight?: number } = {}): this {
    const x = options.x ?? this.left;
    const y = this.doc.y;
    this.doc
      .save()
      .moveTo(x, y)
      .lineTo(x + (options.width ?? this.width), y)
      .lineWidth(options.weight ?? 0.5)
      .strokeColor(COLOURS[options.colour ?? 'line'])
      .stroke()
      .restore();
    return this;
  }

  /** A rectangle's outline (the gift card's frame). */
  frame(x: number, y: number, width: number, height: number, colour: HouseColour = 'gold'): this {
    this.doc.save().rect(x, y, width, height).lineWidth(0.75).strokeColor(COLOURS[colour]).stroke().restore();
    return this;
  }

  /** A new page when fewer than `height` points are left on this one; true when it turned. */
  keepTogether(height: number): boolean {
    if (this.doc.y + height <= this.bottom) return false;
    this.doc.addPage();
    return true;
  }

  /**
   * A table across the column: its headings, a hairline under each row, and the headings again on
   * every page the rows run on to (a row is never split).
   */
  table(columns: TableColumn[], rows: TableRow[]): this {
    // Cells are padded between columns only: the first and last texts keep to the margins.
    const inner = columns.map((c, i) => {
      const before = i === 0 ? 0 : CELL_PADDING;
      const after = i === columns.length - 1 ? 0 : CELL_PADDING;
      return { offset: before, width: c.width - before - after, align: c.align ?? 'left' };
    });
    const header = () => {
      const top = this.doc.y;
      let height = 0;
      let x = this.left;
      columns.forEach((c, i) => {
        const cell = inner[i]!;
        this.text(c.header, 'columnHead', { x: x + cell.offset, y: top, width: cell.width, align: cell.align });
        height = Math.max(height, this.doc.y - top);
        x += c.width;
      });
      this.doc.y = top + height + CELL_PADDING;
      this.rule({ colour: 'ink', weight: 0.6 });
    };
    const rowHeight = (row: TableRow) =>
      Math.max(
        ...inner.map((cell, i) => {
          const main = this.heightOf(row.cells[i] ?? '', row.style ?? 'body', cell.width);
          return i === 0 && row.note ? main + 1 + this.heightOf(row.note, 'small', cell.width) : main;
        }),
      ) +
      CELL_PADDING * 2;
    header();
    for (const row of rows) {
      const height = rowHeight(row);
      if (this.keepTogether(height)) header();
      const top = this.doc.y;
      let x = this.left;
      let noteY = top;
      columns.forEach((c, i) => {
        const cell = inner[i]!;
        this.text(row.cells[i] ?? '', row.style ?? 'body', { x: x + cell.offset, y: top + CELL_PADDING, width: cell.width, align: cell.align });
        if (i === 0) noteY = this.doc.y + 1;
        x += c.width;
      });
      // The note last, so that text read out of the file keeps the row's cells on one line.
      if (row.note) this.text(row.note, 'small', { x: this.left, y: noteY, width: inner[0]!.width });
      this.doc.y = top + height;
      this.rule();
    }
    return this;
  }

  /** A QR code of the data, `size` points square, its top left at (x, y): dark modules as filled runs. */
  qr(data: string, x: number, y: number, size: number): this {
    const code = encodeQr(data, { ecc: 'M', border: 0 });
    const m = size / code.size;
    this.doc.save().fillColor(COLOURS.ink);
    code.data.forEach((row, r) => {
      let c = 0;
      while (c < row.length) {
        if (!row[c]) {
          c++;
          continue;
        }
        const start = c;
        while (c < row.length && row[c]) c++;
        this.doc.rect(x + start * m, y + r * m, (c - start) * m, m);
      }
    });
    this.doc.fill().restore();
    return this;
  }

  /** The finished file: every page's footer written ("… · Page n of N"), then the bytes. */
  async finish(): Promise<Uint8Array> {
    if (this.footer !== undefined) {
      const range = this.doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        this.doc.switchToPage(i);
        // Written under the bottom margin, which pdfkit would otherwise take as a reason for a new page.
        const margins = this.doc.page.margins;
        const bottom = margins.bottom;
        margins.bottom = 0;
        const text = `${this.footer} · Page ${i - range.start + 1} of ${range.count}`;
        this.text(text, 'small', { x: this.left, y: this.doc.page.height - bottom - STYLES.small.size - 4, width: this.width, align: 'center' });
        margins.bottom = bottom;
      }
    }
    this.doc.end();
    return this.bytes;
  }
}

export function houseDocument(options: HouseDocumentOptions): HouseDocument {
  return new HouseDocument(options);
}

/** A PDF as an HTTP answer, opened in the browser, never kept by a cache. */
export function pdfResponse(pdf: Uint8Array, filename: string): Response {
  const safe = filename.replace(/[^A-Za-z0-9._-]/g, '');
  return new Response(new Uint8Array(pdf), {
    headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${safe}"`, 'cache-control': 'no-store' },
  });
}
