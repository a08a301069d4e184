/**
 * The offline page's list of the pages saved on this phone: the service worker's pages cache
 * (src/lib/server/offline/service-worker.ts), each with the title it was saved with.
 */
import { OFFLINE_PATH } from '@/lib/domain/offline';
import { STORE_NAME } from '@/lib/domain/brand';

export async function listSavedPages(): Promise<void> {
  const list = document.querySelector<HTMLUListElement>('[data-saved-pages]');
  const none = document.querySelector<HTMLElement>('[data-saved-none]');
  if (!list || !none) return;
  const saved: { href: string; title: string }[] = [];
  if ('caches' in window) {
    for (const name of (await caches.keys()).filter((n) => n.startsWith('pages-'))) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const url = new URL(request.url);
        if (url.pathname === OFFLINE_PATH) continue;
        const html = (await (await cache.match(request))?.text()) ?? '';
        const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? url.pathname;
        const text = new DOMParser().parseFromString(title, 'text/html').documentElement.textContent ?? title;
        // The page's own name: the store's is on every one.
        saved.push({ href: url.pathname + url.search, title: text.replace(` | ${STORE_NAME}`, '') || STORE_NAME });
      }
    }
  }
  for (const page of saved) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = page.href;
    link.textContent = page.title;
    item.append(link);
    list.append(item);
  }
  none.hidden = saved.length > 0;
}
