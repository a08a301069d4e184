/**
 * Campaign-tracking query parameters (`utm_*`, `fbclid`…). They never change a page, so the route
 * cache's key ignores them; for the same reason no page may echo them into its links or forms: a
 * page cached for one visitor's tracked link is served to every other visitor.
 */
const TRACKING_PARAMS = /^(utm_.*|fbclid|gclid|msclkid|_ga|_gl|ref)$/i;

export function isTrackingParam(name: string): boolean {
  return TRACKING_PARAMS.test(name);
}

/** The page's URL as the page may echo it (return paths, pagination, filters): without tracking parameters. */
export function echoableUrl(url: URL): URL {
  const copy = new URL(url);
  for (const name of [...copy.searchParams.keys()]) if (isTrackingParam(name)) copy.searchParams.delete(name);
  return copy;
}
