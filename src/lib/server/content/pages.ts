import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { fill, message } from '@/lib/domain/messages';
import { missingFixedSentence, PAGE_SLUGS, pageFieldsFor, type PageFields, type PageSlug } from '@/lib/domain/content-pages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import type { PageCacheInvalidator } from '@/lib/server/storefront/page-cache';
import type { AuditLog } from '@/lib/server/backoffice/audit';
import { processPagePicture } from '@/lib/server/accounts/avatars';
import type { MediaService } from '@/lib/server/infra/media';
import { imageUrl } from '@/lib/domain/images';
import { STORE_NAME } from '@/lib/domain/brand';
import { contentPages, contentPictures, contentRevisions } from './tables';
import { checkMarkdown, pictureHashes, renderMarkdown, type PictureSize } from './render';

/** The route cache's tag of a content page (set by ContentPage.astro), dropped on every server when it is published. */
export const pageTag = (slug: PageSlug) => `page:${slug}`;

/** Who the back office says wrote a page's first version, seeded from its markdown file. */
const SEED_AUTHOR = `${STORE_NAME} (first version)`;
export const SITEMAP_TAG = 'sitemap';

/** Who edits: the signed-in editor, staff or owner, by the name the history shows. */
export interface Editor {
  id: string | null;
  email: string;
  name: string;
}

export type Revision = typeof contentRevisions.$inferSelect;
export type RevisionSummary = Pick<Revision, 'id' | 'kind' | 'authorName' | 'createdAt' | 'title'>;

export type PublishedPage = PageFields & { slug: PageSlug; html: string; revisionId: number; publishedAt: Date };

export interface PageState {
  slug: PageSlug;
  published: Revision;
  publishedAt: Date;
  publishedBy: string;
  draft: Revision | null;
  scheduled: (Revision & { at: Date }) | null;
  headRevisionId: number;
  revisions: RevisionSummary[];
}

const fieldsOf = (r: Revision): PageFields => ({ title: r.title, description: r.description, updated: r.updated, contact: r.contact ?? undefined, body: r.body });

/** "07:41 on 2 December 2026" in the store's time zone, for the history and the refusal of a stale save. */
export function revisionTime(at: Date, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(at);
  return `${time} on ${day}`;
}

/** The checked fields of a page, or Invalid with the first field's message (markdown included). */
export function checkedFields(slug: PageSlug, input: unknown): PageFields {
  const parsed = pageFieldsFor(slug).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Invalid(issue.message, { field: issue.path.join('.') || 'body' });
  }
  checkMarkdown(parsed.data.body);
  return parsed.data;
}

/**
 * About, Privacy and Contact, edited in the back office: the one module that writes content_pages
 * and content_revisions. The markdown files (`seeds`) are each page's first version, written on
 * first use; every save and publish after that is a revision of its own, never changed.
 */
export function createContentPages(deps: {
  db: Db;
  clock: () => Date;
  pageCache: PageCacheInvalidator;
  audit: AuditLog;
  /** The markdown files' versions of the pages (src/content/pages). */
  seeds: () => Promise<Record<PageSlug, PageFields>>;
  /** The time zone the history's times are shown in. */
  timeZone: string;
  media: MediaService;
}) {
  const { db, clock } = deps;

  /** The body as HTML, its uploaded pictures with their sizes. */
  async function rendered(body: string): Promise<string> {
    const hashes = pictureHashes(body);
    const sizes = new Map<string, PictureSize>();
    if (hashes.length) {
      const rows = await db.select({ hash: contentPictures.hash, width: contentPictures.width, height: contentPictures.height }).from(contentPictures).where(inArray(contentPictures.hash, hashes));
      for (const r of rows) sizes.set(r.hash, { width: r.width, height: r.height });
    }
    return renderMarkdown(body, sizes);
  }
  let seeded: Promise<void> | undefined;

  async function seedMissing(): Promise<void> {
    const have = await db.select({ slug: contentPages.slug }).from(contentPages);
    if (have.length === PAGE_SLUGS.length) return;
    const files = await deps.seeds();
    await db.transaction(async (tx) => {
      // One server seeds; the others wait and find the pages there.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('content_pages_seed'))`);
      const present = new Set((await tx.select({ slug: contentPages.slug }).from(contentPages)).map((r) => r.slug));
      for (const slug of PAGE_SLUGS) {
        if (present.has(slug)) continue;
        const f = files[slug];
        const [rev] = await tx
          .insert(contentRevisions)
          .values({ slug, kind: 'seed', title: f.title, description: f.description, updated: f.updated, contact: f.contact ?? null, body: f.body, authorName: SEED_AUTHOR, createdAt: clock() })
          .returning();
        await tx.insert(contentPages).values({ slug, publishedRevisionId: rev!.id, publishedAt: clock(), publishedBy: rev!.authorName, headRevisionId: rev!.id });
      }
    });
  }
  const ready = () => {
    seeded ??= seedMissing().catch((err: unknown) => {
      seeded = undefined;
      throw err;
    });
    return seeded;
  };

  async function revisionById(tx: Db | Tx, id: number): Promise<Revision> {
    const [r] = await tx.select().from(contentRevisions).where(eq(contentRevisions.id, id)).limit(1);
    if (!r) throw new NotFound(message('page-revision-not-found'));
    return r;
  }

  async function pageRow(tx: Db | Tx, slug: PageSlug, lock = false) {
    const q = tx.select().from(contentPages).where(eq(contentPages.slug, slug)).limit(1);
    const [row] = lock ? await q.for('update') : await q;
    if (!row) throw new NotFound(message('page-not-found'));
    return row;
  }

  async function addRevision(tx: Tx, slug: PageSlug, kind: 'draft' | 'publish', fields: PageFields, editor: Editor): Promise<Revision> {
    const [rev] = await tx
      .insert(contentRevisions)
      .values({ slug, kind, title: fields.title, description: fields.description, updated: fields.updated, contact: fields.contact ?? null, body: fields.body, authorId: editor.id, authorName: editor.name, createdAt: clock() })
      .returning();
    return rev!;
  }

  /** Publishes `fields` now, in `tx`, with its audit entry; the caller drops the cached copies after commit. */
  async function publishIn(tx: Tx, slug: PageSlug, fields: PageFields, editor: Editor, from: number): Promise<Revision> {
    const missing = missingFixedSentence(slug, fields.body);
    if (missing) throw new Invalid(fill('page-fixed-sentence', missing), { field: 'body' });
    const rev = await addRevision(tx, slug, 'publish', fields, editor);
    await tx
      .update(contentPages)
      .set({ publishedRevisionId: rev.id, publishedAt: clock(), publishedBy: editor.name, draftRevisionId: null, scheduledRevisionId: null, scheduledAt: null, headRevisionId: rev.id })
      .where(eq(contentPages.slug, slug));
    await deps.audit.record(editor, { action: 'page.publish', entity: 'content_page', entityId: slug, details: { revision: rev.id, from } }, tx);
    return rev;
  }

  const dropCached = (slug: PageSlug) => deps.pageCache.invalidate([pageTag(slug), SITEMAP_TAG]);

  /** Publishes the versions whose time has come (the scheduler's job, and any read that finds one due). */
  async function publishDue(): Promise<PageSlug[]> {
    await ready();
    const due = await db
      .select({ slug: contentPages.slug })
      .from(contentPages)
      .where(and(isNotNull(contentPages.scheduledRevisionId), lte(contentPages.scheduledAt, clock())));
    const done: PageSlug[] = [];
    for (const { slug } of due) {
      const published = await db.transaction(async (tx) => {
        const row = await pageRow(tx, slug as PageSlug, true);
        if (row.scheduledRevisionId === null || !row.scheduledAt || row.scheduledAt > clock()) return false;
        const rev = await revisionById(tx, row.scheduledRevisionId);
        await publishIn(tx, slug as PageSlug, fieldsOf(rev), { id: rev.authorId, email: rev.authorName, name: rev.authorName }, rev.id);
        return true;
      });
      if (published) {
        await dropCached(slug as PageSlug);
        done.push(slug as PageSlug);
      }
    }
    return done;
  }

  return {
    publishDue,

    /** The live page, rendered (a version whose publish time has come is published first). */
    async published(slug: PageSlug): Promise<PublishedPage> {
      await ready();
      let row = await pageRow(db, slug);
      if (row.scheduledAt && row.scheduledAt <= clock()) {
        await publishDue();
        row = await pageRow(db, slug);
      }
      const rev = await revisionById(db, row.publishedRevisionId);
      return { slug, ...fieldsOf(rev), html: await rendered(rev.body), revisionId: rev.id, publishedAt: row.publishedAt };
    },

    /** Each page's published "Last updated" day, for the sitemap. */
    async lastUpdated(): Promise<Record<PageSlug, string>> {
      await ready();
      const rows = await db
        .select({ slug: contentPages.slug, updated: contentRevisions.updated })
        .from(contentPages)
        .innerJoin(contentRevisions, eq(contentRevisions.id, contentPages.publishedRevisionId));
      return Object.fromEntries(rows.map((r) => [r.slug, r.updated])) as Record<PageSlug, string>;
    },

    /** A page as its editor sees it: published, draft, scheduled, and every revision, newest first. */
    async state(slug: PageSlug): Promise<PageState> {
      await ready();
      const row = await pageRow(db, slug);
      const revisions = await db
        .select({ id: contentRevisions.id, kind: contentRevisions.kind, authorName: contentRevisions.authorName, createdAt: contentRevisions.createdAt, title: contentRevisions.title })
        .from(contentRevisions)
        .where(eq(contentRevisions.slug, slug))
        .orderBy(desc(contentRevisions.id));
      const scheduled = row.scheduledRevisionId !== null && row.scheduledAt ? { ...(await revisionById(db, row.scheduledRevisionId)), at: row.scheduledAt } : null;
      return {
        slug,
        published: await revisionById(db, row.publishedRevisionId),
        publishedAt: row.publishedAt,
        publishedBy: row.publishedBy,
        draft: row.draftRevisionId !== null ? await revisionById(db, row.draftRevisionId) : null,
        scheduled,
        headRevisionId: row.headRevisionId,
        revisions,
      };
    },

    /** One revision of a page (404 for a revision of another page). */
    async revision(slug: PageSlug, id: number): Promise<Revision> {
      await ready();
      const rev = await revisionById(db, id);
      if (rev.slug !== slug) throw new NotFound(message('page-revision-not-found'));
      return rev;
    },

    /**
     * Saves a draft written on revision `base`. When someone saved or published since, the save is
     * refused naming them, so nobody's text is lost without a word.
     */
    async saveDraft(editor: Editor, slug: PageSlug, input: unknown, base: number | null): Promise<Revision> {
      await ready();
      const fields = checkedFields(slug, input);
      return db.transaction(async (tx) => {
        const row = await pageRow(tx, slug, true);
        if (base !== row.headRevisionId) {
          const head = await revisionById(tx, row.headRevisionId);
          throw new Conflict(fill('page-conflict', head.authorName, revisionTime(head.createdAt, deps.timeZone)), { headRevision: head.id });
        }
        const rev = await addRevision(tx, slug, 'draft', fields, editor);
        await tx.update(contentPages).set({ draftRevisionId: rev.id, headRevisionId: rev.id }).where(eq(contentPages.slug, slug));
        return rev;
      });
    },

    /** Publishes the page's draft now, or at `at` (a time to come). */
    async publish(editor: Editor, slug: PageSlug, at?: Date): Promise<{ revision: Revision; at: Date | null }> {
      await ready();
      if (at && at <= clock()) throw new Invalid(message('page-schedule-past'));
      const result = await db.transaction(async (tx) => {
        const row = await pageRow(tx, slug, true);
        if (row.draftRevisionId === null) throw new Invalid(message('page-nothing-to-publish'));
        const draft = await revisionById(tx, row.draftRevisionId);
        const fields = fieldsOf(draft);
        if (!at) return { revision: await publishIn(tx, slug, fields, editor, draft.id), at: null };
        const missing = missingFixedSentence(slug, fields.body);
        if (missing) throw new Invalid(fill('page-fixed-sentence', missing), { field: 'body' });
        await tx.update(contentPages).set({ scheduledRevisionId: draft.id, scheduledAt: at, draftRevisionId: null }).where(eq(contentPages.slug, slug));
        await deps.audit.record(editor, { action: 'page.schedule', entity: 'content_page', entityId: slug, details: { revision: draft.id, at: at.toISOString() } }, tx);
        return { revision: draft, at };
      });
      if (!result.at) await dropCached(slug);
      return result;
    },

    /** A revision's text back as the page's newest draft. */
    async restore(editor: Editor, slug: PageSlug, id: number): Promise<Revision> {
      await ready();
      return db.transaction(async (tx) => {
        const rev = await revisionById(tx, id);
        if (rev.slug !== slug) throw new NotFound(message('page-revision-not-found'));
        await pageRow(tx, slug, true);
        const draft = await addRevision(tx, slug, 'draft', fieldsOf(rev), editor);
        await tx.update(contentPages).set({ draftRevisionId: draft.id, headRevisionId: draft.id }).where(eq(contentPages.slug, slug));
        return draft;
      });
    },

    /** The page as it would look with these fields (checked as a save checks them). */
    async preview(slug: PageSlug, input: unknown): Promise<PageFields & { html: string }> {
      const fields = checkedFields(slug, input);
      return { ...fields, html: await rendered(fields.body) };
    },

    /**
     * A picture for a page (JPEG, PNG or WebP under 5 MB), re-encoded by sharp and kept in the
     * media table; answers the markdown that shows it, with its alt text.
     */
    async addPicture(editor: Editor, slug: PageSlug, bytes: Uint8Array, altText: string): Promise<{ hash: string; width: number; height: number; markdown: string }> {
      const alt = altText.replace(/[[\]\s]+/g, ' ').trim();
      if (!alt || alt.length > 200) throw new Invalid(message('page-picture-alt'), { field: 'pictureAlt' });
      const picture = await processPagePicture(bytes);
      const hash = await deps.media.store(picture.bytes, picture.contentType, { width: picture.width, height: picture.height });
      await db.insert(contentPictures).values({ hash, slug, alt, width: picture.width, height: picture.height, uploadedBy: editor.name, createdAt: clock() }).onConflictDoNothing();
      return { hash, width: picture.width, height: picture.height, markdown: `![${alt}](${imageUrl(hash, 960)})` };
    },

    /** Every published version, oldest page first, for writing back to the markdown files. */
    async publishedVersions(): Promise<{ slug: PageSlug; fields: PageFields }[]> {
      await ready();
      const rows = await db
        .select({ slug: contentPages.slug, rev: contentRevisions })
        .from(contentPages)
        .innerJoin(contentRevisions, eq(contentRevisions.id, contentPages.publishedRevisionId))
        .orderBy(asc(contentPages.slug));
      return rows.map((r) => ({ slug: r.slug as PageSlug, fields: fieldsOf(r.rev) }));
    },
  };
}
export type ContentPages = ReturnType<typeof createContentPages>;
