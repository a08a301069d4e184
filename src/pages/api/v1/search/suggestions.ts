import { z } from 'zod';
import { text } from '@/lib/domain/validation';
import { endpoint, json, readQuery } from '@/lib/server/infra/http';

const suggestionsQuery = z.object({ q: z.preprocess((v) => v ?? '', text('q', 100)) });

/**
 * What the search field suggests as the shopper types: known words that start like the
 * last word typed, or look like it. The same for every shopper, so it may be kept for a while.
 */
export const GET = endpoint(async ({ locals, url }) => {
  const { q } = readQuery(url, suggestionsQuery);
  const data = await locals.services.search.suggest(q);
  return json({ status: true, data }, { headers: { 'cache-control': 'public, max-age=300' } });
});
