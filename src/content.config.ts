import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * About, Privacy and Contact: one markdown file each in src/content/pages.
 * The build fails with a clear message when a file's frontmatter breaks this schema.
 */
const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: z.object({
    title: z.string().min(1, 'title is required'),
    description: z.string().min(20, 'description should be a sentence (20+ characters)').max(170, 'description should stay under 170 characters'),
    updated: z.coerce.date(),
    /** Contact page only: customer care's phone and e-mail (the boutiques come from BOUTIQUES in src/lib/domain/shipping.ts). */
    contact: z
      .object({
        phone: z.string().min(5),
        email: z.email(),
        hours: z.string().optional(),
      })
      .optional(),
  }),
});

export const collections = { pages };
