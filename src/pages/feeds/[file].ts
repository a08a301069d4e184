import type { APIRoute } from 'astro';
import { NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { parseFeedFile } from '@/lib/server/catalogue/feeds';

/** The shopping feeds: /feeds/google-NG.xml, /feeds/google-ZA.xml, /feeds/meta-NG.csv, /feeds/meta-ZA.csv. */
export const GET: APIRoute = ({ params, request, locals }) => {
  const feed = parseFeedFile(params.file);
  if (!feed) throw new NotFound(message('not-found'));
  return locals.services.feeds.respond(request, feed.format, feed.market);
};

export const HEAD = GET;
