import { message } from '@/lib/domain/messages';
import { asActor, requireStaff } from '@/lib/server/accounts/auth';
import { readImportUpload } from '@/lib/server/backoffice/upload';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { endpoint, json } from '@/lib/server/infra/http';
import { BODY_LIMITS } from '@/server/http-policy';

/** The latest imports, newest first. */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.catalogueImports.recent() });
});

/** Uploads a CSV (multipart `file`, optional `images` ZIP) to be checked; answers its id (202): the check runs in the worker. */
export const POST = formEndpoint(async ({ locals, request }) => {
  const user = requireStaff(locals);
  const upload = await readImportUpload(request, BODY_LIMITS.catalogueImport);
  const data = await locals.services.catalogueImports.upload(asActor(user), upload);
  return { body: { status: true, message: message('import-checking'), data }, status: 202, next: `/admin/imports/${data.id}` };
});
