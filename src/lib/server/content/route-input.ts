import { z } from 'zod';
import { AVATAR_MAX_BYTES } from '@/lib/domain/account-rules';
import { Invalid, NotFound } from '@/lib/domain/errors';
import { CSRF_FIELD } from '@/lib/domain/forms';
import { isFormPost } from '@/lib/server/infra/form-posts';
import { message } from '@/lib/domain/messages';
import { isPageSlug, type PageSlug } from '@/lib/domain/content-pages';
import { idParam } from '@/lib/domain/validation';
import type { SessionUser } from '@/lib/server/accounts/auth';
import { parseWith } from '@/lib/server/infra/http';
import { BODY_LIMITS } from '@/server/http-policy';
import type { Editor } from './pages';

/** What the editor's routes read from a request: the page, the revision, the editor, the body limit. */
export const PAGE_BODY_LIMIT = BODY_LIMITS.page;

export function pageSlug(value: string | undefined): PageSlug {
  if (!isPageSlug(value)) throw new NotFound(message('page-not-found'));
  return value;
}

const revisionId = idParam(message('page-revision-not-found'));
export const revisionParam = (value: string | undefined): number => parseWith(revisionId, value);

/**
 * The editor's form as posted (multipart: it may carry a picture): its text fields, the CSRF field
 * dropped (the middleware checked it), and the picture's bytes when one was chosen.
 */
export async function readEditorPost(request: Request): Promise<{ values: Record<string, string>; picture: Uint8Array | null }> {
  if (!isFormPost(request)) throw new Invalid(message('form-unreadable'));
  const form = await request.formData().catch(() => {
    throw new Invalid(message('form-unreadable'));
  });
  const values: Record<string, string> = {};
  let picture: Uint8Array | null = null;
  for (const [key, value] of form) {
    if (typeof value === 'string') {
      if (key !== CSRF_FIELD) values[key] = value;
    } else if (value.size > 0) {
      if (value.size >= AVATAR_MAX_BYTES) throw new Invalid(message('image-too-large'), { field: 'picture' });
      picture = new Uint8Array(await value.arrayBuffer());
    }
  }
  return { values, picture };
}

export const editorOf = (user: SessionUser): Editor => ({ id: user.id, email: user.email, name: `${user.firstName} ${user.lastName}`.trim() || user.email });

/** `{ at }` of a publish: an ISO instant (the API), or a wall-clock time with its market's zone (the form). */
export const publishSchema = z.object({ at: z.iso.datetime({ offset: true, error: message('page-schedule-invalid') }).optional() });
