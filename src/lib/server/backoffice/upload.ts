import { AVATAR_MAX_BYTES } from '@/lib/domain/account-rules';
import { Invalid, TooLarge } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { readBodyLimited } from '@/lib/server/infra/http';

const MAX_BODY_BYTES = AVATAR_MAX_BYTES + 64 * 1024;

/** Reads a multipart form with one picture in the field "image" (bounded like the profile picture upload); returns its fields and bytes. */
export async function readImageUpload(request: Request): Promise<{ bytes: Uint8Array; fields: Record<string, string> }> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new Invalid(message('image-too-large'));
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new Invalid(message('upload-not-multipart'));
  let form: FormData;
  try {
    const body = await readBodyLimited(request, MAX_BODY_BYTES);
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch (err) {
    if (err instanceof TooLarge) throw new Invalid(message('image-too-large'));
    throw new Invalid(message('upload-not-multipart'));
  }
  const file = form.get('image');
  if (!(file instanceof File) || file.size === 0) throw new Invalid(message('not-an-image'));
  if (file.size >= AVATAR_MAX_BYTES) throw new Invalid(message('image-too-large'));
  const fields: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string') fields[k] = v;
  return { bytes: new Uint8Array(await file.arrayBuffer()), fields };
}

/**
 * Reads a catalogue import's upload: the CSV in the field "file" and an optional ZIP of pictures in
 * "images" (bounded by the route's body limit: 413 past it).
 */
export async function readImportUpload(request: Request, maxBytes: number): Promise<{ fileName: string; csv: Uint8Array; images: Uint8Array | null }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) throw new Invalid(message('upload-not-multipart'));
  const body = await readBodyLimited(request, maxBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new Invalid(message('upload-not-multipart'));
  }
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) throw new Invalid(message('import-file-required'));
  const images = form.get('images');
  return {
    fileName: file.name || 'import.csv',
    csv: new Uint8Array(await file.arrayBuffer()),
    images: images instanceof File && images.size > 0 ? new Uint8Array(await images.arrayBuffer()) : null,
  };
}
