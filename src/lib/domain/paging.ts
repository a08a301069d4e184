import { z } from 'zod';

/** Which page of a list a request asks for: its number, and the row it follows or comes before (`end`: the last page). */
export interface PageAt {
  page?: number | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** A row's id as the page links carry it; anything else is ignored, as a bad page number is. */
const cursor = z.string().max(64).regex(/^[\w-]+$/).optional().catch(undefined);

/** The cursor fields of a list's query (with its `page`). */
export const cursorFields = { after: cursor, before: cursor };

/** A page number as a link carries it: anything but a whole number from 1 is the first page. */
export const pageNumber = z.coerce.number().int().min(1).max(100_000).catch(1).default(1);

/** Where in a list a request is, for lists with no other filter of their own to parse. */
export const pageAtSchema = z.object({ page: pageNumber, ...cursorFields });
