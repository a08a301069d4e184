import type { APIRoute } from 'astro';
import { parseFeedFile } from '@/lib/server/catalogue/feeds';

/** The shopping feeds: /feeds/google-NG.xml, /feeds/google-ZA.xml, /feeds/meta-NG.csv, /feeds/meta-ZA.csv. */
export const GET: APIRoute = ({ params, request, locals }) => {
  const feed = parseFeedFile(params.file);
  if (!feed) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return locals.services.feeds.respond(request, feed.format, feed.market);
};

export const HEAD = GET;
