import type { ClientDirective } from 'astro';

/**
 * `client:reach="<selector>"`: an island hydrates when the shopper reaches for it, not while the
 * page loads. That is when the part the selector names (the purchase form) comes onto the screen,
 * or at the first touch, click, key or focus anywhere in the island. On a desktop the form is in
 * the first screen, so the island hydrates at once; on a phone the pictures fill the first screen
 * and React is neither fetched nor run until the shopper scrolls or taps.
 *
 * Until then the island is its server-rendered HTML: its forms post as they do without scripts,
 * and radios ticked early are taken up after hydration (forms.ts useChoicesMadeEarly). A click on a
 * control that only scripts can serve (a `type="button"` button, the picture's zoom link) is held
 * and replayed once hydrated, so the first tap on a thumbnail is not lost.
 */
const REPLAYED = 'button[type="button"], a[data-zoom]';
const REACHING = ['pointerdown', 'keydown', 'focusin'] as const;

const hydrateOnReach: ClientDirective = (load, options, el) => {
  let started = false;
  let held: HTMLElement | null = null;
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) void start();
  });
  const hold = (event: Event) => {
    const control = event.target instanceof Element ? event.target.closest<HTMLElement>(REPLAYED) : null;
    if (!control || !el.contains(control) || (event instanceof MouseEvent && (event.metaKey || event.ctrlKey || event.shiftKey))) return;
    event.preventDefault();
    event.stopPropagation();
    held = control;
    void start();
  };
  async function start(): Promise<void> {
    if (started) return;
    started = true;
    seen.disconnect();
    for (const type of REACHING) el.removeEventListener(type, start);
    try {
      const hydrate = await load();
      await hydrate();
    } finally {
      el.removeEventListener('click', hold, true);
      // Without its scripts (offline, blocked) the held control does what it does without them.
      held?.click();
    }
  }
  const part = typeof options.value === 'string' && options.value ? el.querySelector(options.value) : null;
  if (part) seen.observe(part);
  else for (const child of el.children) seen.observe(child);
  for (const type of REACHING) el.addEventListener(type, start, { passive: true });
  el.addEventListener('click', hold, true);
};

export default hydrateOnReach;
