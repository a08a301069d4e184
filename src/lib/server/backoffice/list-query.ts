import type { z } from 'zod';
import { fieldMessage } from '@/lib/domain/validation';

/**
 * A back-office list's filters from its page's query. Filters that do not parse answer 400 and
 * leave the list unfiltered (the schema's defaults), with the first problem for the page to show.
 */
export function listQuery<S extends z.ZodType>(page: { url: URL; response: { status?: number } }, schema: S): { filters: z.output<S>; problem: string | null } {
  const parsed = schema.safeParse(Object.fromEntries(page.url.searchParams), { error: fieldMessage });
  if (parsed.success) return { filters: parsed.data, problem: null };
  page.response.status = 400;
  return { filters: schema.parse({}), problem: parsed.error.issues[0]?.message ?? '' };
}
