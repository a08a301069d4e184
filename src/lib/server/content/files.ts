import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { PAGE_SLUGS, pageFieldsFor, type PageFields, type PageSlug } from '@/lib/domain/content-pages';

/**
 * The pages' markdown files (src/content/pages/<slug>.md): YAML frontmatter, then the body. They are
 * each page's first version in the database, and `npm run content -- export` writes the published
 * versions back, so the files in git follow the store.
 */
export const PAGES_DIR = path.resolve(process.cwd(), 'src/content/pages');

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parsePageFile(slug: PageSlug, text: string): PageFields {
  const m = FRONTMATTER.exec(text);
  const data = (m ? parse(m[1]!) : {}) as Record<string, unknown>;
  // YAML reads `updated: 2026-11-01` as a string here (yaml 1.2 core schema): a day, as the form has it.
  const updated = data.updated instanceof Date ? data.updated.toISOString().slice(0, 10) : String(data.updated ?? '');
  const body = m ? text.slice(m[0].length) : text;
  return pageFieldsFor(slug).parse({ ...data, updated, body: body.replace(/^\r?\n/, '') });
}

export function pageFileText(fields: PageFields): string {
  const front: Record<string, unknown> = { title: fields.title, description: fields.description, updated: fields.updated };
  if (fields.contact) front.contact = fields.contact;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n\n${fields.body.replace(/^\n+/, '')}`;
}

export async function readPageFiles(dir = PAGES_DIR): Promise<Record<PageSlug, PageFields>> {
  const entries = await Promise.all(PAGE_SLUGS.map(async (slug) => [slug, parsePageFile(slug, await readFile(path.join(dir, `${slug}.md`), 'utf8'))] as const));
  return Object.fromEntries(entries) as Record<PageSlug, PageFields>;
}

export async function writePageFiles(pages: readonly { slug: PageSlug; fields: PageFields }[], dir = PAGES_DIR): Promise<string[]> {
  const written: string[] = [];
  for (const { slug, fields } of pages) {
    const file = path.join(dir, `${slug}.md`);
    await writeFile(file, pageFileText(fields));
    written.push(file);
  }
  return written;
}
