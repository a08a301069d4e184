/**
 * The home banner until its slideshow is needed (ADR 0017: "load what it needs only when it is
 * needed"). The server paints the first slide; Swiper (./hero-swiper.ts, ~23 KB on the wire) is
 * imported only when the shopper reaches for the banner (a touch, a pointer, the keyboard's focus)
 * or when its first turn is due: HERO_AUTOPLAY_MS after the banner came into view with the page
 * showing. A shopper who moves on sooner never downloads it. On a turn that was due, the banner
 * turns at once (late by the download only) and Swiper's autoplay carries on from there.
 */

/** The banner advances every 4 seconds, loops, and keeps going after interaction. */
export const HERO_AUTOPLAY_MS = 4000;

const REACHES = ['pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** A tap on SHOP NOW leaves the page: no slideshow to fetch for that. */
const reachesForSlides = (e: Event) => e.type === 'focusin' || e.type === 'keydown' || !(e.target instanceof Element && e.target.closest('a'));

export function enhanceHeroBanner(root: HTMLElement): void {
  let started = false;
  let due: ReturnType<typeof setTimeout> | undefined;
  let inView = false;

  const start = (turnNow: boolean) => {
    if (started) return;
    started = true;
    clearTimeout(due);
    seen.disconnect();
    document.removeEventListener('visibilitychange', schedule);
    for (const type of REACHES) root.removeEventListener(type, reach);
    void import('./hero-swiper').then(({ startHeroSwiper }) => {
      const swiper = startHeroSwiper(root, root.querySelector<HTMLButtonElement>('.hero-pause'));
      if (turnNow) swiper.slideNext();
      root.dataset.enhanced = '';
    });
  };

  /** The first turn falls due after the banner has been in view, on a showing page, for a whole period. */
  function schedule(): void {
    clearTimeout(due);
    if (inView && document.visibilityState === 'visible') due = setTimeout(() => start(true), HERO_AUTOPLAY_MS);
  }

  const seen = new IntersectionObserver((entries) => {
    inView = entries.some((e) => e.isIntersecting);
    schedule();
  });
  seen.observe(root);
  document.addEventListener('visibilitychange', schedule);
  function reach(e: Event): void {
    if (reachesForSlides(e)) start(false);
  }
  for (const type of REACHES) root.addEventListener(type, reach, { passive: true });
}
