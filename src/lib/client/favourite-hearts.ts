/**
 * The hearts (FavouriteButton.astro): a press toggles the favourite with fetch instead of posting
 * the page's heart form. Part of the chrome's script, which every page loads and caches, rather
 * than a script written into each page with hearts: a product page seen again costs less.
 */
const LABELS = ['Add to favourites', 'Remove from favourites'];

const mark = (b: Element, on: boolean) => {
  b.setAttribute('aria-pressed', String(on));
  b.setAttribute('aria-label', LABELS[+on]!);
  b.setAttribute('title', LABELS[+on]!);
  // Submit the other form next time, for a press after scripts stop (forms.ts FAVOURITE_FORMS: each id ends in its action).
  b.setAttribute('form', (b.getAttribute('form') ?? '').replace(/(add|remove)$/, on ? 'remove' : 'add'));
};

export function bindFavouriteHearts(): void {
  // A signed-in shopper's hearts are marked by the server (personal-parts.ts), on cached pages too.
  const signedIn = document.getElementById('ml-session')?.textContent?.trim() !== 'null';
  document.addEventListener('click', async (e) => {
    const b = (e.target as Element).closest?.<HTMLElement>('[data-fav]');
    if (!b) return;
    e.preventDefault();
    e.stopPropagation();
    // Signed out: the heart's own form is posted as without scripts: to /login with the reason, keeping
    // the heart, which signing in (or registering) then keeps, back on this page.
    const signIn = () => {
      const form = b.getAttribute('form');
      const own = form ? document.getElementById(form) : null;
      if (own instanceof HTMLFormElement) own.requestSubmit(b);
      else location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}&notice=favourites-sign-in`);
    };
    if (!signedIn) return signIn();
    const on = b.getAttribute('aria-pressed') !== 'true';
    const id = b.dataset.fav;
    const res = await fetch(`/api/v1/favourites/${on ? 'add' : 'remove'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: +id! }),
    }).catch(() => null);
    if (res?.status === 401) return signIn();
    if (!res?.ok) return;
    // The same product may show twice on a page: keep every heart in step.
    document.querySelectorAll(`[data-fav="${id}"]`).forEach((x) => mark(x, on));
    const item = b.closest('[data-fav-item]');
    if (!on && item) {
      item.remove();
      if (!document.querySelector('[data-fav-item]')) document.querySelector('[data-fav-empty]')?.removeAttribute('hidden');
    }
  });
}
