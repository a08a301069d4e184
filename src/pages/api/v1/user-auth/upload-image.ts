import { AVATAR_MAX_BYTES } from '@/lib/domain/account-rules';
import { Invalid, TooLarge } from '@/lib/domain/errors';
import { requireUser } from '@/lib/server/accounts/auth';
import { formEndpoint } from '@/lib/server/infra/form-posts';
import { readBodyLimited } from '@/lib/server/infra/http';
import { failureText, message } from '@/lib/domain/messages';

/** Room for the multipart envelope around a picture just under the limit. */
const MAX_BODY_BYTES = AVATAR_MAX_BYTES + 64 * 1024;

/** Reads the body but stops at the limit, so a chunked upload without Content-Length cannot fill memory. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await readBodyLimited(request, limit);
  } catch (err) {
    if (err instanceof TooLarge) throw new Invalid(message('image-too-large'));
    throw err;
  }
}

/** JSON for the profile island and API clients; the profile page's plain form post goes back to /profile. */
export const PUT = formEndpoint(
  async ({ locals, request }) => {
  const user = requireUser(locals);
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new Invalid(message('image-too-large'));
  if (!request.headers.get('content-type')?.startsWith('multipart/form-data')) {
    throw new Invalid(message('upload-not-multipart'));
  }
  let form: FormData;
  try {
    form = await new Response(await readLimited(request, MAX_BODY_BYTES), {
      headers: { 'content-type': request.headers.get('content-type')! },
    }).formData();
  } catch (err) {
    if (err instanceof Invalid) throw err;
    throw new Invalid(message('upload-not-multipart'));
  }
  const file = form.get('image');
  if (!(file instanceof File)) throw new Invalid(message('not-an-image'));
  if (file.size >= AVATAR_MAX_BYTES) throw new Invalid(message('image-too-large'));
  const data = await locals.services.accounts.uploadImage(user, new Uint8Array(await file.arrayBuffer()));
  return { body: { status: true, statusCode: 200, message: message('picture-updated'), data }, next: '/profile' };
  },
  { failure: (reason) => failureText('upload-failed', reason) },
);
/** HTML forms can only POST: the profile picture form without scripts. */
export const POST = PUT;
