import { useEffect } from 'react';
import { api } from '@/lib/client/api';
import { cartEmptied } from '@/lib/client/stores';
import { TOASTS } from '@/lib/domain/toasts';
import type { ReturnOutcome, Waiting } from './types';

/** How often the waiting view asks whether the transfer arrived. */
const WAITING_POLL_MS = 3000;

/**
 * The view of a transfer on its way, which looks for the order every few seconds and goes to its
 * thank-you page once the transfer is confirmed; "Check again" is a plain GET of the same view
 * (also the way without scripts, with the page's refresh).
 */
export function WaitingForTransfer({ waiting }: { waiting: Waiting }) {
  useEffect(() => {
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const { body } = await api<{ data?: { state?: string; orderId?: string } }>(`/payments/state?reference=${encodeURIComponent(waiting.reference)}`);
        if (!stopped && body.data?.state === 'placed' && body.data.orderId) {
          stopped = true;
          window.clearInterval(timer);
          cartEmptied();
          window.location.assign(`/order-details/${encodeURIComponent(body.data.orderId)}?placed=1&notice=order-placed`);
        }
      } catch {
        // offline for a moment: the next tick asks again
      }
    }, WAITING_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [waiting.reference]);
  return (
    <div className="po-placed" role="status" data-testid="transfer-waiting">
      <h2 className="po-placed-title">{TOASTS['transfer-waiting']}</h2>
      <p>
        Amount <strong>{waiting.amount}</strong>
      </p>
      <p>{TOASTS['transfer-waiting-note']}</p>
      <div className="po-placed-links">
        <form method="get" action="/place-order">
          <input type="hidden" name="waiting" value={waiting.reference} />
          <button className="btn" type="submit">
            Check again
          </button>
        </form>
        <a className="btn btn-outline" href="/order-history">
          Orders
        </a>
      </div>
    </div>
  );
}

/** The order placed on the return from the provider, as a page without scripts shows it (the island toasts instead). */
export function Placed({ placed }: { placed: NonNullable<ReturnOutcome['placed']> }) {
  return (
    <div className="po-placed" role="status">
      <p className="po-placed-title">{TOASTS['order-placed']}</p>
      <p>
        Tracking number <strong>{placed.trackingNumber}</strong>
      </p>
      <div className="po-placed-links">
        <a className="btn" href={`/order-details/${placed.id}`}>
          View your order
        </a>
        <a className="btn btn-outline" href="/order-history">
          Orders
        </a>
      </div>
    </div>
  );
}
