import { AppError } from '../../../../../lib/domain/errors';
import { json } from '../../../../../lib/server/http';
import { isValidPaystackSignature, paystackWebhookEvent } from '../../../../../lib/server/payments/paystack';
import type { APIRoute } from 'astro';

/** Answer within this time even when fulfilment is still running; Paystack retries slow webhooks. */
const ANSWER_WITHIN_MS = 3_000;

export const POST: APIRoute = async ({ locals, request }) => {
  const { config, checkout, log } = locals.services;
  if (config.PAYMENT_PROVIDER !== 'paystack' || !config.PAYSTACK_SECRET_KEY) {
    return json({ status: false, message: 'Paystack is not enabled' }, { status: 404 });
  }
  const raw = await request.text();
  if (!isValidPaystackSignature(raw, request.headers.get('x-paystack-signature'), config.PAYSTACK_SECRET_KEY)) {
    locals.log.warn('paystack webhook with a bad signature');
    return json({ status: false, message: 'Invalid signature' }, { status: 401 });
  }
  let event;
  try {
    event = paystackWebhookEvent.safeParse(JSON.parse(raw));
  } catch {
    return json({ status: false, message: 'The request body must be JSON' }, { status: 400 });
  }
  if (!event.success) return json({ status: false, message: 'Unrecognised event' }, { status: 400 });
  if (event.data.event !== 'charge.success') return json({ status: true, message: 'Ignored' });

  const reference = event.data.data.reference;
  const work = checkout.fulfil(reference).then(
    ({ order, created }) => {
      locals.log.info('paystack webhook fulfilled payment', { reference, orderId: order.id, created });
      return 'done' as const;
    },
    (err: unknown) => {
      // Business refusals (unknown reference, failed verification, sold out) are final: retrying will not help.
      if (err instanceof AppError && err.code !== 'unavailable') {
        locals.log.warn('paystack webhook not fulfilled', { reference, code: err.code, message: err.message });
        return 'done' as const;
      }
      log.error('paystack webhook fulfilment failed', { reference, err });
      return 'retry' as const;
    },
  );
  const timer = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), ANSWER_WITHIN_MS).unref());
  const result = await Promise.race([work, timer]);
  if (result === 'retry') return json({ status: false, message: 'Try again later' }, { status: 500 });
  return json({ status: true, message: 'Received' });
};
