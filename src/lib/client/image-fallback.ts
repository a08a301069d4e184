import { PLACEHOLDER_IMAGE } from '@/lib/domain/images';

/**
 * Broken catalogue images become the placeholder, on every page, from one listener in the chrome
 * script: no inline handlers (the CSP forbids them) and none in the islands. It catches images that
 * failed before the script ran, later ones (error events are seen while capturing), and images the
 * islands render after hydration.
 */
function showPlaceholder(img: HTMLImageElement): void {
  if (img.dataset.fallback) return;
  img.dataset.fallback = '1';
  const picture = img.parentElement;
  if (picture?.tagName === 'PICTURE') picture.querySelectorAll('source').forEach((s) => s.remove());
  img.removeAttribute('srcset');
  img.src = PLACEHOLDER_IMAGE;
}

/** The store's own catalogue images (/media/...), which have a placeholder. */
function isCatalogueImage(img: HTMLImageElement): boolean {
  return /\/media\//.test(img.currentSrc || img.src);
}

export function bindImageFallback(): void {
  document.addEventListener(
    'error',
    (e) => {
      const img = e.target;
      if (img instanceof HTMLImageElement && isCatalogueImage(img)) showPlaceholder(img);
    },
    true,
  );
  for (const img of document.images) if (img.complete && img.naturalWidth === 0 && isCatalogueImage(img)) showPlaceholder(img);
}
