import { fill } from '@/lib/domain/messages';
import type { ImportProblem, PlannedProduct } from '@/lib/domain/catalogue-import';
import { processCatalogueImage } from '@/lib/server/accounts/avatars';
import type { MediaService } from '@/lib/server/infra/media';
import { FetchRefused, safeFetch } from '@/lib/server/infra/safe-fetch';
import { openZip, ZipEntryTooLarge, type ZipFiles } from '@/lib/server/infra/zip';

/**
 * An import's pictures: each image cell names a file in the ZIP uploaded with the CSV, an https://
 * address (fetched under the SSRF guard), or one of the store's own pictures (`/media/{hash}`, as
 * the export writes them). Every picture goes through the uploads' sharp pipeline and is stored
 * by its content; a picture that fails is a problem of its row.
 */

export const PICTURE_MAX_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;
/** Pictures fetched or decoded at once. */
const AT_ONCE = 4;

export interface PictureDeps {
  media: MediaService;
  /** The store's public origin: its own `/media/` addresses are read, not fetched. */
  site: string;
  /** Where https:// pictures come from (the guarded fetch; tests hand in their own). */
  fetchPicture?: typeof safeFetch;
}

const OWN_MEDIA = /^\/media\/([0-9a-f]{32})(?:[/?#]|$)/;

/** The store's own picture an address names, or null. */
function ownHash(src: string, site: string): string | null {
  if (src.startsWith('/')) return OWN_MEDIA.exec(src)?.[1] ?? null;
  try {
    const url = new URL(src);
    return url.host === new URL(site).host ? (OWN_MEDIA.exec(url.pathname)?.[1] ?? null) : null;
  } catch {
    return null;
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/**
 * Fetches and stores each distinct picture the products name (those in `known` are taken as they
 * are); answers the hash of each cell's picture and the problems of the rows whose picture failed.
 */
export async function resolvePictures(
  deps: PictureDeps,
  planned: readonly PlannedProduct[],
  zipBytes: Uint8Array | null,
  known: Readonly<Record<string, string>>,
  onProgress: (done: number, total: number) => Promise<void>,
): Promise<{ hashes: Record<string, string>; problems: ImportProblem[] }> {
  const rowsBySrc = new Map<string, number[]>();
  for (const p of planned) for (const im of p.images) rowsBySrc.set(im.src, [...(rowsBySrc.get(im.src) ?? []), im.row]);
  const hashes: Record<string, string> = {};
  const failures = new Map<string, string>();
  const todo: string[] = [];
  for (const src of rowsBySrc.keys()) {
    if (known[src]) hashes[src] = known[src];
    else todo.push(src);
  }
  let zip: ZipFiles | null = null;
  const zipOpened = zipBytes && todo.some((s) => !/^[a-z]+:/i.test(s) && !s.startsWith('/')) ? openZip(zipBytes) : null;
  try {
    zip = zipOpened ? await zipOpened : null;
    let done = 0;
    await eachAtMost(todo, AT_ONCE, async (src) => {
      try {
        const hash = await pictureHash(deps, src, zip);
        if (hash) hashes[src] = hash;
      } catch (err) {
        failures.set(src, problemText(err, src));
      }
      done++;
      if (done % 20 === 0 || done === todo.length) await onProgress(done, todo.length);
    });
  } finally {
    zip?.close();
  }
  const problems: ImportProblem[] = [];
  for (const [src, rows] of rowsBySrc) {
    const text = failures.get(src) ?? (hashes[src] ? null : fill('import-image-unreachable', src));
    if (text) for (const row of rows) problems.push({ row, column: 'Image Src', message: text });
  }
  return { hashes, problems };
}

/** The apply's pictures: those the check fetched and stored; any other is a problem (nothing is fetched inside the apply's transaction). */
export function picturesKnown(planned: readonly PlannedProduct[], known: Readonly<Record<string, string>>): { hashes: Record<string, string>; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  for (const p of planned) for (const im of p.images) if (!known[im.src]) problems.push({ row: im.row, column: 'Image Src', message: fill('import-image-unreachable', im.src) });
  return { hashes: { ...known }, problems };
}

class NotInZip extends Error {}
class NotAPicture extends Error {}

async function pictureHash(deps: PictureDeps, src: string, zip: ZipFiles | null): Promise<string | null> {
  const own = ownHash(src, deps.site);
  if (own) {
    await deps.media.original(own);
    return own;
  }
  let bytes: Uint8Array;
  if (/^[a-z][a-z0-9+.-]*:/i.test(src)) {
    bytes = (await (deps.fetchPicture ?? safeFetch)(src, { maxBytes: PICTURE_MAX_BYTES, timeoutMs: FETCH_TIMEOUT_MS, typePrefix: 'image/' })).bytes;
  } else {
    const found = zip ? await zip.read(src, PICTURE_MAX_BYTES) : null;
    if (!found) throw new NotInZip(src);
    bytes = found;
  }
  const image = await processCatalogueImage(bytes, 'product', PICTURE_MAX_BYTES).catch(() => {
    throw new NotAPicture(src);
  });
  return deps.media.store(image.bytes, image.contentType, { width: image.width, height: image.height });
}

function problemText(err: unknown, src: string): string {
  if (err instanceof NotInZip) return fill('import-image-not-in-zip', src);
  if (err instanceof NotAPicture) return fill('import-image-not-picture', src);
  if (err instanceof ZipEntryTooLarge) return fill('import-image-too-large', src);
  if (err instanceof FetchRefused) {
    if (err.reason === 'refused') return fill('import-image-refused', src);
    if (err.reason === 'too-large') return fill('import-image-too-large', src);
    if (err.reason === 'not-an-image') return fill('import-image-not-picture', src);
  }
  return fill('import-image-unreachable', src);
}
