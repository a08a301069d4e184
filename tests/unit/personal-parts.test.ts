import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountControl, cartLink, favouriteButton, favouriteForms, menuAccountLinks, sessionScript } from '@/components/personal-parts';
import { escapeHtml } from '@/lib/domain/html';
import { CSRF_SLOT, personalise, SHOWN_SLOT, slotted, type PersonalParts } from '@/lib/server/storefront/personal-page';
import { isSharedPage } from '@/lib/server/storefront/shared-pages';

/** A page as the layout renders it for nobody (the shared cache's render): each part in its nobody's form. */
function nobodysPage(hearts: number[]): string {
  return [
    '<html><body>',
    sessionScript(null),
    `<form class="market-form" method="post" action="/market"><input type="hidden" name="_csrf" value="${CSRF_SLOT}"></form>`,
    accountControl(null, CSRF_SLOT),
    cartLink(null),
    menuAccountLinks(null, CSRF_SLOT),
    favouriteForms('/collection?page=2', CSRF_SLOT),
    ...hearts.map((id) => favouriteButton(id, false)),
    `<astro-island props="{&quot;csrf&quot;:[0,&quot;${CSRF_SLOT}&quot;]}"></astro-island>`,
    '</body></html>',
  ].join('');
}

function parts(firstName: string, extra: Partial<PersonalParts> = {}): PersonalParts {
  const user = { id: 'u-1', firstName, lastName: 'Obi', email: 'ada@example.com', imageHash: null, country: 'nigeria' };
  return { session: { user } as unknown as PersonalParts['session'], csrfToken: 'tok-123', cartCount: 2, favouriteIds: new Set([7]), ...extra };
}

/** personalise reads and writes the page's bytes, as the route cache stores them. */
function personaliseText(page: string, shopper: PersonalParts): { html: string; missing: string[]; pressedHearts: number } {
  const stored = slotted(new TextEncoder().encode(page));
  const { body, missing, pressedHearts } = personalise(stored.body, stored.slots, shopper);
  return { html: new TextDecoder().decode(body), missing, pressedHearts };
}

describe('personalise (a shared page made one shopper\'s)', () => {
  it('puts in who is signed in, the cart count, the hearts and the token everywhere the slot was', () => {
    const { html, missing } = personaliseText(nobodysPage([7, 8]), parts('Ada'));
    expect(missing).toEqual([]);
    expect(html).toContain('"firstName":"Ada"');
    expect(html).toContain('aria-label="Account menu for Ada"');
    expect(html).toContain('aria-label="Cart, 2 items"');
    expect(html).toContain('<span class="cart-badge" data-cart-count>2</span>');
    expect(html).toContain('<a href="/order-history">Orders</a>');
    expect(html).toContain(favouriteButton(7, true));
    expect(html).toContain(favouriteButton(8, false));
    expect(html).toContain(favouriteForms('/collection?page=2', 'tok-123'));
    expect(html).not.toContain(CSRF_SLOT);
    expect(html).toContain('&quot;csrf&quot;:[0,&quot;tok-123&quot;]');
    expect(html.match(/data-logout/g)).toHaveLength(2);
  });

  it('keeps a name as text, never markup or a replacement pattern', () => {
    const { html } = personaliseText(nobodysPage([]), parts('$&</script><b>x'));
    expect(html).toContain('Account menu for $&amp;&lt;/script&gt;&lt;b&gt;x');
    expect(html).toContain('"firstName":"$&\\u003c/script>\\u003cb>x"');
    expect(html).not.toContain('<b>x');
  });

  it('keeps the page\'s own characters and the shopper\'s as UTF-8, and the hearts\' way back whatever it holds', () => {
    const back = "/collection?q=men's bags&sort=₦";
    const page = nobodysPage([]).replace('<html><body>', `<html><body><p>₦ 1,250,000 · R 9 999</p>${favouriteForms(back, CSRF_SLOT)}${favouriteButton(7, false)}`);
    const { html, missing, pressedHearts } = personaliseText(page, parts('Adaẹze Zoë'));
    expect(missing).toEqual([]);
    expect(pressedHearts).toBe(1);
    expect(html).toContain('<p>₦ 1,250,000 · R 9 999</p>');
    expect(html).toContain('"firstName":"Adaẹze Zoë"');
    expect(html).toContain(`${favouriteForms(back, 'tok-123')}${favouriteButton(7, true)}`);
  });

  it('puts the token only where the render put a slot, whatever a search, a name or a field carries', () => {
    // What a search for the marker (or what anonymous visitors see in a slot) comes out as.
    const reflected = (text: string) =>
      `<title>Search results for “${escapeHtml(text)}”</title><h1>${escapeHtml(text)}</h1><input type="search" name="q" value="${escapeHtml(text)}">` +
      `<a href="/market?back=${escapeHtml(encodeURIComponent(`/collection?q=${text}`))}">x</a><input type="hidden" name="back" value="${escapeHtml(text)}">` +
      `<astro-island props="${escapeHtml(JSON.stringify({ query: [0, text], name: [0, `"csrf":[0,"${text}`] }))}"></astro-island>` +
      `<script type="application/ld+json">${JSON.stringify({ name: `name="_csrf" value="${text}` })}</script>`;
    for (const text of [CSRF_SLOT, SHOWN_SLOT, `x${CSRF_SLOT}x`, `name="_csrf" value="${CSRF_SLOT}`]) {
      const page = nobodysPage([7]).replace('<html><body>', `<html><body>${reflected(text)}`);
      const stored = slotted(new TextEncoder().encode(page));
      const { html } = personaliseText(page, parts('Ada'));
      const slots = [`name="_csrf" value="tok-123"`, `&quot;csrf&quot;:[0,&quot;tok-123&quot;]`];
      const outside = slots.reduce((rest, slot) => rest.split(slot).join(''), html);
      expect(outside, text).not.toContain('tok-123');
      // The four slots of the page and the two log-out forms put in.
      expect(html.split(slots[0]!).length - 1 + html.split(slots[1]!).length - 1, text).toBe(6);
      // The marker itself never leaves: a page that held it outside its slots is not stored.
      expect(new TextDecoder().decode(stored.body), text).not.toContain(CSRF_SLOT);
      expect(stored.stray, text).toBe(text !== SHOWN_SLOT);
    }
    expect(slotted(new TextEncoder().encode(nobodysPage([7]))).stray).toBe(false);
  });

  it('reports the parts it could not find', () => {
    expect(personaliseText('<html></html>', parts('Ada')).missing).toEqual(['session', 'account', 'cart', 'menu account links']);
    // A page already someone's is not nobody's: its session part is missing.
    expect(personaliseText(nobodysPage([]).replace(sessionScript(null), sessionScript({ userId: 'x', firstName: 'Bo', lastName: 'B', email: 'b@x', image: null, country: 'nigeria' })), parts('Ada')).missing).toEqual(['session']);
  });

  it('shares the catalogue pages only', () => {
    for (const path of ['/', '/collection', '/designers', '/product/12', '/Bags-men', '/about', '/contact', '/privacy']) expect(isSharedPage(path), path).toBe(true);
    for (const path of ['/profile', '/cart', '/place-order', '/favourites', '/order-history', '/product/12/x', '/admin', '/api/v1/products']) expect(isSharedPage(path), path).toBe(false);
  });

  it('shares exactly the pages that ask for the cache (cachePage)', () => {
    const pagesDir = join(process.cwd(), 'src/pages');
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
    for (const file of walk(pagesDir).filter((f) => f.endsWith('.astro'))) {
      const route = '/' + relative(pagesDir, file).replace(/\.astro$/, '').replace(/(^|\/)index$/, '').replace(/\[[^\]]+\]/g, '12');
      expect(isSharedPage(route), route).toBe(readFileSync(file, 'utf8').includes('cachePage(Astro'));
    }
  });
});
