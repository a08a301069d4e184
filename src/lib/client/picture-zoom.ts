/**
 * The product's pictures full screen: a modal <dialog> holding a Swiper with its zoom module
 * (pinch or double-tap to zoom, swipe between pictures, arrow keys). The product page imports
 * this module, and with it Swiper and its stylesheet, only when the shopper taps the main
 * picture, so the page itself ships none of it.
 */
import Swiper from 'swiper';
import { A11y, Keyboard, Zoom } from 'swiper/modules';
// Swiper's own stylesheets and this one as text, put in on first use: a stylesheet this module
// imported would be hoisted into the page's <head> and load with every product page.
import swiperCss from 'swiper/css?inline';
import zoomCss from 'swiper/css/zoom?inline';
import ownCss from './picture-zoom.css?inline';

function addStyles() {
  if (document.getElementById('picture-zoom-styles')) return;
  const style = document.createElement('style');
  style.id = 'picture-zoom-styles';
  style.textContent = swiperCss + zoomCss + ownCss;
  document.head.append(style);
}

export interface ZoomPicture {
  /** The large rendition. */
  src: string;
  alt: string;
}

export function openPictureZoom(pictures: readonly ZoomPicture[], start: number, onClose?: (index: number) => void): HTMLDialogElement {
  addStyles();
  const dialog = document.createElement('dialog');
  dialog.className = 'picture-zoom';
  dialog.setAttribute('aria-label', 'Pictures, full screen');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'picture-zoom-close';
  close.textContent = 'Close';
  const root = document.createElement('div');
  root.className = 'swiper';
  const wrapper = document.createElement('div');
  wrapper.className = 'swiper-wrapper';
  for (const picture of pictures) {
    const slide = document.createElement('div');
    slide.className = 'swiper-slide';
    const zoom = document.createElement('div');
    zoom.className = 'swiper-zoom-container';
    const img = document.createElement('img');
    img.src = picture.src;
    img.alt = picture.alt;
    img.decoding = 'async';
    zoom.append(img);
    slide.append(zoom);
    wrapper.append(slide);
  }
  root.append(wrapper);
  const hint = document.createElement('p');
  hint.className = 'picture-zoom-hint';
  hint.textContent = pictures.length > 1 ? 'Pinch or double-tap to zoom, swipe for the next picture.' : 'Pinch or double-tap to zoom.';
  dialog.append(close, root, hint);
  document.body.append(dialog);
  dialog.showModal();
  const swiper = new Swiper(root, {
    modules: [Zoom, Keyboard, A11y],
    initialSlide: Math.max(0, Math.min(start, pictures.length - 1)),
    zoom: { maxRatio: 3 },
    keyboard: { enabled: true },
    a11y: { enabled: true, containerRoleDescriptionMessage: 'carousel', itemRoleDescriptionMessage: 'picture', slideLabelMessage: '{{index}} of {{slidesLength}}' },
  });
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    onClose?.(swiper.activeIndex);
    swiper.destroy();
    dialog.remove();
  });
  return dialog;
}
