import { collectionSchema } from '@/lib/domain/collection';
import { toMajor } from '@/lib/domain/money';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * Staff settle a pay-on-delivery order at the door: `{ outcome: 'paid', method: 'cash' |
 * 'card' | 'transfer', amount }` (major units; must equal what is due) or `{ outcome: 'refused' }`
 * (stock back, the refusal counted, a deposit refunded less the delivery fee). 409 once settled.
 */
export const POST = formEndpoint(async ({ locals, request, params }) => {
  const user = requireStaff(locals);
  const input = await readInput(request, collectionSchema);
  const r = await locals.services.collection.record(asActor(user), params.id ?? '', input);
  return {
    body: {
      status: true,
      message: r.message,
      data: {
        ...r,
        collected: r.collectedMinor === null ? null : toMajor(r.collectedMinor),
        refunded: r.refundedMinor === null ? null : toMajor(r.refundedMinor),
      },
    },
  };
});
