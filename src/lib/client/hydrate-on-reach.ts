import type { ClientDirective } from 'astro';

/**
 * `client:reach="<selector>"`: an island hydrates when the shopper reaches for it, not while the
 * page loads. That is when the part the selector names (the purchase form) comes onto the screen,
 * or at the first click on a control only scripts can serve (a `type="button"` button, the
 * picture's zoom link): that click is held and replayed once hydrated, so the first tap on a
 * thumbnail is not lost. On a desktop the form is in the first screen, so the island hydrates at
 * once; on a phone the pictures fill the first screen, and React is neither fetched nor run until
 * the shopper scrolls down or taps.
 *
 * A form sent before then (ADD TO CART tapped as it scrolls in) is held too, and sent again when
 * the island says its handlers are in place (forms.ts useHeldSendsReplayed), so the shopper gets the
 * island's answer on this page, as every later tap does. Should the scripts not come, it is sent as
 * it is without them. Radios ticked early are taken up after hydration (forms.ts
 * useChoicesMadeEarly). Astro writes this script into the page, and the CSP header of every page
 * carries its hash: it stays small.
 */
const REPLAYED = 'button[type="button"],a[data-zoom]';

const hydrateOnReach: ClientDirective = (load, options, el) => {
  let started = false;
  let held: HTMLElement | null = null;
  let sent: [HTMLFormElement, HTMLElement | null] | null = null;
  const holdSend = (event: SubmitEvent) => {
    event.preventDefault();
    sent = [event.target as HTMLFormElement, event.submitter];
    void start();
  };
  const sendHeld = () => {
    el.removeEventListener('submit', holdSend, true);
    sent?.[0].requestSubmit(sent[1]);
  };
  const hold = (event: Event) => {
    const control = (event.target as Element).closest<HTMLElement>(REPLAYED);
    if (control) {
      event.preventDefault();
      held = control;
    }
    void start();
  };
  const seen = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) void start();
  });
  async function start(): Promise<void> {
    if (started) return;
    started = true;
    seen.disconnect();
    try {
      await (await load())();
    } catch (error) {
      sendHeld();
      throw error;
    } finally {
      el.removeEventListener('click', hold, true);
      // Without its scripts (offline, blocked), the held control does what it does without them.
      held?.click();
    }
  }
  const part = el.querySelector(String(options.value));
  if (part) seen.observe(part);
  el.addEventListener('click', hold, true);
  el.addEventListener('submit', holdSend, true);
  el.addEventListener('island-ready', sendHeld, { once: true });
};

export default hydrateOnReach;
