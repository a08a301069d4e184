import type { MarketCode } from '@/lib/domain/markets';
import { taxNumberLabel, type TaxSettings } from '@/lib/domain/tax-settings';

/** A market's tax settings as the API answers them: rates in percent, with the day each applies from. */
export function taxSettingsJson(market: MarketCode, s: TaxSettings | null) {
  return {
    market,
    registered: s?.registered ?? false,
    legalName: s?.legalName ?? '',
    address: s?.address ?? '',
    taxNumberLabel: taxNumberLabel(market),
    taxNumber: s?.taxNumber ?? '',
    rates: (s?.rates ?? []).map((r) => ({ percent: r.basisPoints / 100, from: r.from })),
    deliveryTaxed: s?.deliveryTaxed ?? true,
    giftWrapTaxed: s?.giftWrapTaxed ?? true,
    lockerFeeTaxed: s?.lockerFeeTaxed ?? true,
    periodMonths: s?.periodMonths ?? 1,
    periodStartsOdd: s?.periodStartsOdd ?? true,
    notice: s?.notice ?? null,
  };
}

/**
 * A posted settings form's fields as the settings' input: each rate is a pair of fields
 * `ratePercent<n>` and `rateFrom<n>`; a pair left empty (the form's blank row for a new rate) is no rate.
 */
export function taxSettingsFromForm(fields: Record<string, unknown>): Record<string, unknown> {
  const rates: Array<{ percent: unknown; from: unknown }> = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const m = /^rate(Percent|From)(\d{1,2})$/.exec(key);
    if (!m) {
      rest[key] = value;
      continue;
    }
    const i = Number(m[2]);
    rates[i] ??= { percent: '', from: '' };
    if (m[1] === 'Percent') rates[i]!.percent = value;
    else rates[i]!.from = value;
  }
  return { ...rest, rates: rates.filter((r) => r && (String(r.percent).trim() !== '' || String(r.from).trim() !== '')) };
}
