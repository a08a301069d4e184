/**
 * The chrome's behaviour in plain TypeScript (no React, so content pages stay tiny):
 * session sync, cart badge, side menu, profile menu, search toggle, logout and the hearts.
 * Everything here enhances server-rendered HTML that already works without it.
 */
import { bindFavouriteHearts } from '@/lib/client/favourite-hearts';
import { bindImageFallback } from '@/lib/client/image-fallback';
import { api } from '@/lib/client/api';
import { logout } from '@/lib/client/session';
import { $cartCount, $profile, cartChanged, cartCounted, signedIn, signedOut, type Profile } from '@/lib/client/stores';

const MENU_REOPEN_KEY = 'ml:menu-reopen';

function readServerProfile(): Profile | null {
  const el = document.getElementById('ml-session');
  try {
    return el?.textContent ? (JSON.parse(el.textContent) as Profile | null) : null;
  } catch {
    return null;
  }
}

/** The server decides who is signed in; the persistent store follows it. */
function syncSession(): void {
  const serverProfile = readServerProfile();
  if (serverProfile) {
    signedIn(serverProfile);
    // The page counted the cart when the server knew it (personal-parts.ts): no request then.
    const counted = document.querySelector<HTMLElement>('[data-cart-link]')?.dataset.cartLink;
    if (counted) cartCounted(Number(counted));
    else void refreshCartCount(serverProfile.userId);
  } else if ($profile.get()) {
    signedOut();
  }
}

async function refreshCartCount(userId: string): Promise<void> {
  try {
    // Through the one API client, so an expired session is handled here as everywhere else.
    const { ok, body } = await api<{ status?: boolean; data?: { items?: unknown[] } }>(`/cart/${encodeURIComponent(userId)}`);
    if (ok && body.status && Array.isArray(body.data?.items)) cartChanged({ items: body.data.items });
  } catch {
    // The badge keeps its last known value when the cart cannot be read.
  }
}

function bindCartBadge(): void {
  const badge = document.querySelector<HTMLElement>('[data-cart-count]');
  const link = document.querySelector<HTMLElement>('[data-cart-link]');
  $cartCount.subscribe((count) => {
    const n = Number.isFinite(count) && count > 0 ? count : 0;
    if (badge) {
      badge.textContent = String(n);
      badge.hidden = n === 0;
    }
    link?.setAttribute('aria-label', n === 1 ? 'Cart, 1 item' : `Cart, ${n} items`);
  });
}

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input, select, [tabindex]:not([tabindex="-1"])')].filter(
    (el) => el.offsetParent !== null,
  );
}

function bindSideMenu(): void {
  const menu = document.querySelector<HTMLElement>('[data-side-menu]');
  const button = document.getElementById('menu-button');
  if (!menu || !button) return;
  let lastFocus: HTMLElement | null = null;

  const open = () => {
    lastFocus = document.activeElement instanceof HTMLElement ? document.activeElement : button;
    document.body.classList.add('menu-open');
    menu.classList.add('is-open');
    button.setAttribute('aria-expanded', 'true');
    const current = menu.querySelector<HTMLElement>('.side-menu-second a[aria-current], [data-parent-link][aria-current]');
    (current ?? focusables(menu)[0])?.focus();
  };
  const close = (restoreFocus = true) => {
    if (!menu.classList.contains('is-open') && location.hash !== '#side-menu') return;
    document.body.classList.remove('menu-open');
    menu.classList.remove('is-open');
    button.setAttribute('aria-expanded', 'false');
    if (location.hash === '#side-menu') history.replaceState(null, '', location.pathname + location.search);
    if (restoreFocus) (lastFocus ?? button).focus();
  };

  button.addEventListener('click', (e) => {
    e.preventDefault();
    if (menu.classList.contains('is-open')) close();
    else open();
  });
  // The menu button is a link (so it works without script); Space should press it like a button.
  button.addEventListener('keydown', (e) => {
    if (e.key === ' ') {
      e.preventDefault();
      button.click();
    }
  });
  for (const el of document.querySelectorAll<HTMLElement>('[data-menu-close]')) {
    el.addEventListener('click', (e) => {
      e.preventDefault();
      close();
    });
  }
  // Choosing a parent loads its collection; the menu then reopens on its sub-categories.
  for (const link of menu.querySelectorAll<HTMLAnchorElement>('[data-parent-link]')) {
    link.addEventListener('click', () => sessionStorage.setItem(MENU_REOPEN_KEY, '1'));
  }
  document.addEventListener('keydown', (e) => {
    if (!menu.classList.contains('is-open')) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') {
      // Keep keyboard focus inside the open menu.
      const items = focusables(menu);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  });

  if (location.hash === '#side-menu') open();
  if (sessionStorage.getItem(MENU_REOPEN_KEY)) {
    sessionStorage.removeItem(MENU_REOPEN_KEY);
    if (menu.classList.contains('has-second-panel')) open();
  }
}

function bindProfileMenu(): void {
  const wrap = document.querySelector<HTMLElement>('[data-profile-menu]');
  const button = wrap?.querySelector<HTMLButtonElement>('button[aria-haspopup]');
  if (!wrap || !button) return;
  const set = (open: boolean) => {
    wrap.classList.toggle('is-open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', () => set(button.getAttribute('aria-expanded') !== 'true'));
  wrap.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      set(false);
      button.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (!wrap.contains(e.target as Node)) set(false);
  });
  wrap.addEventListener('focusout', (e) => {
    if (!wrap.contains(e.relatedTarget as Node | null)) set(false);
  });
}

function bindSearch(): void {
  const toggle = document.getElementById('search-toggle');
  const bar = document.getElementById('search-bar');
  if (!toggle || !bar) return;
  toggle.addEventListener('click', () => {
    const show = bar.hidden;
    bar.hidden = !show;
    toggle.setAttribute('aria-expanded', String(show));
    if (show) bar.querySelector('input')?.focus();
  });
  if (location.hash === '#search-bar') bar.querySelector('input')?.focus();
  bindSuggestions(bar);
}

/** Suggestions as the shopper types: the store's known words for what is typed, as links to their results. */
function bindSuggestions(bar: HTMLElement): void {
  const input = bar.querySelector<HTMLInputElement>('input[type="search"]');
  const list = bar.querySelector<HTMLElement>('#search-suggestions');
  if (!input || !list) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = '';
  const show = (terms: string[]) => {
    list.replaceChildren(
      ...terms.map((term) => {
        const link = Object.assign(document.createElement('a'), { href: `/collection?q=${encodeURIComponent(term)}`, textContent: term });
        const item = document.createElement('li');
        item.append(link);
        return item;
      }),
    );
    list.hidden = terms.length === 0;
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = input.value.trim();
      if (q.length < 2) return show([]);
      if (q === asked) return;
      asked = q;
      try {
        const res = await fetch(`/api/v1/search/suggestions?q=${encodeURIComponent(q)}`, { headers: { accept: 'application/json' } });
        const body = (await res.json()) as { data?: string[] };
        if (asked === q) show((body.data ?? []).filter((term) => term !== q.toLowerCase()));
      } catch {
        // Suggestions are a help, never needed: the search itself still works.
      }
    }, 150);
  });
  bar.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') show([]);
  });
  // Leaving the search (a tap elsewhere) closes the list; a tap on a suggestion follows its link first.
  bar.addEventListener('focusout', (e) => {
    if (!bar.contains(e.relatedTarget as Node | null)) show([]);
  });
}

function bindLogout(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-logout]')) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      // Signing out locally happens even when the request fails; the session then expires on its own.
      void logout('/');
    });
  }
}

bindImageFallback();
syncSession();
bindCartBadge();
bindSideMenu();
bindProfileMenu();
bindSearch();
bindLogout();
bindFavouriteHearts();
