/**
 * The home page's product rows (src/components/home/ProductShowcase.astro), plain TypeScript with
 * no framework: the row's list call once it is in view, 'Discover More' revealing `step` more
 * (placeholder cards while the list loads), a failed list left empty with its failure toast.
 */
import { api, NetworkError } from '../api';
import { productCardElement, productCardSkeleton, type CardProduct } from '../product-card';
import { toast } from '../toast';

type Status = 'waiting' | 'loading' | 'loaded' | 'failed';

function enhance(section: HTMLElement): void {
  const grid = section.querySelector<HTMLElement>('[data-showcase-grid]')!;
  const moreRow = section.querySelector<HTMLElement>('.more-row')!;
  const empty = section.querySelector<HTMLElement>('[data-showcase-empty]')!;
  const { endpoint = '', failedMessage = '', errorMessage = '' } = section.dataset;
  const step = Number(section.dataset.step);
  const saveData = section.dataset.saveData !== undefined;
  let status: Status = 'waiting';
  let visible = step;
  let products: CardProduct[] = [];
  let total = Number(section.dataset.total);

  /** The grid as the state says: the cards already there are kept, new ones added, placeholders while loading. */
  function render(): void {
    section.setAttribute('aria-busy', String(status === 'loading'));
    const skeletons: Element[] = [...grid.querySelectorAll('[data-skeleton]')].map((s) => s.parentElement!);
    const cards = [...grid.children].filter((li) => !skeletons.includes(li));
    let cardCount = cards.length;
    if (status === 'loaded' || status === 'failed') {
      const wanted = products.slice(0, visible);
      // Keep the cards that already show the list's first products; the rest are rebuilt in order.
      const firstStale = cards.findIndex((li, i) => li.querySelector('.card')?.getAttribute('data-product-id') !== String(wanted[i]?.id));
      if (firstStale >= 0) cards.slice(firstStale).forEach((li) => li.remove());
      for (const product of wanted.slice(firstStale >= 0 ? firstStale : cards.length)) grid.append(listItem(productCardElement(product, saveData)));
      cardCount = wanted.length;
    }
    const waiting = status === 'loading' || status === 'waiting';
    const placeholders = waiting ? Math.max(0, Math.min(visible, total) - cardCount) : 0;
    skeletons.slice(placeholders).forEach((li) => li.remove());
    for (let i = skeletons.length; i < placeholders; i++) grid.append(listItem(productCardSkeleton()));
    empty.hidden = status !== 'failed';
    moreRow.hidden = status === 'failed' || visible >= total;
  }

  async function load(): Promise<void> {
    if (status !== 'waiting') return;
    status = 'loading';
    render();
    try {
      const { body } = await api<{ status?: boolean; data?: { docs?: CardProduct[] } }>(endpoint);
      if (body?.status && Array.isArray(body.data?.docs)) {
        products = body.data.docs;
        status = 'loaded';
      } else {
        // A failed list stays empty.
        status = 'failed';
        // Each list is its own action: its toast replaces only its own, never the other list's.
        toast.error(failedMessage, { id: `product-list:${endpoint}` });
      }
    } catch (err) {
      console.error(errorMessage, err instanceof NetworkError ? err.message : err);
      status = 'failed';
      toast.error(errorMessage, { id: `product-list:${endpoint}` });
    }
    if (status === 'failed') products = [];
    total = products.length;
    render();
  }

  section.querySelector('[data-showcase-more]')!.addEventListener('click', (event) => {
    event.preventDefault();
    visible += step;
    void load();
    render();
  });
  // As Astro's client:visible: the list call runs once the section comes into view.
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    void load();
  });
  seen.observe(section);
  section.dataset.enhanced = '';
}

const listItem = (card: HTMLElement) => {
  const li = document.createElement('li');
  li.append(card);
  return li;
};

/** Enhances every product row of the page (ProductShowcase.astro). */
export function enhanceShowcases(): void {
  document.querySelectorAll<HTMLElement>('[data-showcase]').forEach(enhance);
}
