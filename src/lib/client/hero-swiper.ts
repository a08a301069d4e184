/**
 * The home banner's slideshow: Swiper, imported by ./hero-banner.ts only when there is something to
 * slide (two slides or more) and the slideshow is needed. Until then the banner is the server's
 * markup, its first slide painted. Swiper's own stylesheets are not loaded: the few rules this
 * banner uses are in src/pages/index.astro, beside the banner's look.
 */
import Swiper from 'swiper';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import { HERO_AUTOPLAY_MS } from './hero-banner';

export function startHeroSwiper(root: HTMLElement, pause: HTMLButtonElement | null): Swiper {
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const swiper = new Swiper(root, {
    modules: [Autoplay, A11y, Keyboard, Pagination],
    loop: true,
    speed: reduceMotion ? 0 : 700,
    autoplay: { delay: HERO_AUTOPLAY_MS, disableOnInteraction: false },
    keyboard: { enabled: true, onlyInViewport: true },
    pagination: { el: root.querySelector<HTMLElement>('.hero-pagination'), clickable: true },
    a11y: {
      enabled: true,
      containerRoleDescriptionMessage: 'carousel',
      itemRoleDescriptionMessage: 'slide',
      slideLabelMessage: '{{index}} of {{slidesLength}}',
      paginationBulletMessage: 'Show slide {{index}}',
    },
  });
  if (!pause) return swiper;
  // The pause button means something only once the slideshow runs: it is shown from now on.
  pause.hidden = false;
  pause.addEventListener('click', () => {
    const paused = swiper.autoplay.running;
    if (paused) swiper.autoplay.stop();
    else swiper.autoplay.start();
    pause.setAttribute('aria-label', paused ? 'Play slideshow' : 'Pause slideshow');
    pause.textContent = paused ? '▶' : '❚❚';
  });
  return swiper;
}
