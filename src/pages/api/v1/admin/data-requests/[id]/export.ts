import { dataRequestActionInput } from '@/lib/domain/privacy';
import { asActor } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { exportFileName } from '@/lib/server/privacy/export';
import { dataFile } from '@/lib/server/privacy/files';
import { askForCode } from '@/lib/server/privacy/privacy';
import { requireStaffProof } from '@/lib/server/privacy/staff-proof';

/** Staff export a shopper's data for a request (step-up code; audited): the same file the shopper downloads. */
export const POST = formEndpoint(async (ctx) => {
  const { code } = await readInput(ctx.request, dataRequestActionInput);
  const id = ctx.params.id ?? '';
  try {
    const user = await requireStaffProof(ctx, code);
    const data = await ctx.locals.services.dataRequests.exportFor(asActor(user), id);
    return dataFile(data, exportFileName(new Date()));
  } catch (err) {
    return askForCode(err, `/admin/data-requests/${id}`);
  }
});
