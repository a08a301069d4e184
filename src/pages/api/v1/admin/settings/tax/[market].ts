import { z } from 'zod';
import { NotFound } from '@/lib/domain/errors';
import { parseMarket, type MarketCode } from '@/lib/domain/markets';
import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { taxSettingsFromForm, taxSettingsJson } from '@/lib/server/books/settings-json';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { endpoint, json, readJson } from '@/lib/server/infra/http';

function marketParam(value: string | undefined): MarketCode {
  const market = parseMarket(value);
  if (!market) throw new NotFound(message('not-found'));
  return market;
}

/** A market's tax settings (owner only): registered, the seller, rates with their dates, what is taxed, the VAT period. */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals, { owner: true });
  const market = marketParam(params.market);
  return json({ status: true, data: taxSettingsJson(market, await locals.services.books.settings.read(market)) });
});

/** The owner changes them (`{ rates: [{ percent: 15, from: "2026-01-01" }], … }`); audited; placed orders keep their VAT. */
export const PUT = endpoint(async ({ locals, params, request }) => {
  const user = requireStaff(locals, { owner: true });
  const market = marketParam(params.market);
  const saved = await locals.services.books.settings.save(asActor(user), market, await readJson(request, z.unknown()));
  return json({ status: true, message: message('tax-settings-saved'), data: taxSettingsJson(market, saved) });
});

/** The settings page's form (works without script): the same change, answered 303 back to the page. */
export const POST = formEndpoint(async ({ locals, params, request }) => {
  const user = requireStaff(locals, { owner: true });
  const market = marketParam(params.market);
  const fields = await readInput(request, z.record(z.string(), z.unknown()));
  const saved = await locals.services.books.settings.save(asActor(user), market, taxSettingsFromForm(fields));
  return { body: { status: true, message: message('tax-settings-saved'), data: taxSettingsJson(market, saved) }, next: '/admin/settings/tax' };
});
