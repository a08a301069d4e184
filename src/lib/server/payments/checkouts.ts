import { and, eq } from 'drizzle-orm';
import { Conflict } from '@/lib/domain/errors';
import { toMajor, type CurrencyCode } from '@/lib/domain/money';
import { message } from '@/lib/domain/messages';
import type { Db } from '@/lib/server/infra/db/client';
import { payments } from '@/lib/server/payments/tables';
import { digestOf, type StartInput, type StartPayment } from './attempts';
import type { Fulfil } from './fulfil';
import { channelsOf } from './pages';
import type { PaymentProvider } from './port';
import type { PaymentRows } from './rows';
import type { DifferenceSnapshot } from './snapshots';
import type { CheckoutAttempt, CheckoutCharge, CheckoutStart, InitiateResult, StartedAttempt } from './types';
import { PAYMENT_STATUSES } from '@/lib/domain/payments';

/**
 * Starting what a shopper pays for: a checkout (online through the provider's page, or charging
 * nothing now), a checkout attempt sent again, and a dearer exchange's difference. Each starts its
 * payment once (attempts.ts); one charging nothing is fulfilled at once (fulfil.ts).
 */

/** How long a resend waits for the first start's answer from the provider (its timeout is 15 s). */
const STARTED_ANSWER_WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createCheckouts({ db, provider, rows, startPayment, fulfil }: { db: Db; provider: PaymentProvider; rows: PaymentRows; startPayment: StartPayment; fulfil: Fulfil }) {
  /** A payment charged online: its row (and holds), then the provider's payment page; a refused start fails the row and frees its key. */
  async function startOnline(input: StartInput, amountMinor: number): Promise<InitiateResult | { existing: StartedAttempt }> {
    const started = await startPayment(input, { provider: provider.name, amountMinor, status: PAYMENT_STATUSES.initialized });
    if ('existing' in started) return started;
    const { reference, paymentId } = started;
    let authorizationUrl: string;
    try {
      ({ authorizationUrl } = await provider.initialize({
        reference,
        email: input.email,
        amountMinor,
        currency: input.currency,
        callbackUrl: input.snapshot.callbackUrl,
        channels: channelsOf(input.currency),
      }));
    } catch (err) {
      await rows.failStart(paymentId);
      throw err;
    }
    // Kept for a resend of the same attempt, which answers this page again.
    await rows.keepAuthorizationUrl(paymentId, authorizationUrl);
    return { reference, authorization_url: authorizationUrl, amount: toMajor(amountMinor), currency: input.currency };
  }

  /**
   * The answer of a checkout payment started before by the same attempt: its page once the provider
   * has given it (waiting while the first start is still asking), or for a payment charging nothing,
   * its order (fulfil: the one placing it, or the one already placed) and the return page. Null when
   * that start failed meanwhile: the caller starts afresh.
   */
  async function answerStarted(p: StartedAttempt): Promise<InitiateResult | null> {
    if (p.provider === 'on_delivery' || p.provider === 'store_credit') await fulfil(p.reference, { userId: p.userId });
    const deadline = Date.now() + STARTED_ANSWER_WAIT_MS;
    for (;;) {
      const [row] = await db
        .select({ status: payments.status, authorizationUrl: payments.authorizationUrl, amountMinor: payments.amountMinor, currency: payments.currency })
        .from(payments)
        .where(eq(payments.reference, p.reference));
      if (row?.authorizationUrl) return { reference: p.reference, authorization_url: row.authorizationUrl, amount: toMajor(row.amountMinor), currency: row.currency as CurrencyCode };
      if (!row || row.status === PAYMENT_STATUSES.failed) return null;
      if (Date.now() > deadline) throw new Conflict(message('checkout-still-starting'));
      await sleep(100);
    }
  }

  const checkouts = {
    /** Stores a payment for what the checkout priced (the snapshot), and asks the provider for a payment page. */
    async initiate(input: CheckoutStart): Promise<InitiateResult> {
      return checkouts.startCheckout(input, 'online');
    },

    /**
     * A checkout's payment (docs/decisions/0020): online, its row and the provider's page; charging
     * nothing now (the whole order paid on delivery, or store credit covering it), its row created
     * paid and fulfilled at once (the stock is taken now), answered with the return page. A start
     * that is the same attempt again (its key, or the same cart asking for the same while its payment
     * is open) is answered with that payment instead, so one attempt makes one payment and one order.
     */
    async startCheckout(input: CheckoutStart, charge: CheckoutCharge): Promise<InitiateResult> {
      const { snapshot } = input;
      for (let tries = 0; ; tries++) {
        let started: InitiateResult | { existing: StartedAttempt };
        if (charge === 'online') {
          // Pay on delivery with a deposit: the deposit is charged online, the rest at the door; store credit comes off first.
          started = await startOnline(input, snapshot.totalMinor - snapshot.dueOnDeliveryMinor - snapshot.storeCreditMinor);
        } else {
          const r = await checkouts.startWithoutCharge(charge, input);
          started = { existing: r.existing ?? { reference: r.reference, provider: charge, userId: input.userId, requestDigest: null } };
        }
        if (!('existing' in started)) return started;
        const answer = await answerStarted(started.existing);
        if (answer) return answer;
        // The first start failed meanwhile (the provider refused it, freeing its key): once more, afresh.
        if (tries > 0) throw new Conflict(message('checkout-still-starting'));
      }
    },

    /**
     * A checkout attempt sent again (its key): the answer of the payment it started, or null when it
     * started none (it was refused before its payment, or the provider refused it: it may start now).
     * The same key asking for something else is refused.
     */
    async resumeCheckout(userId: string, attempt: Pick<CheckoutAttempt, 'key' | 'request'>): Promise<InitiateResult | null> {
      if (!attempt.key) return null;
      const [first] = await db
        .select({ reference: payments.reference, provider: payments.provider, userId: payments.userId, requestDigest: payments.requestDigest })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.idempotencyKey, attempt.key)));
      if (!first) return null;
      if (first.requestDigest !== digestOf(attempt.request)) throw new Conflict(message('checkout-key-reused'));
      return answerStarted(first);
    },

    /**
     * The difference of a dearer exchange, paid online before staff approve the return;
     * the provider's return and webhook fulfil it like a checkout (fulfil), marking the return paid.
     */
    async initiateDifference(input: { userId: string; email: string; currency: CurrencyCode; amountMinor: number; snapshot: DifferenceSnapshot }): Promise<InitiateResult> {
      if (!Number.isInteger(input.amountMinor) || input.amountMinor <= 0) throw new Error('initiateDifference: the difference must be positive');
      const started = await startOnline(input, input.amountMinor);
      if ('existing' in started) throw new Error('initiateDifference: an exchange difference has no checkout attempt');
      return started;
    },

    /**
     * A payment that charges nothing online, created paid, with its holds like any payment (a code's
     * place, the store credit it spends): the whole order paid on delivery (provider on_delivery), or
     * store credit covering what is paid now (store_credit). The caller fulfils it at once; a crash
     * before that leaves a paid payment that reconciliation fulfils. The same attempt again answers
     * the payment it started (`existing`).
     */
    async startWithoutCharge(provider: 'on_delivery' | 'store_credit', input: CheckoutStart): Promise<{ reference: string; existing?: StartedAttempt }> {
      const { snapshot } = input;
      const nothingNow = snapshot.dueOnDeliveryMinor + snapshot.storeCreditMinor === snapshot.totalMinor;
      if (!nothingNow || (provider === 'on_delivery') !== (snapshot.paymentMethod === 'on_delivery')) {
        throw new Error(`startWithoutCharge(${provider}): the order must leave nothing to pay online`);
      }
      const started = await startPayment(input, { provider, amountMinor: 0, status: PAYMENT_STATUSES.paid });
      return 'existing' in started ? { reference: started.existing.reference, existing: started.existing } : { reference: started.reference };
    },
  };
  return checkouts;
}
