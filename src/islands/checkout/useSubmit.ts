import { useEffect, useRef, useState, type FormEvent } from 'react';
import { giftFromCheckoutForm } from '@/components/GiftFields';
import { api } from '@/lib/client/api';
import { sendAndShow } from '@/lib/client/forms';
import { navigateAfterToast } from '@/lib/client/navigate';
import { holdOffline } from '@/lib/client/offline-forms';
import { $cartId, cartChanged, cartEmptied, cartIdForgotten } from '@/lib/client/stores';
import { toast } from '@/lib/client/toast';
import { formatMoney } from '@/lib/domain/money';
import { TOASTS, failureText } from '@/lib/domain/toasts';
import { lockerFor } from './figures';
import { newAttemptKey, readReference, writeReference } from './payment-reference';
import type { Checkout } from './store';
import type { ReturnOutcome } from './types';

/** Paying and placing the order is one action to the shopper: each of its toasts replaces the last. */
const PLACE_ORDER_TOAST = 'place-order';

/**
 * PAY & PLACE ORDER: starts the payment (POST /orders/initiate) and goes to the provider; once a
 * reference exists, or on the return from the provider, places the order (POST /orders/place-order),
 * unless the server already did for this return (outcome).
 */
export function useSubmit(checkout: Checkout, outcome: ReturnOutcome | null | undefined): (e: FormEvent<HTMLFormElement>) => void {
  const returned = useRef(false);
  // The server's answer (placed or refused) is toasted once the page has re-rendered without the
  // inline message a page without scripts shows in the same words.
  const [placedNext, setPlacedNext] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ text: string } | null>(null);
  useEffect(() => {
    if (!placedNext) return;
    toast.success(TOASTS['order-placed'], { id: PLACE_ORDER_TOAST });
    navigateAfterToast(placedNext);
  }, [placedNext]);
  useEffect(() => {
    if (refusal) toast.error(refusal.text, { id: PLACE_ORDER_TOAST });
  }, [refusal]);

  function forgetReference() {
    writeReference(null);
    checkout.referenceSet(null);
  }

  /** A placement the server already answered: success goes to the order's own page, a failure forgets the cart id too. */
  function settle(error: string | null, placedId?: string) {
    forgetReference();
    if (error === null) {
      cartEmptied();
      setPlacedNext(placedId ? `/order-details/${placedId}?placed=1` : '/order-history');
      return;
    }
    cartIdForgotten();
    setRefusal({ text: error });
  }

  async function placeOrder(paymentReference: string | null) {
    if (!paymentReference) {
      toast.error(TOASTS['payment-not-found'], { id: PLACE_ORDER_TOAST });
      return;
    }
    const { cart } = checkout.$checkout.get();
    checkout.busy(true);
    const sent = await sendAndShow<{ status: boolean; message?: string; paymentStatus?: string; data?: { id?: string } }>(
      () => api('/orders/place-order', { method: 'POST', body: { cartId: $cartId.get() ?? cart.id, paymentReference } }),
      {
        failed: 'Error placing order.',
        toastId: PLACE_ORDER_TOAST,
        onSuccess: ({ data }) => {
          forgetReference();
          cartEmptied();
          return { toast: TOASTS['order-placed'], next: data?.id ? `/order-details/${data.id}?placed=1` : '/order-history' };
        },
        onFailure: () => forgetReference(),
        refusal: ({ body }) => {
          // A transfer on its way is not a failure: the cart stays, and the page says what happens next.
          if (body?.paymentStatus === 'pending') {
            checkout.waitingFor({ amount: formatMoney(cart.total, cart.currency), reference: paymentReference });
            return null;
          }
          cartIdForgotten();
          return body?.message ? `Error placing order. ${body.message}` : 'Error placing order.';
        },
      },
    );
    if (sent !== 'navigating') checkout.busy(false);
  }

  async function pay(form: HTMLFormElement) {
    const s = checkout.$checkout.get();
    checkout.busy(true);
    // The "Order updates" radios and the company's fields are the page's own (uncontrolled): what is there is the choice.
    const fields = new FormData(form);
    const [updates, company, taxNumber] = ['updates', 'company', 'taxNumber'].map((name) => fields.get(name) ?? undefined);
    const body = { paymentMethod: s.method, useStoreCredit: s.useCredit, updates, gift: giftFromCheckoutForm(form), locker: lockerFor(s), company, taxNumber };
    const sent = await sendAndShow<{ status: string; message?: string; data?: { reference: string; authorization_url: string } }>(
      () => api('/orders/initiate', { method: 'POST', body, headers: s.attemptKey ? { 'idempotency-key': s.attemptKey } : {} }),
      {
        failed: failureText('payment-init-failed'),
        toastId: PLACE_ORDER_TOAST,
        unreachable: TOASTS['payment-init-error'],
        // Never sent again by itself: the shopper retries, with the same attempt key.
        whenOffline: () => holdOffline({ retry: () => void pay(form), resend: false }),
        succeeded: ({ ok, body }) => ok && body.status === 'success' && Boolean(body.data),
        onSuccess: ({ data }) => {
          writeReference(data!.reference);
          checkout.referenceSet(data!.reference);
          // To the provider at once: there is no toast to read first.
          return { toast: null, next: data!.authorization_url };
        },
        refusal: ({ body }) => {
          checkout.attemptRenewed(newAttemptKey());
          return failureText('payment-init-failed', body?.message);
        },
      },
    );
    if (sent !== 'navigating') checkout.busy(false);
  }

  useEffect(() => {
    const stored = readReference();
    checkout.hydrated(stored);
    cartChanged(checkout.$checkout.get().cart);
    const params = new URLSearchParams(window.location.search);
    const back = params.get('paid') === 'true' || params.has('reference');
    if (back && !returned.current) {
      returned.current = true;
      // Leave a clean URL so a reload does not try again.
      history.replaceState(null, '', '/place-order');
      // One fulfilment per return: the server ran it for this page when the URL carried the reference.
      if (outcome?.waiting) forgetReference();
      else if (outcome?.answered) settle(outcome.placed ? null : (outcome.error ?? 'Error placing order.'), outcome.placed?.id);
      else void placeOrder(stored ?? params.get('reference'));
    }
    // Once, when the island first runs (the return from the provider is handled once).
  }, []);

  return (e) => {
    e.preventDefault();
    const { busy, reference } = checkout.$checkout.get();
    if (busy) return;
    if (reference) void placeOrder(reference);
    else void pay(e.currentTarget);
  };
}
