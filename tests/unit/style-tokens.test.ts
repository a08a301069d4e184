import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Styles: colours, the type scale and the spacing scale live in one place,
 * src/styles/tokens.css; every other file uses var(--…). These checks keep it so.
 *
 * The few exceptions are files whose HTML is shown without the store's stylesheet, where a CSS
 * variable cannot work, and the seed's data. They sit in src/lib/server, which is regrouped into
 * feature folders, so they are named by file name (and only count under src/lib/server).
 */
const SRC = 'src';
const TOKENS = 'src/styles/tokens.css';
const SERVER = 'src/lib/server/';

/** Files under src/lib/server that may hold raw hex colours, and why. */
const HEX_EXCEPTIONS: Record<string, string> = {
  'error-pages.ts': 'error pages are served as inline HTML without the stylesheet',
  'mail.ts': 'the email layout: mail clients do not support CSS variables',
  'pdf.ts': "the printed documents' colours: PDF drawing takes colour values, not CSS variables",
  'order-mails.ts': "the order confirmation email's rows (email HTML)",
  'newsletter.ts': 'the newsletter confirm and welcome emails (email HTML)',
  'seed.ts': "seed data: the demo catalogue's colours (swatches) and picture palettes",
  'seed-art.ts': "seed data: the demo catalogue's generated SVG pictures",
};

/** Files under src/lib/server that may set font sizes in px, and why. */
const FONT_SIZE_EXCEPTIONS: Record<string, string> = {
  'mail.ts': 'the email layout (email HTML)',
  'accounts.ts': 'the sign-in code email (email HTML)',
  'staff.ts': 'the back-office device code emails (email HTML)',
  'newsletter.ts': 'the newsletter confirm and welcome emails (email HTML)',
};

/** Single lines elsewhere that may hold a hex colour, and why. */
const HEX_LINES: Record<string, string> = {
  '<meta name="theme-color" content="#16130e" />': 'a meta tag cannot read CSS variables (this is --ink)',
};

/** Font-size values allowed outside the tokens file besides the scale. */
const FONT_SIZE_VALUES_ALLOWED = ['inherit'];

const HEX = /(?<![&\w])#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})\b/g;
const FONT_SIZE = [/font-size\s*:\s*([^;"'`}\n]+)/g, /fontSize\s*:\s*([^,}\n]+)/g, /font-size=["'{]([^"'}]+)/g];
const FONT_SHORTHAND = /(?<![-\w])font\s*:\s*([^;"'`}\n]+)/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(astro|css|ts|tsx|js|mjs)$/.test(name) ? [relative('.', path).split('\\').join('/')] : [];
  });
}

// A picture written into a stylesheet (url("data:image/svg+xml,…")) draws its own colours and
// type; it is an image, not the page's styles.
const withoutDataUrls = (text: string) => text.replace(/url\((["'])data:[^\n]*?\1\)/g, 'url()');
const sources = files(SRC).map((path) => ({ path, text: withoutDataUrls(readFileSync(path, 'utf8')) }));
const excepted = (path: string, list: Record<string, string>) => path.startsWith(SERVER) && basename(path) in list;
const tokens = readFileSync(TOKENS, 'utf8');
const scale = [...tokens.matchAll(/(--text-[\w-]+)\s*:/g)].map((m) => m[1]!);

describe('style tokens', () => {
  it('keeps raw hex colours in the tokens file only (the documented exceptions aside)', () => {
    const found: string[] = [];
    for (const { path, text } of sources) {
      if (path === TOKENS || excepted(path, HEX_EXCEPTIONS)) continue;
      text.split('\n').forEach((line, i) => {
        if (line.trim() in HEX_LINES) return;
        for (const m of line.matchAll(HEX)) found.push(`${path}:${i + 1} ${m[0]}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('names only exceptions that still exist and still need it', () => {
    const stale = Object.keys(HEX_EXCEPTIONS).filter(
      (name) => !sources.some(({ path, text }) => excepted(path, { [name]: "" }) && new RegExp(HEX.source).test(text)),
    );
    expect(stale).toEqual([]);
    const lines = Object.keys(HEX_LINES).filter((line) => !sources.some(({ text }) => text.split('\n').some((l) => l.trim() === line)));
    expect(lines).toEqual([]);
  });

  it('gives the theme colour the same value as the --ink token', () => {
    const ink = /--ink:\s*(#[0-9a-fA-F]+)/.exec(tokens)?.[1];
    expect(Object.keys(HEX_LINES).join('\n')).toContain(`content="${ink}"`);
  });

  it('has a type scale of at most eight sizes', () => {
    expect(scale.length).toBeGreaterThan(0);
    expect(scale.length).toBeLessThanOrEqual(8);
  });

  it('sets every font size from the scale (or inherits it)', () => {
    const values = new Set<string>();
    const off: string[] = [];
    for (const { path, text } of sources) {
      if (path === TOKENS || excepted(path, FONT_SIZE_EXCEPTIONS)) continue;
      for (const rx of FONT_SIZE) {
        for (const m of text.matchAll(rx)) {
          const value = m[1]!.replace(/\s*!important\s*$/, '').trim();
          values.add(value);
          const token = /^var\((--text-[\w-]+)\)$/.exec(value)?.[1];
          if (!(token && scale.includes(token)) && !FONT_SIZE_VALUES_ALLOWED.includes(value)) off.push(`${path}: ${value}`);
        }
      }
      // The font shorthand must not carry a size of its own.
      for (const m of text.matchAll(FONT_SHORTHAND)) {
        if (/\d(px|rem|em|%|pt)\b/.test(m[1]!)) off.push(`${path}: font: ${m[1]!.trim()}`);
      }
    }
    expect(off).toEqual([]);
    expect(values.size).toBeLessThanOrEqual(scale.length + FONT_SIZE_VALUES_ALLOWED.length);
  });

  it('uses only custom properties that are defined', () => {
    const defined = new Set(sources.flatMap(({ text }) => [...text.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!)));
    const undefinedRefs = new Set<string>();
    for (const { path, text } of sources) {
      for (const m of text.matchAll(/var\((--[\w-]+)/g)) if (!defined.has(m[1]!)) undefinedRefs.add(`${path}: ${m[1]}`);
    }
    expect([...undefinedRefs]).toEqual([]);
  });
});
