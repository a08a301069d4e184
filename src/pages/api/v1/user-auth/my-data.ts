import { downloadInput } from '@/lib/domain/privacy';
import { clientIp, requireSession } from '@/lib/server/accounts/auth';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';
import { exportFileName } from '@/lib/server/privacy/export';
import { askForCode } from '@/lib/server/privacy/privacy';
import { dataFile } from '@/lib/server/privacy/files';

/**
 * "Download my data" (/settings): one JSON file of everything the store holds about the shopper,
 * as an attachment, to a plain form post and to API clients alike (`{ code }` when asked). A session
 * that signed in more than a day ago first proves the e-mail: the code is mailed and a form goes
 * back to /settings?confirm=download, where it is entered; JSON answers 403 with `data.confirmCode`.
 */
export const POST = formEndpoint(async (ctx) => {
  const session = requireSession(ctx.locals);
  const { code } = await readInput(ctx.request, downloadInput);
  try {
    const data = await ctx.locals.services.privacy.download(session, code, clientIp(ctx));
    return dataFile(data, exportFileName(new Date()));
  } catch (err) {
    return askForCode(err, '/settings', { confirm: 'download' });
  }
});
