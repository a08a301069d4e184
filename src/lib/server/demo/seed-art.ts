/**
 * Procedural "studio photography" artwork for the demo catalogue.
 *
 * Pure string generation (no I/O, no fonts, no <text>, no external references) so the SVGs
 * rasterise identically with librsvg (sharp) on any machine. Every item is drawn in a local
 * coordinate space: x centred on 0, the item standing on the floor at y = 0 and extending
 * upwards (negative y). Scenes place, scale and light these drawings.
 */

export type ArtKind =
  | 'tote' | 'crossbody' | 'clutch' | 'backpack' | 'duffel' // bags
  | 'dress' | 'shirt' | 'jacket' | 'trousers' // clothing
  | 'heel' | 'sneaker' | 'loafer' | 'sandal' // shoes
  | 'belt' | 'scarf' | 'wallet' | 'sunglasses'; // accessories

export interface ProductArtOptions {
  kind: ArtKind;
  colorHex: string; // main colour of the item, e.g. '#7a1f2b'
  view: 0 | 1 | 2 | 3; // 0 = front hero, 1 = angled/alternate backdrop, 2 = close-up detail, 3 = lifestyle
  seed: number; // deterministic variation; same inputs => identical output string
}

export interface BannerArtOptions {
  kinds: ArtKind[]; // 2-4 items to compose into a wide editorial banner
  palette: [string, string]; // two backdrop colours
  seed: number;
}

/* ------------------------------------------------------------------ colour utilities */

type RGB = [number, number, number];

const clamp = (v: number, lo = 0, hi = 1): number => Math.min(hi, Math.max(lo, v));

function parseHex(hex: string): RGB {
  let h = String(hex ?? '').trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(h)) h = h.replace(/./g, (ch) => ch + ch);
  if (!/^[0-9a-f]{6}$/i.test(h)) return [128, 128, 128];
  const n = parseInt(h, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(c: RGB): string {
  return '#' + c.map((v) => Math.round(clamp(v, 0, 255)).toString(16).padStart(2, '0')).join('');
}

function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

function luminance(hex: string): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  const [r, g, b] = parseHex(hex);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function toHsl(hex: string): [number, number, number] {
  const [r0, g0, b0] = parseHex(hex);
  const r = r0 / 255;
  const g = g0 / 255;
  const b = b0 / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h * 60, s, l];
}

function hsl(h: number, s: number, l: number): string {
  const hh = (((h % 360) + 360) % 360) / 360;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const f = (t: number): number => {
    let x = t;
    if (x < 0) x += 1;
    if (x > 1) x -= 1;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return toHex([f(hh + 1 / 3) * 255, f(hh) * 255, f(hh - 1 / 3) * 255]);
}

/** Deterministic PRNG (mulberry32). */
function rng(seed: number, salt = 0): () => number {
  let a = (Math.imul(Math.floor(Number.isFinite(seed) ? seed : 0) ^ 0x5bd1e995, 0x9e3779b1) + salt * 0x6d2b79f5) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const n1 = (v: number): string => String(Math.round(v * 10) / 10);

/* ------------------------------------------------------------------ item palette */

interface Pal {
  base: string;
  hi: string; // specular highlight
  light: string;
  dark: string;
  deep: string;
  edge: string; // outline / rim light
  stitch: string;
  trim: string; // handles, bands, piping
  isDark: boolean;
  isLight: boolean;
  metal: string; // hardware paint (gradient url)
  metalSolid: string;
  metalDark: string;
}

function palette(colorHex: string): Pal {
  const base = toHex(parseHex(colorHex));
  const lum = luminance(base);
  const [h, s, l] = toHsl(base);
  const isDark = lum < 0.07;
  const isLight = lum > 0.6;
  const goldish = h > 37 && h < 56 && s > 0.4 && l > 0.35 && l < 0.75;
  return {
    base,
    hi: mix(base, '#ffffff', isDark ? 0.34 : isLight ? 0.7 : 0.3),
    light: mix(base, '#ffffff', isDark ? 0.16 : 0.12),
    dark: mix(base, '#000000', isDark ? 0.25 : isLight ? 0.14 : 0.28),
    deep: mix(base, '#000000', isLight ? 0.3 : 0.5),
    edge: isDark ? mix(base, '#ffffff', 0.32) : mix(base, '#000000', isLight ? 0.32 : 0.42),
    stitch: lum > 0.45 ? mix(base, '#000000', 0.32) : mix(base, '#ffffff', isDark ? 0.42 : 0.5),
    trim: isDark ? mix(base, '#ffffff', 0.06) : mix(base, '#000000', isLight ? 0.2 : 0.34),
    isDark,
    isLight,
    metal: goldish ? 'url(#ag)' : 'url(#au)',
    metalSolid: goldish ? '#b9bdc2' : '#c9a04f',
    metalDark: goldish ? '#6d7278' : '#8a6a2c',
  };
}

/* ------------------------------------------------------------------ svg helpers */

const stop = (o: number | string, c: string, a?: number): string =>
  `<stop offset="${o}" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${a}"`}/>`;
const lin = (id: string, stops: string, x2 = 0, y2 = 1, x1 = 0, y1 = 0): string =>
  `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops}</linearGradient>`;
const rad = (id: string, stops: string, extra = ''): string => `<radialGradient id="${id}"${extra}>${stops}</radialGradient>`;

const P = (d: string, fill: string, more = ''): string => `<path d="${d}" fill="${fill}"${more ? ' ' + more : ''}/>`;
const L = (d: string, color: string, w: number, more = ''): string =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${w}"${more ? ' ' + more : ''}/>`;
const E = (c: Pal, w = 3): string => `stroke="${c.edge}" stroke-width="${w}"`;
const ST = (d: string, c: Pal, w = 2.4): string =>
  `<path d="${d}" fill="none" stroke="${c.stitch}" stroke-width="${w}" stroke-dasharray="7 5" opacity=".8"/>`;
const RIV = (c: Pal, x: number, y: number, r = 6): string =>
  `<circle cx="${x}" cy="${y}" r="${r}" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1"/>`;
const mirror = (s: string): string => `<g transform="scale(-1 1)">${s}</g>`;

const commonDefs = (): string =>
  lin('au', stop(0, '#f7e9b8') + stop(0.45, '#d6b163') + stop(1, '#8f6c2c'), 1, 1) +
  lin('ag', stop(0, '#f4f6f8') + stop(0.5, '#b7bcc2') + stop(1, '#6a7077'), 1, 1) +
  rad('sh', stop(0, '#000', 0.42) + stop(0.55, '#000', 0.17) + stop(1, '#000', 0)) +
  rad('gl', stop(0, '#fff', 0.55) + stop(1, '#fff', 0)) +
  lin('bs', stop(0, '#000', 0) + stop(1, '#000', 0.2));

/** The item's shading gradients, emitted only when the drawing references them. */
function itemDefs(p: string, c: Pal, svg: string): string {
  const used = (k: string): boolean => svg.includes(`url(#${p}${k})`);
  return (
    (used('h') ? lin(`${p}h`, stop(0, c.dark) + stop(0.2, c.hi) + stop(0.48, c.base) + stop(1, c.deep), 1, 0) : '') +
    (used('v') ? lin(`${p}v`, stop(0, c.hi) + stop(0.5, c.base) + stop(1, c.dark)) : '') +
    (used('t') ? lin(`${p}t`, stop(0, c.light) + stop(1, c.deep)) : '')
  );
}

/* ------------------------------------------------------------------ item drawings */

interface Ctx {
  p: string; // gradient id prefix
  c: Pal;
  r: () => number;
}
interface Item {
  w: number;
  h: number;
  fx: number; // close-up focus point (local coordinates)
  fy: number;
  svg: string;
  defs?: string;
  hang?: boolean; // garment on a hanger (hook at the top, y = -h)
  float?: boolean; // not resting on the floor
}

const HANGER_WOOD = '#b98d5c';
const hanger = (y: number, half: number): string =>
  L(`M${-half} ${y + 34}Q0 ${y - 22} ${half} ${y + 34}`, HANGER_WOOD, 11) +
  L(`M0 ${y}V${y - 26}C0 ${y - 58} 34 ${y - 58} 34 ${y - 32}`, '#a8a9ab', 6);

const DRAW: Record<ArtKind, (x: Ctx) => Item> = {
  tote: ({ p, c, r }) => {
    const hh = 560 + Math.round(r() * 30);
    const h2 = hh - 22;
    const tab = (x: number): string =>
      `<rect x="${x}" y="-396" width="34" height="70" rx="7" fill="${c.trim}" ${E(c, 2)}/>` + RIV(c, x + 17, -346);
    return {
      w: 460, h: hh + 12, fx: -90, fy: -370,
      svg:
        L(`M-128-382C-124-${hh} 124-${hh} 128-382`, c.deep, 20) +
        P('M-226-392H226L197-24Q195 0 172 0H-172Q-195 0-197-24Z', `url(#${p}h)`, E(c)) +
        P('M-226-392H-200L-190-250Z', c.deep, 'opacity=".35"') +
        P('M226-392H200L190-250Z', c.deep, 'opacity=".35"') +
        P('M-197-24Q-195 0-172 0H172Q195 0 197-24L203-110H-203Z', 'url(#bs)') +
        P('M-226-392H226L223-350H-223Z', `url(#${p}t)`, E(c, 2)) +
        ST('M-216-340H216', c) +
        ST('M-210-330L-184-38Q-182-14-160-14H160Q182-14 184-38L210-330', c) +
        L(`M-112-372C-108-${h2} 108-${h2} 112-372`, c.trim, 22) +
        L(`M-118-380C-112-${h2 - 14} 112-${h2 - 14} 118-380`, c.hi, 3, 'opacity=".5"') +
        tab(-129) + tab(95) +
        `<rect x="-48" y="-262" width="96" height="28" rx="6" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1.5"/>` +
        `<rect x="-38" y="-254" width="76" height="12" rx="3" fill="none" stroke="${c.metalDark}" stroke-width="1" opacity=".6"/>`,
    };
  },

  crossbody: ({ p, c, r }) => {
    const top = 500 + Math.round(r() * 40);
    const chain = `M-150-236C-162-${top - 120}-70-${top} 0-${top}C70-${top} 162-${top - 120} 150-236`;
    return {
      w: 360, h: top + 10, fx: 0, fy: -120,
      svg:
        L(chain, c.metalDark, 12, 'stroke-dasharray="20 7"') +
        L(chain, c.metalSolid, 6, 'stroke-dasharray="20 7"') +
        `<rect x="-172" y="-250" width="344" height="250" rx="34" fill="url(#${p}h)" ${E(c)}/>` +
        ST('M-150-60V-30Q-150-16-136-16H136Q150-16 150-30V-60', c) +
        `<circle cx="-150" cy="-236" r="11" fill="none" stroke="${c.metal}" stroke-width="6"/>` +
        `<circle cx="150" cy="-236" r="11" fill="none" stroke="${c.metal}" stroke-width="6"/>` +
        P('M-162-70Q0-44 162-70', 'none', `stroke="#000" stroke-width="10" opacity=".12"`) +
        P('M-172-216Q-172-250-138-250H138Q172-250 172-216V-106Q172-80 142-74Q0-50-142-74Q-172-80-172-106Z', `url(#${p}v)`, E(c)) +
        ST('M-154-214Q-154-232-136-232H136Q154-232 154-214V-110Q154-94 134-90Q0-68-134-90Q-154-94-154-110Z', c) +
        `<rect x="-36" y="-98" width="72" height="46" rx="12" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1.5"/>` +
        `<rect x="-10" y="-90" width="20" height="30" rx="9" fill="${c.metalDark}" opacity=".55"/>` +
        `<rect x="-6" y="-86" width="12" height="22" rx="6" fill="${c.metal}"/>`,
    };
  },

  clutch: ({ p, c }) => ({
    w: 480, h: 250, fx: 0, fy: -120,
    svg:
      `<rect x="-232" y="-236" width="464" height="236" rx="16" fill="url(#${p}h)" ${E(c)}/>` +
      ST('M-216-24Q-216-14-204-14H204Q216-14 216-24', c) +
      P('M-232-220Q-232-236-216-236H216Q232-236 232-220L24-78Q0-62-24-78Z', '#000', 'opacity=".16" transform="translate(0 10)"') +
      P('M-232-220Q-232-236-216-236H216Q232-236 232-220L24-78Q0-62-24-78Z', `url(#${p}v)`, E(c)) +
      ST('M-206-220H206L20-96Q0-84-20-96Z', c) +
      L('M-196-226H196', c.hi, 3, 'opacity=".5"') +
      `<rect x="-44" y="-104" width="88" height="26" rx="13" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1.5"/>` +
      `<circle cx="0" cy="-91" r="6" fill="${c.metalDark}" opacity=".5"/>`,
  }),

  backpack: ({ p, c }) => {
    const strap = (x: number): string =>
      `<rect x="${x}" y="-300" width="28" height="120" rx="7" fill="${c.trim}" ${E(c, 2)}/>` +
      `<rect x="${x - 6}" y="-246" width="40" height="30" rx="5" fill="none" stroke="${c.metal}" stroke-width="6"/>` +
      L(`M${x + 14}-246V-216`, c.metalSolid, 4);
    return {
      w: 400, h: 540, fx: -70, fy: -250,
      svg:
        L('M-150-420C-214-330-206-150-186-30', c.deep, 28) + L('M150-420C214-330 206-150 186-30', c.deep, 28) +
        L('M-44-474C-44-540 44-540 44-474', c.trim, 15) +
        P('M-172-380C-172-470-110-492 0-492C110-492 172-470 172-380V-30Q172 0 142 0H-142Q-172 0-172-30Z', `url(#${p}h)`, E(c)) +
        P('M-162-398C-150-462-100-480 0-480C100-480 150-462 162-398L152-250Q150-224 124-222H-124Q-150-224-152-250Z', `url(#${p}v)`, E(c)) +
        ST('M-146-398C-134-448-92-464 0-464C92-464 134-448 146-398L137-252Q135-238 120-238H-120Q-135-238-137-252Z', c) +
        `<rect x="-124" y="-196" width="248" height="168" rx="26" fill="url(#${p}h)" ${E(c)}/>` +
        ST('M-108-170H108', c) + ST('M-124-60Q-118-40-96-40H96Q118-40 124-60', c) +
        L('M-100-182H100', c.metalSolid, 5, 'stroke-dasharray="2 3"') +
        `<rect x="70" y="-186" width="12" height="34" rx="5" fill="${c.metal}"/>` +
        strap(-92) + strap(64),
    };
  },

  duffel: ({ p, c }) => {
    const strap = (x: number): string =>
      `<rect x="${x}" y="-262" width="28" height="262" rx="4" fill="${c.trim}" ${E(c, 2)}/>` +
      ST(`M${x + 6}-254V-8M${x + 22}-254V-8`, c, 2) +
      P(`M${x}-70H${x + 28}V-8H${x}Z`, 'url(#bs)') +
      `<circle cx="${x + 14}" cy="-262" r="16" fill="none" stroke="${c.metal}" stroke-width="7"/>`;
    return {
      w: 610, h: 440, fx: 120, fy: -250,
      svg:
        L('M-112-262C-104-440 104-440 112-262', c.deep, 22) +
        P('M-270 0Q-302 0-302-40V-150Q-302-262-180-264H180Q302-262 302-150V-40Q302 0 270 0Z', `url(#${p}h)`, E(c)) +
        P('M-302-40V-150Q-302-262-180-264Q-246-230-250-130Q-252-40-270 0Q-302 0-302-40Z', c.deep, 'opacity=".45"') +
        P('M302-40V-150Q302-262 180-264Q246-230 250-130Q252-40 270 0Q302 0 302-40Z', c.deep, 'opacity=".45"') +
        P('M-302-46V-40Q-302 0-270 0H270Q302 0 302-40V-46Z', `url(#${p}t)`, E(c, 2)) +
        L('M-206-255Q0-270 206-255', c.edge, 10) +
        L('M-206-255Q0-270 206-255', c.metalSolid, 6, 'stroke-dasharray="2 3"') +
        `<rect x="176" y="-266" width="12" height="40" rx="5" fill="${c.metal}" transform="rotate(-14 182-262)"/>` +
        strap(-154) + strap(126) +
        L('M-124-262C-118-420 118-420 124-262', c.trim, 22) +
        L('M-130-270C-120-406 120-406 130-270', c.hi, 3, 'opacity=".45"'),
    };
  },

  dress: ({ p, c, r }) => {
    const f = Math.round(r() * 24);
    const hem = `Q${154 + f}-250 ${214 + f}-34Q${160 + f}-8 106-24Q54 2 0-16Q-54 2-106-24Q${-160 - f}-8 ${-214 - f}-34Q${-154 - f}-250-84-424`;
    return {
      w: 460, h: 690, fx: 0, fy: -470, hang: true,
      svg:
        hanger(-618, 150) +
        P('M-42-598Q0-610 42-598Q14-560 0-516Q-14-560-42-598Z', c.deep) +
        P(`M-84-600L-42-598Q-14-560 0-516Q14-560 42-598L84-600Q92-566 110-540Q104-480 84-424${hem}Q-104-480-110-540Q-92-566-84-600Z`, `url(#${p}h)`, E(c)) +
        L(`M-34-410Q-70-220-${116 + f}-30M20-410Q30-220 ${60 + f}-22M60-416Q110-230 ${170 + f}-36`, c.deep, 12, 'opacity=".16"') +
        L(`M-10-410Q-20-220-46-26M40-414Q70-220 ${112 + f}-30`, c.hi, 5, 'opacity=".22"') +
        P('M-86-438Q0-426 86-438L84-414Q0-402-84-414Z', c.trim, E(c, 1.5)) +
        `<rect x="-15" y="-440" width="30" height="30" rx="4" fill="none" stroke="${c.metal}" stroke-width="4"/>` +
        ST(`M${-196 - f}-44Q-104-40-50-28M50-28Q104-40 ${196 + f}-44`, c),
    };
  },

  shirt: ({ p, c }) => {
    const sleeve =
      P('M-146-560L-188-536Q-212-380-228-212L-172-204Q-166-350-150-470Z', `url(#${p}v)`, E(c)) +
      P('M-228-212L-172-204L-170-162L-232-170Z', c.light, E(c, 2)) +
      `<circle cx="-201" cy="-186" r="5" fill="${c.hi}" ${E(c, 1)}/>`;
    const collar = P('M-62-594Q-36-566 0-548L-24-498Q-58-528-78-568Z', `url(#${p}v)`, E(c, 2));
    const buttons = [-512, -432, -352, -272, -192, -112]
      .map((y) => `<circle cx="0" cy="${y}" r="6" fill="${mix(c.base, '#ffffff', 0.55)}" ${E(c, 1.2)}/>`)
      .join('');
    return {
      w: 470, h: 650, fx: 0, fy: -500, hang: true,
      svg:
        hanger(-604, 140) + sleeve + mirror(sleeve) +
        P('M-62-592Q-106-584-150-560Q-158-300-154-44Q-78-14 0-34Q78-14 154-44Q158-300 150-560Q106-584 62-592Z', `url(#${p}h)`, E(c)) +
        P('M-62-596Q0-614 62-596L58-574Q0-590-58-574Z', c.dark, E(c, 1.5)) +
        collar + mirror(collar) +
        L('M-13-540V-32M13-540V-32', c.edge, 1.5, 'opacity=".7"') + buttons +
        P('M-124-454H-66V-390L-95-378L-124-390Z', 'none', E(c, 1.5)) + ST('M-118-446H-72', c, 1.8) +
        L('M-150-520Q-100-500-64-512M150-520Q100-500 64-512', c.edge, 1.5, 'opacity=".5"') +
        L('M-100-330Q-112-200-98-70M96-340Q108-210 98-80', c.deep, 10, 'opacity=".1"'),
    };
  },

  jacket: ({ p, c }) => {
    const sleeve =
      P('M-170-566L-216-540Q-238-360-248-150L-186-142Q-182-330-170-460Z', `url(#${p}h)`, E(c)) +
      [-226, -212, -198].map((x, i) => `<circle cx="${x}" cy="${-172 + i * 2}" r="4" fill="${c.deep}"/>`).join('');
    const lapel = P('M-56-602L-6-362L-38-380Q-98-450-122-506L-96-520L-108-550Q-90-584-74-604Z', `url(#${p}v)`, E(c, 2));
    const flap = `<rect x="-152" y="-206" width="88" height="22" rx="3" fill="url(#${p}v)" ${E(c, 2)}/>`;
    return {
      w: 500, h: 660, fx: -60, fy: -470, hang: true,
      svg:
        hanger(-614, 160) + sleeve + mirror(sleeve) +
        P('M-46-24L0-214L46-24Z', c.deep) +
        P('M-62-602Q-124-594-176-568Q-174-300-168-30Q-100-12-42-26Q-12-100 0-214Q12-100 42-26Q100-12 168-30Q174-300 176-568Q124-594 62-602Z', `url(#${p}h)`, E(c)) +
        P('M-52-604H52L0-356Z', '#f3efe8') + L('M-50-602L-14-540M50-602L14-540', '#d6cfc3', 3) +
        P('M-62-604Q0-620 62-604L54-590Q0-606-54-590Z', c.dark) +
        lapel + mirror(lapel) +
        L('M0-356V-214', c.edge, 2) +
        `<circle cx="0" cy="-318" r="9" fill="${c.deep}" ${E(c, 1.5)}/><circle cx="0" cy="-246" r="9" fill="${c.deep}" ${E(c, 1.5)}/>` +
        flap + mirror(flap) +
        P('M-152-454H-84L-82-442H-150Z', c.deep) +
        P('M-144-452L-132-476L-120-458L-108-478L-92-452Z', '#efe3c8', 'stroke="#cbb994" stroke-width="1.5"'),
    };
  },

  trousers: ({ p, c }) => {
    const side = L('M-104-562Q-114-300-124-14', c.hi, 3, 'opacity=".45"') + L('M-146-570L-106-486', c.edge, 2);
    const loops = [-126, -62, 50, 114].map((x) => `<rect x="${x}" y="-624" width="12" height="48" rx="3" fill="${c.dark}" ${E(c, 1)}/>`).join('');
    return {
      w: 380, h: 690, fx: 0, fy: -560, hang: true,
      svg:
        L('M-176-640H176', '#b2b4b7', 8) +
        L('M0-640V-664C0-694 32-694 32-670', '#a8a9ab', 6) +
        `<rect x="-164" y="-652" width="24" height="44" rx="4" fill="url(#ag)"/><rect x="140" y="-652" width="24" height="44" rx="4" fill="url(#ag)"/>` +
        P('M-150-584H150Q162-300 182-8H64Q44-250 0-398Q-44-250-64-8H-182Q-162-300-150-584Z', `url(#${p}h)`, E(c)) +
        P('M-182-8H-64L-66-34H-180ZM182-8H64L66-34H180Z', '#000', 'opacity=".12"') +
        P('M-154-622H154L150-582H-150Z', `url(#${p}t)`, E(c, 2)) + loops +
        `<circle cx="0" cy="-602" r="7" fill="${c.deep}" ${E(c, 1.2)}/>` +
        ST('M18-580V-462Q18-432-6-420', c) + side + mirror(side),
    };
  },

  heel: ({ p, c }) => {
    const lining = c.isLight ? '#c9a88c' : '#dcc0a6';
    return {
      w: 540, h: 310, fx: -110, fy: -190,
      svg:
        P('M-240-190C-236-120-226-60-222-6H-204C-198-70-186-140-160-178Z', `url(#${p}v)`, E(c, 2)) +
        `<rect x="-224" y="-9" width="22" height="9" rx="2" fill="#262220"/>` +
        P('M-238-300C-260-262-258-214-240-190C-170-178-80-110 20-40C80-4 180 2 250-4C272-8 270-32 252-42C200-72 120-104 40-152Q10-170-12-168Q-130-232-238-300Z', `url(#${p}h)`, E(c)) +
        P('M-232-293Q-130-232-16-168Q-90-176-150-196Q-210-220-229-256Z', lining) +
        P('M-229-256Q-210-220-150-196Q-90-176-16-168Q-100-186-160-210Q-214-234-229-256Z', '#000', 'opacity=".18"') +
        P('M-240-190C-170-178-80-110 20-40C80-4 180 2 250-4L252 4C180 10 80 6 14-30C-80-98-170-168-242-180Z', '#2c2220') +
        L('M60-124Q150-88 238-36', c.hi, 6, 'opacity=".5"') +
        L('M-246-260Q-250-220-236-198', c.hi, 4, 'opacity=".4"') +
        L('M-224-182C-230-120-218-60-214-14', c.hi, 3, 'opacity=".35"'),
    };
  },

  sneaker: ({ p, c }) => {
    const sole = c.isLight ? '#fbfaf7' : '#f3efe7';
    const eyelets = [
      [-62, -204], [-24, -190], [14, -174], [52, -158], [90, -142],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="5" fill="${c.deep}" stroke="${c.metalSolid}" stroke-width="2"/>` +
        L(`M${x! - 12} ${y! - 10}L${x! + 14} ${y! - 3}`, '#f6f3ee', 6))
      .join('');
    return {
      w: 550, h: 246, fx: 10, fy: -150,
      svg:
        '<g transform="translate(0 16)">' +
        P('M-252-80C-262-140-258-200-236-222Q-200-234-170-202Q-140-182-112-196L-104-240Q-82-250-62-238L-40-200Q40-176 120-146C196-132 250-122 266-100Q274-86 268-80Z', `url(#${p}v)`, E(c)) +
        P('M-170-150Q-40-184 96-110L76-92Q-40-150-176-122Z', c.light, E(c, 1.5)) +
        P('M146-140C200-128 250-120 266-100Q274-86 268-80H150Q126-110 146-140Z', c.dark, 'opacity=".7"') +
        P('M-252-80C-262-140-258-200-236-222L-212-218Q-234-160-224-80Z', c.trim, E(c, 1.5)) +
        ST('M-210-96H240M-160-140Q-40-172 80-108', c, 2) + eyelets +
        [196, 216, 236].map((x) => `<circle cx="${x}" cy="-108" r="3" fill="${c.deep}" opacity=".6"/>`).join('') +
        '</g>' +
        P('M-262-28Q-266-60-250-66H250Q280-64 276-34Q270 0 232 0H-230Q-258 0-262-28Z', sole, 'stroke="#b9b1a4" stroke-width="2"') +
        P('M-264-18Q-258 0-230 0H232Q268 0 275-18Z', '#2b2826') +
        L('M-250-42H260', '#d9d2c6', 3),
    };
  },

  loafer: ({ p, c }) => ({
    w: 540, h: 200, fx: 0, fy: -140,
    svg:
      P('M-248-32C-258-96-252-158-230-178Q-150-150-80-146Q-50-178 20-178C130-172 236-118 258-60Q264-36 250-30Z', `url(#${p}v)`, E(c)) +
      P('M-228-174Q-150-148-82-146Q-140-136-190-144Q-220-152-228-170Z', c.isLight ? '#b89274' : '#cfae90') +
      L('M-26-170C70-188 190-150 244-80', c.deep, 7, 'opacity=".3"') +
      ST('M-26-163C70-181 186-144 238-76', c) +
      ST('M-236-42H248', c, 2) +
      P('M-86-148Q0-184 84-172L86-140Q0-152-82-122Z', c.trim, E(c, 1.5)) +
      `<rect x="-46" y="-170" width="104" height="12" rx="6" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1" transform="rotate(-8 6-164)"/>` +
      `<circle cx="-48" cy="-158" r="11" fill="none" stroke="${c.metal}" stroke-width="5"/><circle cx="60" cy="-172" r="11" fill="none" stroke="${c.metal}" stroke-width="5"/>` +
      L('M86-164Q170-140 236-84', c.hi, 5, 'opacity=".45"') +
      L('M-244-120Q-246-150-230-168', c.hi, 4, 'opacity=".35"') +
      P('M-140-30H252Q266-28 264-14Q260 0 238 0H-140Z', '#2a1f1a') +
      P('M-250-32H-138V0H-240Z', '#4a3226') + L('M-246-16H-140', '#2a1f1a', 2),
  }),

  sandal: ({ p, c }) => ({
    w: 540, h: 300, fx: 120, fy: -80,
    svg:
      P('M-244-158H-158Q-168-80-176 0H-230Q-236-80-244-158Z', `url(#${p}v)`, E(c, 2)) +
      L('M-238-40H-178', c.metalSolid, 4) +
      `<ellipse cx="-196" cy="-268" rx="64" ry="22" fill="none" stroke="${c.deep}" stroke-width="14"/>` +
      P('M-246-170Q-256-220-238-262L-214-258Q-232-220-222-168Z', `url(#${p}v)`, E(c, 2)) +
      P('M-246-172C-150-168-60-104 20-46C80-16 180-18 252-18Q266-16 264-4Q260 2 248 2C170 2 70 4 10-30C-70-84-150-154-244-156Z', '#d8c0a2', 'stroke="#7d6450" stroke-width="2"') +
      P('M-244-158C-150-154-70-84 10-30C70 4 170 2 248 2L248 6C170 6 70 10 6-24C-70-76-150-150-244-150Z', '#3a2b22') +
      `<ellipse cx="-196" cy="-268" rx="64" ry="22" fill="none" stroke="url(#${p}h)" stroke-width="12" transform="rotate(-6 -196-268)"/>` +
      `<rect x="-146" y="-286" width="26" height="30" rx="4" fill="none" stroke="${c.metal}" stroke-width="5"/>` +
      P('M24-44C44-124 150-134 176-20L148-22C130-94 76-94 54-40Z', `url(#${p}h)`, E(c, 2)) +
      P('M92-26C110-98 206-98 234-18L206-18C188-68 134-68 122-24Z', `url(#${p}h)`, E(c, 2)) +
      L('M40-70C62-118 136-124 162-60', c.hi, 3, 'opacity=".5"'),
  }),

  belt: ({ p, c }) => {
    const R = 232;
    const ry = 66;
    const top = -162;
    const bot = -78;
    const holes = [118, 158, 194]
      .map((x) => `<circle cx="${x}" cy="${n1((top + bot) / 2 + ry * Math.sqrt(1 - (x / R) ** 2))}" r="5.5" fill="${c.deep}" ${E(c, 1)}/>`)
      .join('');
    return {
      w: 480, h: 240, fx: 20, fy: -60,
      svg:
        `<ellipse cx="0" cy="${bot}" rx="${R - 12}" ry="${ry - 8}" fill="#000" opacity=".3"/>` +
        P(`M${-R} ${top}A${R} ${ry} 0 0 1 ${R} ${top}V${bot}A${R} ${ry} 0 0 0 ${-R} ${bot}Z`, c.deep, E(c, 2)) +
        P(`M${-R} ${top}A${R} ${ry} 0 0 0 ${R} ${top}V${bot}A${R} ${ry} 0 0 1 ${-R} ${bot}Z`, `url(#${p}h)`, E(c, 2.5)) +
        L(`M${-R + 6} ${top - 6}A${R} ${ry} 0 0 0 ${R - 6} ${top - 6}`, c.hi, 3, 'opacity=".6"') +
        ST(`M${-R + 14} ${top + 8}A${R - 14} ${ry - 6} 0 0 0 ${R - 14} ${top + 8}`, c, 2) +
        ST(`M${-R + 14} ${bot - 10}A${R - 14} ${ry - 6} 0 0 0 ${R - 14} ${bot - 10}`, c, 2) +
        holes +
        `<rect x="64" y="-106" width="20" height="100" rx="4" fill="${c.trim}" ${E(c, 1.5)}/>` +
        `<rect x="-58" y="-112" width="116" height="104" rx="20" fill="none" stroke="${c.metalDark}" stroke-width="18"/>` +
        `<rect x="-58" y="-112" width="116" height="104" rx="20" fill="none" stroke="${c.metal}" stroke-width="13"/>` +
        L('M-52-60H22', c.metalSolid, 8) + L('M-50-63H18', '#fff4d6', 2, 'opacity=".6"'),
    };
  },

  scarf: ({ p, c, r }) => {
    const lum = luminance(c.base);
    const acc = c.isDark || lum < 0.25 ? '#ead9ad' : lum > 0.5 ? mix(c.base, '#1d2233', 0.7) : '#f4ead6';
    const acc2 = c.isLight ? '#b8924a' : mix(c.base, '#ffffff', 0.45);
    const a = n1(-8 + r() * 6);
    const sq = 'M-210-210Q0-222 210-210Q218-50 210 110L110 210Q-50 202-210 210Q-218 0-210-210Z';
    const petals = [0, 45, 90, 135, 180, 225, 270, 315]
      .map((d) => `<ellipse cy="-50" rx="14" ry="34" fill="${acc}" transform="rotate(${d})"/>`)
      .join('');
    const corner = (x: number, y: number): string => P(`M${x} ${y - 24}L${x + 24} ${y} ${x} ${y + 24} ${x - 24} ${y}Z`, acc2, `stroke="${acc}" stroke-width="3"`);
    return {
      w: 520, h: 540, fx: 70, fy: -380, float: true,
      defs: lin(`${p}s`, stop(0, '#fff', 0.22) + stop(0.3, '#fff', 0) + stop(0.55, '#000', 0.14) + stop(0.75, '#fff', 0.1) + stop(1, '#000', 0.12), 1, 1),
      svg:
        `<g transform="translate(0 -270) rotate(${a})">` +
        P(sq, '#000', 'opacity=".14" transform="translate(10 16)"') +
        P('M-202-214Q0-226 202-214M-202 214Q-50 204 100 212', 'none', `stroke="${c.dark}" stroke-width="32" stroke-dasharray="3 5" stroke-linecap="butt"`) +
        P(sq, `url(#${p}v)`, E(c, 2)) +
        P('M-186-186H186V100L100 186H-186Z', 'none', `stroke="${acc}" stroke-width="14"`) +
        P('M-160-160H160V90L90 160H-160Z', 'none', `stroke="${acc2}" stroke-width="7" stroke-dasharray="1 13"`) +
        `<circle r="112" fill="none" stroke="${acc}" stroke-width="8"/><circle r="92" fill="${c.dark}" opacity=".5"/>` +
        petals + `<circle r="20" fill="${acc2}" stroke="${acc}" stroke-width="4"/>` +
        corner(-150, -150) + corner(150, -150) + corner(-150, 150) +
        P(sq, `url(#${p}s)`) +
        P('M110 210L110 110L210 110Z', '#000', 'opacity=".18" transform="translate(-6 6)"') +
        P('M210 110L110 210L110 110Z', c.hi, E(c, 2)) +
        '</g>',
    };
  },

  wallet: ({ p, c }) => ({
    w: 440, h: 320, fx: 120, fy: -200,
    svg:
      `<g transform="rotate(-9 -60-230)"><rect x="-160" y="-318" width="190" height="120" rx="10" fill="#f3eee6" stroke="#c9c0b2" stroke-width="2"/>` +
      `<rect x="-138" y="-290" width="32" height="24" rx="4" fill="url(#au)"/></g>` +
      `<rect x="-30" y="-300" width="190" height="120" rx="10" fill="#2e3b52" stroke="#1c2535" stroke-width="2" transform="rotate(7 60-240)"/>` +
      `<rect x="-212" y="-228" width="424" height="228" rx="26" fill="url(#${p}h)" ${E(c)}/>` +
      `<rect x="-202" y="-218" width="404" height="208" rx="18" fill="none" stroke="${c.deep}" stroke-width="11" opacity=".55"/>` +
      `<rect x="-202" y="-218" width="404" height="208" rx="18" fill="none" stroke="${c.metalSolid}" stroke-width="5" stroke-dasharray="2 3" stroke-linecap="butt"/>` +
      `<rect x="-184" y="-200" width="368" height="172" rx="12" fill="none" stroke="${c.stitch}" stroke-width="2.2" stroke-dasharray="7 5" stroke-linecap="butt" opacity=".8"/>` +
      L('M-190-206H150', c.hi, 3, 'opacity=".45"') +
      `<g transform="rotate(22 176-218)"><rect x="168" y="-222" width="16" height="62" rx="8" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1.5"/>` +
      `<rect x="172" y="-188" width="8" height="20" rx="4" fill="${c.deep}"/></g>` +
      `<rect x="-36" y="-128" width="72" height="22" rx="5" fill="${c.metal}" stroke="${c.metalDark}" stroke-width="1.2"/>`,
  }),

  sunglasses: ({ p, c }) => {
    const lens = 'M-226-176Q-230-198-204-198H-58Q-28-198-28-170Q-32-96-72-62Q-110-36-158-44Q-212-56-224-120Z';
    const half =
      L('M-248-166Q-232-24-60-16L196-22', c.trim, 10) +
      P(lens, 'none', `stroke="${c.edge}" stroke-width="34"`) +
      P(lens, 'none', `stroke="url(#${p}v)" stroke-width="28"`) +
      P(lens, `url(#${p}l)`) +
      P('M-206-188H-160L-214-104L-220-132Z', '#fff', 'opacity=".2"') +
      P('M-140-188H-126L-188-66L-198-74Z', '#fff', 'opacity=".12"') +
      L('M-204-206H-60', c.hi, 3, 'opacity=".7"') +
      `<rect x="-252" y="-192" width="16" height="22" rx="4" fill="${c.metal}"/>`;
    const bridge = L('M-32-168Q0-190 32-168', c.edge, 22) + L('M-32-168Q0-190 32-168', c.base, 16);
    return {
      w: 540, h: 230, fx: -100, fy: -130,
      defs: lin(`${p}l`, stop(0, mix('#141210', c.base, 0.15)) + stop(0.6, mix('#3c3026', c.base, 0.2)) + stop(1, mix('#7a6452', c.base, 0.25))),
      svg: mirror(half) + half + bridge,
    };
  },
};

/* ------------------------------------------------------------------ scenes */

const BACKDROP_HUES: ReadonlyArray<[number, number]> = [
  [34, 0.34], // cream
  [14, 0.3], // blush
  [96, 0.14], // sage
  [28, 0.12], // stone
  [208, 0.2], // mist
  [40, 0.3], // sand
  [300, 0.1], // lilac grey
  [170, 0.14], // eucalyptus
];

interface Placed {
  svg: string;
  defs: string;
}

/** Draws an item with its floor shadow, scaled into a box and standing on (gx, gy). */
function placeItem(
  kind: ArtKind,
  c: Pal,
  p: string,
  seed: number,
  box: { gx: number; gy: number; w: number; h: number },
  opts: { mirror?: boolean; rotate?: number; zoom?: { cx: number; cy: number; k: number }; hookY?: number; scale?: number } = {},
): Placed & { s: number; ty: number; item: Item } {
  const it = DRAW[kind]({ p, c, r: rng(seed, 7) });
  let s = opts.scale ?? Math.min(box.w / it.w, box.h / it.h);
  let tx = box.gx;
  let ty = box.gy;
  if (opts.hookY !== undefined && it.hang) ty = opts.hookY + it.h * s;
  if (opts.zoom) {
    s *= opts.zoom.k;
    tx = opts.zoom.cx - it.fx * s * (opts.mirror ? -1 : 1);
    ty = opts.zoom.cy - it.fy * s;
  }
  const shadow = it.hang || it.float
    ? ''
    : `<ellipse cx="0" cy="0" rx="${n1(it.w * 0.56)}" ry="${n1(Math.max(16, it.w * 0.07))}" fill="url(#sh)"/>` +
      `<ellipse cx="0" cy="0" rx="${n1(it.w * 0.44)}" ry="${n1(Math.max(6, it.w * 0.02))}" fill="#000" opacity=".22"/>`;
  const rot = opts.rotate ? ` rotate(${opts.rotate} 0 ${n1(-it.h / 2)})` : '';
  const sx = opts.mirror ? -s : s;
  return {
    s,
    ty,
    item: it,
    defs: itemDefs(p, c, it.svg) + (it.defs ?? ''),
    svg: `<g transform="translate(${n1(tx)} ${n1(ty)}) scale(${Math.round(sx * 10000) / 10000} ${Math.round(s * 10000) / 10000})${rot}">${shadow}${it.svg}</g>`,
  };
}

function wallTones(h: number, s: number, deep: boolean): { top: string; mid: string; floor: string; front: string; accent: string } {
  const l = deep ? 0.6 : 0.9;
  return {
    top: hsl(h, s, l - 0.07),
    mid: hsl(h, s, l + 0.02),
    floor: hsl(h, s * 0.9, l - 0.04),
    front: hsl(h, s, l + 0.04),
    accent: hsl(h, s * 1.1, l - (deep ? 0.1 : 0.12)),
  };
}

function studio(W: number, H: number, floorY: number, t: ReturnType<typeof wallTones>, glow: { x: number; y: number; rx: number; ry: number }): { defs: string; svg: string } {
  return {
    defs: lin('bw', stop(0, t.top) + stop(1, t.mid)) + lin('bf', stop(0, t.floor) + stop(1, t.front)),
    svg:
      `<rect width="${W}" height="${H}" fill="url(#bw)"/>` +
      `<path d="M0 ${floorY}Q${W / 2} ${floorY - 16} ${W} ${floorY}V${H}H0Z" fill="url(#bf)"/>` +
      `<ellipse cx="${glow.x}" cy="${glow.y}" rx="${glow.rx}" ry="${glow.ry}" fill="url(#gl)"/>`,
  };
}

const svgDoc = (W: number, H: number, defs: string, body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${defs}</defs>` +
  `<g stroke-linecap="round" stroke-linejoin="round">${body}</g></svg>`;

function plinth(cx: number, topY: number, rx: number, baseY: number, col: string, round: boolean): string {
  const ry = Math.round(rx * 0.16);
  const side = mix(col, '#000000', 0.1);
  const sideDark = mix(col, '#000000', 0.2);
  const g = `<linearGradient id="pl${cx}" x1="0" y1="0" x2="1" y2="0">${stop(0, sideDark)}${stop(0.35, col)}${stop(1, sideDark)}</linearGradient>`;
  if (round) {
    return (
      `<defs>${g}</defs><ellipse cx="${cx}" cy="${baseY}" rx="${rx * 1.25}" ry="${ry * 1.1}" fill="url(#sh)"/>` +
      `<path d="M${cx - rx} ${topY}V${baseY}A${rx} ${ry} 0 0 0 ${cx + rx} ${baseY}V${topY}Z" fill="url(#pl${cx})"/>` +
      `<ellipse cx="${cx}" cy="${topY}" rx="${rx}" ry="${ry}" fill="${mix(col, '#ffffff', 0.25)}"/>`
    );
  }
  return (
    `<ellipse cx="${cx}" cy="${baseY}" rx="${rx * 1.25}" ry="${ry}" fill="url(#sh)"/>` +
    `<rect x="${cx - rx}" y="${topY}" width="${rx * 2}" height="${baseY - topY}" fill="${side}"/>` +
    `<rect x="${cx - rx}" y="${topY}" width="${Math.round(rx * 0.5)}" height="${baseY - topY}" fill="${sideDark}" opacity=".35"/>` +
    `<path d="M${cx - rx} ${topY}L${cx - rx + 26} ${topY - ry}H${cx + rx + 26}L${cx + rx} ${topY}Z" fill="${mix(col, '#ffffff', 0.25)}"/>` +
    `<path d="M${cx + rx} ${topY}L${cx + rx + 26} ${topY - ry}V${baseY - ry}L${cx + rx} ${baseY}Z" fill="${sideDark}"/>`
  );
}

function sprig(x: number, y: number, col: string, flip: boolean, scale = 1): string {
  const leaves = [
    [-20, -120, -30], [22, -170, 35], [-24, -210, -40], [18, -250, 30], [-10, -290, -20],
  ]
    .map(([lx, ly, a]) => `<ellipse cx="${lx}" cy="${ly}" rx="9" ry="26" fill="${col}" transform="rotate(${a} ${lx} ${ly})"/>`)
    .join('');
  return (
    `<g transform="translate(${x} ${y}) scale(${flip ? -scale : scale} ${scale})">` +
    L('M0 0Q-6-150 10-300', mix(col, '#000000', 0.3), 4) + leaves +
    `<path d="M-34 0Q-40 70 0 80Q40 70 34 0Z" fill="#efe9df" stroke="#cfc6b8" stroke-width="2"/>` +
    `<ellipse cx="0" cy="0" rx="34" ry="8" fill="#d9d1c4"/></g>`
  );
}

/** 800x1000 (portrait, 4:5) product image as an SVG document string. */
export function productArtSvg(o: ProductArtOptions): string {
  const W = 800;
  const H = 1000;
  const kind: ArtKind = o.kind in DRAW ? o.kind : 'tote';
  const view = ([0, 1, 2, 3] as const).includes(o.view) ? o.view : 0;
  const r = rng(o.seed, 1);
  const c = palette(o.colorHex);
  const itemLum = luminance(c.base);
  const deep = itemLum > 0.6; // light items go on a deeper backdrop
  const [ih, is] = toHsl(c.base);
  let hi = Math.floor(r() * BACKDROP_HUES.length);
  const pick = (i: number): [number, number] => BACKDROP_HUES[((i % BACKDROP_HUES.length) + BACKDROP_HUES.length) % BACKDROP_HUES.length]!;
  // avoid a backdrop hue that swallows a mid-tone item of similar hue
  if (is > 0.25 && itemLum > 0.2) {
    for (let k = 0; k < BACKDROP_HUES.length; k++) {
      const d = Math.abs(((pick(hi)[0] - ih + 540) % 360) - 180);
      if (d > 40) break;
      hi++;
    }
  }
  const [bh, bs] = pick(view === 1 ? hi + 3 : hi);
  const t = wallTones(bh + (r() - 0.5) * 10, deep ? bs * 0.7 : bs, deep);
  let defs = commonDefs();
  let body = '';
  const isHang = kind === 'dress' || kind === 'shirt' || kind === 'jacket' || kind === 'trousers';

  if (view === 0 || view === 1) {
    const floorY = view === 0 ? 700 : 730;
    const st = studio(W, H, floorY, t, { x: 400, y: 470, rx: 380, ry: 420 });
    defs += st.defs;
    body += st.svg;
    if (view === 1) {
      body += `<path d="M190 ${floorY + 2}V360A210 210 0 0 1 610 360V${floorY + 2}Z" fill="${t.accent}"/>`;
      body += `<path d="M190 ${floorY + 2}V360A210 210 0 0 1 400 150V${floorY + 2}Z" fill="#fff" opacity=".12"/>`;
    }
    const shoe = kind === 'heel' || kind === 'sneaker' || kind === 'loafer' || kind === 'sandal';
    const probe = DRAW[kind]({ p: 'x', c, r: () => 0.5 });
    const boxW = isHang ? 560 : view === 0 ? 580 : 540;
    const boxH = isHang ? (view === 0 ? 740 : 700) : view === 0 ? 600 : 560;
    const s0 = Math.min(boxW / probe.w, boxH / probe.h);
    const gy = (view === 0 ? 820 : 840) - Math.max(0, boxH - probe.h * s0) * 0.3 - (probe.float ? 40 : 0);
    const pl = placeItem(kind, c, 'i', o.seed, { gx: 400, gy, w: boxW, h: boxH }, {
      hookY: view === 0 ? 110 : 130,
      mirror: view === 1 && (shoe || kind === 'duffel' || kind === 'wallet'),
      rotate: view === 1 && isHang ? 3 : 0,
    });
    if (isHang || probe.float) {
      body += `<ellipse cx="400" cy="${n1(Math.min(960, pl.ty + 70))}" rx="${isHang ? 230 : 260}" ry="26" fill="url(#sh)" opacity=".6"/>`;
    }
    defs += pl.defs;
    body += pl.svg;
  } else if (view === 2) {
    defs += lin('bw', stop(0, t.top) + stop(1, t.front)) + rad('vg', stop(0.6, '#000', 0) + stop(1, '#000', 0.18));
    body += `<rect width="${W}" height="${H}" fill="url(#bw)"/><ellipse cx="330" cy="380" rx="420" ry="460" fill="url(#gl)"/>`;
    const pl = placeItem(kind, c, 'i', o.seed, { gx: 400, gy: 820, w: 580, h: 600 }, {
      zoom: { cx: 400 + (r() - 0.5) * 60, cy: 500, k: 2.3 + r() * 0.3 },
    });
    defs += pl.defs;
    body += pl.svg + `<rect width="${W}" height="${H}" fill="url(#vg)"/>`;
  } else {
    const floorY = 760;
    const st = studio(W, H, floorY, t, { x: 430, y: 420, rx: 420, ry: 440 });
    defs += st.defs;
    body += st.svg;
    // window light falling across the wall
    body += `<path d="M470 0H610L350 ${floorY}H210Z" fill="#fff" opacity=".16"/><path d="M650 0H700L440 ${floorY}H390Z" fill="#fff" opacity=".12"/>`;
    const leaf = hsl(100 + r() * 40, 0.22, deep ? 0.38 : 0.45);
    const propCol = hsl(bh + 20, bs * 0.8, deep ? 0.72 : 0.8);
    if (isHang) {
      body += `<path d="M150 ${floorY}V330A250 250 0 0 1 650 330V${floorY}Z" fill="${t.accent}" opacity=".8"/>`;
      body += L('M70 96H730', '#b8944a', 8) + `<circle cx="70" cy="96" r="9" fill="url(#au)"/><circle cx="730" cy="96" r="9" fill="url(#au)"/>`;
      body += `<ellipse cx="400" cy="${floorY + 150}" rx="230" ry="24" fill="url(#sh)" opacity=".55"/>`;
      const pl = placeItem(kind, c, 'i', o.seed, { gx: 400, gy: 0, w: 500, h: 740 }, { hookY: 66 });
      defs += pl.defs;
      body += pl.svg;
      body += sprig(660, 880, leaf, false, 1.1);
      body += `<ellipse cx="150" cy="930" rx="80" ry="12" fill="url(#sh)"/><circle cx="150" cy="872" r="60" fill="${propCol}"/><circle cx="130" cy="852" r="26" fill="#fff" opacity=".25"/>`;
    } else {
      const round = r() < 0.6;
      const plCol = deep ? hsl(bh, bs * 0.6, 0.78) : hsl(bh, bs * 0.7, 0.96);
      body += sprig(706, 800, leaf, true, 1.15);
      body += plinth(400, 700, 240, 930, plCol, round);
      body += `<ellipse cx="118" cy="946" rx="70" ry="11" fill="url(#sh)"/><circle cx="118" cy="896" r="52" fill="${propCol}"/><circle cx="100" cy="878" r="22" fill="#fff" opacity=".25"/>`;
      const pl = placeItem(kind, c, 'i', o.seed, { gx: 400, gy: 704, w: 420, h: 460 });
      defs += pl.defs;
      body += pl.svg;
    }
  }
  return svgDoc(W, H, defs, body);
}

const BANNER_ITEM_COLOURS = ['#141414', '#7a1f2b', '#8a4b22', '#1d2b4f', '#b07a4a', '#efe6d6', '#1f6b4f', '#e3b3ab', '#5b5e33', '#c9a14a'];

/** 1600x700 category banner: an editorial composition; the left ~45% stays calm for a heading. */
export function bannerArtSvg(o: BannerArtOptions): string {
  const W = 1600;
  const H = 700;
  const r = rng(o.seed, 2);
  const kinds: ArtKind[] = (o.kinds.length ? o.kinds : (['tote', 'heel'] as ArtKind[])).filter((k) => k in DRAW).slice(0, 4);
  if (kinds.length === 0) kinds.push('tote');
  const p0 = toHex(parseHex(o.palette[0]));
  const p1 = toHex(parseHex(o.palette[1]));
  const bgLum = (luminance(p0) + luminance(p1)) / 2;
  const floorY = 560;
  let defs =
    commonDefs() +
    lin('bw', stop(0, mix(p0, '#ffffff', 0.25)) + stop(0.45, p0) + stop(1, p1), 1, 0.2) +
    lin('bf', stop(0, mix(p1, '#000000', 0.04)) + stop(1, mix(p0, '#ffffff', 0.2)));
  let body =
    `<rect width="${W}" height="${H}" fill="url(#bw)"/>` +
    `<path d="M0 ${floorY}Q800 ${floorY - 14} ${W} ${floorY}V${H}H0Z" fill="url(#bf)"/>` +
    `<ellipse cx="1150" cy="330" rx="560" ry="380" fill="url(#gl)"/>` +
    `<path d="M520 0H640L420 ${floorY}H300Z" fill="#fff" opacity=".12"/>`;
  // right-hand set dressing
  const accent = mix(p1, '#000000', 0.08);
  if (r() < 0.5) body += `<path d="M960 ${floorY + 1}V250A220 220 0 0 1 1400 250V${floorY + 1}Z" fill="${accent}"/>`;
  else body += `<circle cx="1190" cy="290" r="230" fill="${accent}"/>`;

  const x0 = 730;
  const x1 = 1570;
  const slot = (x1 - x0) / kinds.length;
  const isHang = (k: ArtKind): boolean => k === 'dress' || k === 'shirt' || k === 'jacket' || k === 'trousers';
  const hangers = kinds.map(isHang);
  const hangIdx = hangers.map((h, i) => (h ? i : -1)).filter((i) => i >= 0);
  // one common scale for all garments so they read as a consistent rail
  let hangScale = Infinity;
  for (const i of hangIdx) {
    const probe = DRAW[kinds[i]!]({ p: 'x', c: palette('#888888'), r: () => 0.5 });
    hangScale = Math.min(hangScale, (slot * 1.02) / probe.w, 450 / probe.h);
  }
  if (hangIdx.length) {
    const a = Math.round(x0 + slot * (hangIdx[0]! + 0.5) - slot * 0.55);
    const b = Math.round(x0 + slot * (hangIdx[hangIdx.length - 1]! + 0.5) + slot * 0.55);
    body += L(`M${a} 52H${b}`, '#b8944a', 7) + `<circle cx="${a}" cy="52" r="8" fill="url(#au)"/><circle cx="${b}" cy="52" r="8" fill="url(#au)"/>`;
  }
  // colours: contrast with the (usually light) backdrop, no duplicates
  const pool = BANNER_ITEM_COLOURS.filter((col) => Math.abs(luminance(col) - bgLum) > 0.25);
  const start = Math.floor(r() * pool.length);
  const plCol = mix(p0, '#ffffff', 0.45);
  let items = '';
  kinds.forEach((kind, i) => {
    const cx = Math.round(x0 + slot * (i + 0.5));
    const col = pool[(start + i * 3) % pool.length] ?? '#141414';
    const c = palette(col);
    const pre = `k${i}`;
    if (hangers[i]) {
      const pl = placeItem(kind, c, pre, o.seed + i, { gx: cx, gy: 0, w: slot, h: 450 }, { hookY: 40, scale: hangScale });
      body += `<ellipse cx="${cx}" cy="${n1(Math.max(floorY + 40, pl.ty + 50))}" rx="${Math.round(slot * 0.42)}" ry="16" fill="url(#sh)" opacity=".55"/>`;
      defs += pl.defs;
      items += pl.svg;
    } else {
      const baseY = floorY + 70 + Math.round(r() * 24);
      const topY = baseY - 60 - Math.round(r() * 110);
      const rx = Math.round(Math.min(slot * 0.36, 120));
      body += plinth(cx, topY, rx, baseY, plCol, r() < 0.55);
      const pl = placeItem(kind, c, pre, o.seed + i, { gx: cx, gy: topY + 4, w: Math.min(slot * 0.94, 330), h: Math.min(topY - 60, 330) });
      defs += pl.defs;
      items += pl.svg;
    }
  });
  body += items;
  return svgDoc(W, H, defs, body);
}
