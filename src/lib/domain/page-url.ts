/**
 * Campaign-tracking query parameters (`utm_*`, `fbclid`…). They never change a page, so the route
 * cache's key ignores them; for the same reason no page may echo them into its links or forms: a
 * page cached for one visitor's tracked link is served to every other visitor.
 */
const TRACKING_PARAMS = /^(utm_.*|fbclid|gclid|msclkid|_ga|_gl|ref)$/i;
/** The one-time outcome of a form (src/components/FormMessages.astro): shown once, never carried on. */
const OUTCOME_PARAMS = new Set(['notice', 'error']);

export function isTrackingParam(name: string): boolean {
  return TRACKING_PARAMS.test(name);
}

/**
 * The page's URL as the page may echo it (return paths, pagination, filters, sort): without
 * tracking parameters and without a form's outcome message.
 */
export function echoableUrl(url: URL): URL {
  const copy = new URL(url);
  for (const name of [...copy.searchParams.keys()]) if (isTrackingParam(name) || OUTCOME_PARAMS.has(name)) copy.searchParams.delete(name);
  return copy;
}
