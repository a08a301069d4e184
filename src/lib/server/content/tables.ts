import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '@/lib/server/accounts/tables';
import { media } from '@/lib/server/infra/tables';
import { createdAt } from '@/lib/server/infra/db/columns';

/** The content feature's tables: only its modules write them (eslint/table-owners.js, lint rule house/table-writes). */

/**
 * Every version of a page ever saved or published: who, when, the whole text. Never changed once
 * written; a page's state (content_pages) points at its revisions.
 */
export const contentRevisions = pgTable(
  'content_revisions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    slug: text('slug').notNull(),
    /** seed: the markdown file's version; draft: a saved draft; publish: a published version. */
    kind: text('kind', { enum: ['seed', 'draft', 'publish'] }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** The page's "Last updated" day (YYYY-MM-DD). */
    updated: text('updated').notNull(),
    contact: jsonb('contact').$type<{ phone: string; email: string; hours?: string } | null>(),
    body: text('body').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The author's name as shown in the history (kept when the account goes). */
    authorName: text('author_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('content_revisions_slug_idx').on(t.slug, t.id)],
);

/** Pictures uploaded into the pages (the media table holds the bytes): kept while any version may show them. */
export const contentPictures = pgTable('content_pictures', {
  hash: text('hash')
    .primaryKey()
    .references(() => media.hash),
  slug: text('slug').notNull(),
  alt: text('alt').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  uploadedBy: text('uploaded_by').notNull(),
  createdAt: createdAt(),
});

/** One row per page: its published version, its draft (if any), and a version waiting for its publish time. */
export const contentPages = pgTable('content_pages', {
  slug: text('slug').primaryKey(),
  publishedRevisionId: integer('published_revision_id')
    .notNull()
    .references(() => contentRevisions.id),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  publishedBy: text('published_by').notNull(),
  draftRevisionId: integer('draft_revision_id').references(() => contentRevisions.id),
  scheduledRevisionId: integer('scheduled_revision_id').references(() => contentRevisions.id),
  scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
  /** The newest revision of the page (draft or publish): a save written on an older one is refused. */
  headRevisionId: integer('head_revision_id')
    .notNull()
    .references(() => contentRevisions.id),
});
