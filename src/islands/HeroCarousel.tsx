import { useEffect, useRef, useState } from 'react';
import Swiper from 'swiper';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import 'swiper/css';
import 'swiper/css/pagination';
import { pictureSources } from '@/lib/client/pictures';
import { Picture } from '@/components/Picture';

export interface HeroSlide {
  id: number;
  name: string;
  description: string | null;
  image: string | null;
}

/** Spec: the banner advances every 4 seconds, loops, and keeps going after interaction. */
export const HERO_AUTOPLAY_MS = 4000;
const BANNER_SIZES = '(min-width: 768px) 58vw, 100vw';

/**
 * Home banner of parent categories. Every slide is server-rendered (the first one paints
 * before any script, the others wait off-screen); swiper takes over on hydration.
 */
export default function HeroCarousel({ slides, saveData = false }: { slides: HeroSlide[]; saveData?: boolean }) {
  const root = useRef<HTMLDivElement>(null);
  const swiperRef = useRef<Swiper | null>(null);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (!root.current || slides.length < 2) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const swiper = new Swiper(root.current, {
      modules: [Autoplay, A11y, Keyboard, Pagination],
      loop: true,
      speed: reduceMotion ? 0 : 700,
      autoplay: { delay: HERO_AUTOPLAY_MS, disableOnInteraction: false },
      keyboard: { enabled: true, onlyInViewport: true },
      pagination: { el: '.hero-pagination', clickable: true },
      a11y: {
        enabled: true,
        containerRoleDescriptionMessage: 'carousel',
        itemRoleDescriptionMessage: 'slide',
        slideLabelMessage: '{{index}} of {{slidesLength}}',
        paginationBulletMessage: 'Show slide {{index}}',
      },
    });
    swiperRef.current = swiper;
    return () => {
      swiper.destroy(true, false);
      swiperRef.current = null;
    };
  }, [slides.length]);

  const togglePause = () => {
    const autoplay = swiperRef.current?.autoplay;
    if (!autoplay) return;
    if (paused) autoplay.start();
    else autoplay.stop();
    setPaused(!paused);
  };

  return (
    <section className="hero" aria-label="Featured categories">
      <div className="swiper hero-swiper" ref={root}>
        <div className="swiper-wrapper">
          {slides.map((slide, i) => {
            const pic = pictureSources(slide.image, [640, 960, 1280, 1600], 1280, { saveData });
            return (
              <div className="swiper-slide hero-slide" key={slide.id} data-slide-id={slide.id}>
                <div className="hero-text">
                  <p className="hero-eyebrow">{slide.name.toUpperCase()}</p>
                  <h2 className="hero-heading">{slide.description ?? slide.name}</h2>
                  <a className="hero-cta" href={`/collection?categoryId=${slide.id}`}>
                    <span aria-hidden="true" className="hero-cta-line" />
                    SHOP NOW
                  </a>
                </div>
                <div className="hero-media">
                  <Picture
                    pic={pic}
                    sizes={BANNER_SIZES}
                    alt={`${slide.name} collection`}
                    width={1600}
                    height={700}
                    loading={i === 0 ? 'eager' : 'lazy'}
                    fetchPriority={i === 0 ? 'high' : 'auto'}
                    decoding={i === 0 ? 'sync' : 'async'}
                  />
                </div>
              </div>
            );
          })}
        </div>
        <div className="hero-controls">
          <div className="hero-pagination" />
          {slides.length > 1 && (
            <button type="button" className="hero-pause" onClick={togglePause} aria-label={paused ? 'Play slideshow' : 'Pause slideshow'}>
              {paused ? '▶' : '❚❚'}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
