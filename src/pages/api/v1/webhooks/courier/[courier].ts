import { BODY_LIMITS } from '@/server/http-policy';
import { endpoint, json, readBodyLimited } from '@/lib/server/infra/http';

/**
 * A courier's tracking webhook: the signature is checked against the raw body by the courier's
 * adapter (a bad one is 401 through the one error path; a signed body that is not JSON is 400, and a
 * signed event of a kind the store does not use is acknowledged); events already recorded (a replay) add
 * nothing. An update for a parcel the store does not know is acknowledged, so the courier stops
 * sending it.
 */
export const POST = endpoint(async ({ locals, request, params }) => {
  const raw = new TextDecoder().decode(await readBodyLimited(request, BODY_LIMITS.webhook));
  const { known, added, ignored } = await locals.services.shipments.acceptWebhook(params.courier ?? '', request.headers, raw);
  if (!known && !ignored) locals.log.warn('courier webhook for no shipment of the store', { courier: params.courier });
  return json({ status: true, message: 'Received', data: { known, added } });
});
