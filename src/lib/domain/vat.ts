/**
 * VAT on VAT-inclusive prices, in integer minor units, with no I/O.
 *
 * The rounding rule (one, everywhere): for each rate, the VAT of everything sold at that rate is
 * the group's gross × rate / (1 + rate), rounded half up to the minor unit; that VAT is spread over
 * the group's lines in proportion to their gross by the largest remainder, so the lines' VAT adds
 * up to the group's exactly and no line is rounded on its own (rounding per line drifts a minor
 * unit per line). A line's net is its gross less its VAT, so net + VAT = gross on every line and
 * the lines add up to the order's total.
 *
 * A discount lowers a line's gross before VAT is taken from it; store credit is a way of paying
 * (VAT Act s.10(19)) and is no input here at all, so spending it never lowers the VAT.
 */

/** A rate in basis points (1500 = 15%, 750 = 7.5%). */
export type RateBasisPoints = number;

export const MAX_RATE_BASIS_POINTS = 10_000;

/** A rate and the first day (the market's calendar, YYYY-MM-DD) orders placed on it pay it. */
export interface DatedRate {
  basisPoints: RateBasisPoints;
  from: string;
}

/** The rate for an order placed on `day` (YYYY-MM-DD): the latest that applies from that day or before; null before any. */
export function rateOn(rates: readonly DatedRate[], day: string): RateBasisPoints | null {
  let best: DatedRate | null = null;
  for (const r of rates) if (r.from <= day && (!best || r.from > best.from)) best = r;
  return best ? best.basisPoints : null;
}

/** The kinds of line an order's money is made of. */
export const VAT_LINE_KINDS = ['item', 'delivery', 'gift_wrap', 'locker_fee'] as const;
export type VatLineKind = (typeof VAT_LINE_KINDS)[number];

export interface GrossLine {
  kind: VatLineKind;
  /** What the shopper pays for it, VAT included, after any discount (minor units, ≥ 0). */
  grossMinor: number;
  basisPoints: RateBasisPoints;
}

export interface VatLine extends GrossLine {
  netMinor: number;
  vatMinor: number;
}

export interface VatTotals {
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
}

/** The VAT inside `grossMinor` at `basisPoints`, rounded half up (exact in BigInt). */
export function vatInGross(grossMinor: number, basisPoints: RateBasisPoints): number {
  assertMinor(grossMinor);
  assertRate(basisPoints);
  if (basisPoints === 0 || grossMinor === 0) return 0;
  return divideHalfUp(grossMinor, basisPoints, MAX_RATE_BASIS_POINTS + basisPoints);
}

/**
 * Splits `total` over `weights` in proportion, by the largest remainder (ties to the earlier
 * line): the shares add up to `total` exactly. All zero weights: everything to nobody (total must be 0).
 */
export function shareByWeight(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) {
    if (total !== 0) throw new Error('vat: a share of nothing');
    return weights.map(() => 0);
  }
  const out = weights.map((w) => floorOfProduct(total, w, sum));
  const remainders = weights.map((w, i) => ({ i, r: remainderOfProduct(total, w, sum) }));
  let left = total - out.reduce((a, b) => a + b, 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : b.r - a.r));
  for (const { i } of remainders) {
    if (left <= 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/** Every line with its net and VAT, by the rounding rule above. */
export function vatLines(lines: readonly GrossLine[]): VatLine[] {
  const out: VatLine[] = lines.map((l) => ({ ...l, netMinor: l.grossMinor, vatMinor: 0 }));
  for (const rate of new Set(lines.map((l) => l.basisPoints))) {
    const idx = lines.flatMap((l, i) => (l.basisPoints === rate ? [i] : []));
    const gross = idx.reduce((a, i) => a + lines[i]!.grossMinor, 0);
    const shares = shareByWeight(vatInGross(gross, rate), idx.map((i) => lines[i]!.grossMinor));
    idx.forEach((i, k) => {
      out[i]!.vatMinor = shares[k]!;
      out[i]!.netMinor = lines[i]!.grossMinor - shares[k]!;
    });
  }
  return out;
}

export function totalsOf(lines: readonly { netMinor: number; vatMinor: number; grossMinor: number }[]): VatTotals {
  return lines.reduce((t, l) => ({ netMinor: t.netMinor + l.netMinor, vatMinor: t.vatMinor + l.vatMinor, grossMinor: t.grossMinor + l.grossMinor }), { netMinor: 0, vatMinor: 0, grossMinor: 0 });
}

/** Net, VAT and gross at one rate: an invoice's (or a credit note's) summary per rate. */
export interface RateBucket extends VatTotals {
  basisPoints: RateBasisPoints;
}

/** Lines summed per rate, highest rate first. */
export function byRate(lines: readonly (VatTotals & { basisPoints: RateBasisPoints })[]): RateBucket[] {
  const map = new Map<number, RateBucket>();
  for (const l of lines) {
    const b = map.get(l.basisPoints) ?? { basisPoints: l.basisPoints, netMinor: 0, vatMinor: 0, grossMinor: 0 };
    b.netMinor += l.netMinor;
    b.vatMinor += l.vatMinor;
    b.grossMinor += l.grossMinor;
    map.set(l.basisPoints, b);
  }
  return [...map.values()].sort((a, b) => b.basisPoints - a.basisPoints);
}

/**
 * What a credit note of `amountMinor` (VAT included) takes off an invoice that still carries
 * `remaining` (per rate, what earlier credit notes left): the amount is spread over the rates in
 * proportion to their remaining gross, and each rate's VAT in proportion to that rate's remaining
 * VAT, rounded half up and kept within what is left. A credit note of the whole remaining gross
 * takes exactly every rate's remaining net and VAT, so pieces always end at zero. More than the
 * invoice carries is cut to what it carries.
 */
export function creditNoteSplit(remaining: readonly RateBucket[], amountMinor: number): RateBucket[] {
  assertMinor(amountMinor);
  const left = remaining.reduce((a, b) => a + b.grossMinor, 0);
  if (amountMinor >= left) return remaining.filter((b) => b.grossMinor > 0).map((b) => ({ ...b }));
  const grossShares = shareByWeight(amountMinor, remaining.map((b) => b.grossMinor));
  return remaining
    .map((b, i) => {
      const gross = grossShares[i]!;
      let vat = gross === b.grossMinor ? b.vatMinor : divideHalfUp(gross, b.vatMinor, b.grossMinor);
      // Within what the rate still carries: never more VAT than is left, never more net than is left.
      vat = Math.min(vat, b.vatMinor, gross);
      vat = Math.max(vat, gross - b.netMinor, 0);
      return { basisPoints: b.basisPoints, grossMinor: gross, vatMinor: vat, netMinor: gross - vat };
    })
    .filter((b) => b.grossMinor > 0);
}

/** What remains of `invoice` per rate once `credited` (credit notes' buckets) are taken off. */
export function remainingOf(invoice: readonly RateBucket[], credited: readonly RateBucket[]): RateBucket[] {
  return invoice.map((b) => {
    const off = credited.filter((c) => c.basisPoints === b.basisPoints);
    const sum = (k: 'netMinor' | 'vatMinor' | 'grossMinor') => b[k] - off.reduce((a, c) => a + c[k], 0);
    return { basisPoints: b.basisPoints, netMinor: sum('netMinor'), vatMinor: sum('vatMinor'), grossMinor: sum('grossMinor') };
  });
}

/** Whether 2 × a × b + c stays an exact double (then every step below is exact). */
function safe(a: number, b: number, c = 0): boolean {
  return a * b * 2 + c < Number.MAX_SAFE_INTEGER;
}

/** ⌊n / d⌋ of exact non-negative doubles, exact (a plain division may round up near an integer). */
function floorDiv(n: number, d: number): number {
  return (n - (n % d)) / d;
}

/** a × b / c rounded half up, exact: in doubles while they are exact, in BigInt beyond. */
function divideHalfUp(a: number, b: number, c: number): number {
  if (safe(a, b, c)) return floorDiv(2 * a * b + c, 2 * c);
  const den = BigInt(c);
  return Number((2n * BigInt(a) * BigInt(b) + den) / (2n * den));
}

/** floor(a × b / c), exact. */
function floorOfProduct(a: number, b: number, c: number): number {
  return safe(a, b) ? floorDiv(a * b, c) : Number((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** (a × b) mod c, exact; below c, so a double holds it. */
function remainderOfProduct(a: number, b: number, c: number): number {
  return safe(a, b) ? (a * b) % c : Number((BigInt(a) * BigInt(b)) % BigInt(c));
}

function assertMinor(v: number): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`vat: ${v} is not an amount in minor units`);
}

function assertRate(bp: number): void {
  if (!Number.isInteger(bp) || bp < 0 || bp > MAX_RATE_BASIS_POINTS) throw new Error(`vat: ${bp} is not a rate in basis points`);
}

/** "15%", "7.5%" from basis points. */
export function rateLabel(bp: RateBasisPoints): string {
  return `${(bp / 100).toString()}%`;
}
