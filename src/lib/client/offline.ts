/**
 * Registers the store's service worker (ADR 0030) once the page has loaded, so it never competes
 * with what the page needs first; where the store has turned it off (SERVICE_WORKER=off: the page's
 * <html> has no data-service-worker), removes any worker this phone installed before.
 */
export function startServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const build = document.documentElement.dataset.serviceWorker;
  const loadedWithoutWorker = !navigator.serviceWorker.controller;
  const go = () => {
    if (build === undefined) {
      // The worker still serving this page stops keeping anything and drops its caches.
      navigator.serviceWorker.controller?.postMessage({ retire: true });
      void navigator.serviceWorker.getRegistrations().then((all) => all.forEach((r) => void r.unregister()));
      if ('caches' in window) void caches.keys().then((names) => names.forEach((n) => void caches.delete(n)));
      return;
    }
    // The build's own URL, kept in the HTTP cache: no request on each navigation, and a new build's
    // pages register its worker at once (src/pages/sw.js.ts).
    const script = `/sw.js?v=${encodeURIComponent(build)}`;
    void navigator.serviceWorker.register(script, { scope: '/', updateViaCache: 'all' }).then(async (registration) => {
      // Another build's worker still in charge: fetch this build's now.
      if (registration.active && !registration.active.scriptURL.endsWith(script)) void registration.update();
      // "Data saver" as the phone's setting says it: the worker keeps images out of its cache.
      const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
      const active = (await navigator.serviceWorker.ready).active;
      active?.postMessage({ saveData });
      // The page the visit began on loaded before the worker: once it is in control, it keeps this page too.
      // (A page the worker already served is kept as it passes.)
      if (!loadedWithoutWorker) return;
      const keepThisPage = () => navigator.serviceWorker.controller?.postMessage({ keep: location.href, assets: pageAssets() });
      if (navigator.serviceWorker.controller) keepThisPage();
      else navigator.serviceWorker.addEventListener('controllerchange', keepThisPage, { once: true });
    }, (err: unknown) => console.warn('Service worker not registered', err));
  };
  if (document.readyState === 'complete') go();
  else window.addEventListener('load', go, { once: true });
}

/** The build's styles and scripts this page loaded (what its saved copy needs to look itself offline). */
function pageAssets(): string[] {
  return performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((url) => new URL(url).pathname.startsWith('/_astro/'));
}
