import { message } from '@/lib/domain/messages';
import { dataRequestActionInput } from '@/lib/domain/privacy';
import { asActor } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { askForCode } from '@/lib/server/privacy/privacy';
import { requireStaffProof } from '@/lib/server/privacy/staff-proof';

/** Staff delete a shopper's account for an erasure request (step-up code; audited; refused as the shopper would be) and close it. */
export const POST = formEndpoint(async (ctx) => {
  const { code, giveUpCredit } = await readInput(ctx.request, dataRequestActionInput);
  const id = ctx.params.id ?? '';
  try {
    const user = await requireStaffProof(ctx, code);
    await ctx.locals.services.dataRequests.eraseFor(asActor(user), id, giveUpCredit);
  } catch (err) {
    return askForCode(err, `/admin/data-requests/${id}`, { erase: '1' });
  }
  return { body: { status: true, message: message('data-request-erased') }, next: `/admin/data-requests/${id}` };
});
