import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import { toHtml } from 'hast-util-to-html';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import { htmlToHast, markdownToMdast } from 'satteri';
import { Invalid } from '@/lib/domain/errors';
import { hashFromImageUrl, IMAGE_WIDTHS, imageUrl, srcset } from '@/lib/domain/images';
import { message } from '@/lib/domain/messages';

/**
 * A page's markdown as HTML: the processor Astro renders the content collection's files with,
 * in the store's markdown settings (astro.config.mjs: no syntax highlighting), then sanitized.
 * The files' first versions come out byte for byte as Astro rendered them.
 */
let processor: ReturnType<typeof createSatteriMarkdownProcessor> | undefined;

/**
 * rehype-sanitize's GitHub schema, with heading ids kept as the processor writes them (the pages'
 * anchors, `#what-we-collect`) rather than prefixed: ids come only from heading text.
 */
const SCHEMA = { ...defaultSchema, clobber: [] as string[], clobberPrefix: '' };

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** Whether a link's address is a web page, an e-mail, a phone number or a path of the store. */
function safeUrl(url: string): boolean {
  // Browsers drop tabs and newlines in a URL and ignore leading spaces: "java\nscript:" is javascript:.
  const squeezed = url.replace(/[\u0000-\u0020]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(`${scheme.toLowerCase()}:`);
}

interface MdNode {
  type: string;
  url?: string;
  children?: MdNode[];
}

/**
 * Refuses what markdown should not carry: raw HTML (a tag, a comment) and links or pictures to
 * anything but web pages, e-mail and phone numbers. The renderer strips them anyway; refusing says
 * so to the editor instead of dropping their text quietly.
 */
export function checkMarkdown(body: string): void {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') throw new Invalid(message('page-raw-html'), { field: 'body' });
    if (typeof node.url === 'string' && !safeUrl(node.url)) throw new Invalid(message('page-link-refused'), { field: 'body' });
    node.children?.forEach(walk);
  };
  walk(markdownToMdast(body) as unknown as MdNode);
}

/** A picture uploaded into the pages: its size, so the page reserves its place before it loads. */
export interface PictureSize {
  width: number;
  height: number;
}

/** The page's column is 720 px wide at most, less its padding on a phone. */
const PICTURE_SIZES = '(min-width: 752px) 720px, calc(100vw - 32px)';

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * The store's own pictures (/media/<hash>/…) as the catalogue serves them: AVIF and WebP at every
 * width, with their width and height. Any other <img> is left as the markdown wrote it.
 */
function withPictures(node: HastNode, pictures: ReadonlyMap<string, PictureSize>): HastNode {
  if (!node.children) return node;
  node.children = node.children.map((child) => {
    const src = child.type === 'element' && child.tagName === 'img' && typeof child.properties?.src === 'string' ? child.properties.src : null;
    const hash = src ? hashFromImageUrl(src) : null;
    const size = hash ? pictures.get(hash) : undefined;
    if (!hash || !size) return withPictures(child, pictures);
    const widths = IMAGE_WIDTHS.filter((w) => w <= size.width);
    const offered = widths.length ? widths : IMAGE_WIDTHS.slice(0, 1);
    const source = (format: 'avif' | 'webp') => ({ type: 'element', tagName: 'source', properties: { type: `image/${format}`, srcSet: srcset(hash, format, offered), sizes: PICTURE_SIZES }, children: [] });
    const img = { ...child, properties: { ...child.properties, src: imageUrl(hash, offered.at(-1)!), width: size.width, height: size.height, loading: 'lazy', decoding: 'async' } };
    return { type: 'element', tagName: 'picture', properties: {}, children: [source('avif'), source('webp'), img] };
  });
  return node;
}

/**
 * The page body's HTML, sanitized (no scripts, no event handlers, no frames, links only to safe
 * schemes), the store's uploaded pictures then given their sizes and formats.
 */
export async function renderMarkdown(body: string, pictures: ReadonlyMap<string, PictureSize> = new Map()): Promise<string> {
  processor ??= createSatteriMarkdownProcessor({ syntaxHighlight: false });
  const { code } = await (await processor).render(body);
  const tree = htmlToHast(code, { fragment: true });
  const clean = rehypeSanitize(SCHEMA)(tree as never) as unknown as HastNode;
  return toHtml((pictures.size ? withPictures(clean, pictures) : clean) as never);
}

/** The hashes of the store's pictures a body shows. */
export function pictureHashes(body: string): string[] {
  return [...new Set([...body.matchAll(/\/media\/([a-f0-9]{16,64})\//g)].map((m) => m[1]!))];
}
