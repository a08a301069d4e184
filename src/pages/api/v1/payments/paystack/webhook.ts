import { Unavailable, type AppError } from '@/lib/domain/errors';
import { fulfilmentIsFinal } from '@/lib/server/payments/fulfil';
import { errorResponse, json } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';
import { paystackSignerOf, paystackWebhookEvent } from '@/lib/server/payments/paystack';
import type { APIRoute } from 'astro';

export const POST: APIRoute = async ({ locals, request }) => {
  const { config, payments, log } = locals.services;
  if (config.PAYMENT_PROVIDER !== 'paystack' || Object.keys(config.paystackSecretKeys).length === 0) {
    return json({ status: false, message: 'Paystack is not enabled' }, { status: 404 });
  }
  const raw = await request.text();
  // One webhook URL for every market's Paystack account: the signature says which account sent it.
  const signer = paystackSignerOf(raw, request.headers.get('x-paystack-signature'), config.paystackSecretKeys);
  if (!signer) {
    locals.log.warn('paystack webhook with a bad signature');
    return json({ status: false, message: message('webhook-signature-invalid') }, { status: 401 });
  }
  let event;
  try {
    event = paystackWebhookEvent.safeParse(JSON.parse(raw));
  } catch {
    return json({ status: false, message: message('json-malformed') }, { status: 400 });
  }
  if (!event.success) return json({ status: false, message: 'Unrecognised event' }, { status: 400 });
  if (event.data.event !== 'charge.success') return json({ status: true, message: 'Ignored' });

  const reference = event.data.data.reference;
  // No answer before fulfilment has finished: Paystack retries a webhook that is not answered 2xx
  // (or not answered in time), and only a finished fulfilment or a final refusal may stop that.
  try {
    const { order, created } = await payments.fulfil(reference, { signedBy: signer });
    locals.log.info('paystack webhook fulfilled payment', { reference, orderId: order.id, created, market: signer });
    return json({ status: true, message: 'Received' });
  } catch (err) {
    // Final business outcomes (unknown reference, declined, sold out and queued for refund): retrying will not help.
    if (fulfilmentIsFinal(err)) {
      const { code, message } = err as AppError;
      locals.log.warn('paystack webhook not fulfilled', { reference, code, message });
      return json({ status: true, message: 'Received' });
    }
    log.error('paystack webhook fulfilment did not finish; Paystack will retry', { reference, err });
    return errorResponse(new Unavailable(message('payment-not-processed-yet'), 60), locals.requestId, log);
  }
};
