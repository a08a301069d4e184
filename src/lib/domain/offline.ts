/**
 * What the service worker (ADR 0030) and the server agree on, in one place.
 */

/**
 * Set on every response made for a signed-in shopper (with `Cache-Control: private, no-store`):
 * the worker never stores a response that has it, whatever else its headers say.
 */
export const PERSONAL_HEADER = 'x-personal';

/**
 * The pages the worker keeps a copy of for offline reading: the catalogue and content pages an
 * anonymous visitor sees (the shared pages of shared-pages.ts and the delivery options).
 */
export const OFFLINE_PAGES: readonly RegExp[] = [/^\/$/, /^\/collection\/?$/, /^\/designers\/?$/, /^\/product\/[^/]+\/?$/, /^\/Bags-men\/?$/i, /^\/(about|contact|privacy|delivery-options)\/?$/];

/** The query parameter the installed app's start URL carries (manifest start_url); not part of a saved page's key. */
export const SOURCE_PARAM = 'source';

/** The assets' byte budget of the worker's cache by default: oldest out first beyond it. */
export const ASSET_CACHE_BYTES = 25 * 1024 * 1024;

/** How long a page waits for the network before the saved copy is shown. */
export const NETWORK_TIMEOUT_MS = 3000;

/** "3 minutes ago": how long ago `then` was, in the largest whole unit. */
export function timeAgo(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return 'just now';
  const units: [string, number][] = [['day', 86_400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
