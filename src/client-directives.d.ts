import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when the shopper reaches for the island; the value names the part whose coming into view does it (src/lib/client/hydrate-on-reach.ts). */
    'client:reach'?: string;
  }
}
