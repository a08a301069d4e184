import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { getAdapter } from '@astrojs/node';
import { PRECOMPRESSED_EXTENSIONS } from './http-policy';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/** Writes .br and .gz beside every text file of the client build (smaller copies only). */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  for await (const file of walk(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.includes(path.extname(file))) continue;
    const source = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
      gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < source.length) await writeFile(file + '.br', br);
    if (gz.length < source.length) await writeFile(file + '.gz', gz);
    totals.files++;
    totals.bytes += source.length;
    totals.brotliBytes += Math.min(br.length, source.length);
  }
  return totals;
}

/**
 * The store's server: @astrojs/node (in middleware mode) renders, and src/server/entry.ts is
 * the built entry point that serves static files, compresses and listens. Put after node().
 */
export function storeServer(): AstroIntegration {
  return {
    name: 'store-server',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({ ...getAdapter({ staticHeaders: false }), serverEntrypoint: fileURLToPath(new URL('./entry.ts', import.meta.url)) });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const clientDir = fileURLToPath(new URL('../client/', dir));
        const target = (await stat(clientDir).catch(() => null))?.isDirectory() ? clientDir : fileURLToPath(dir);
        const t = await precompress(target);
        logger.info(`precompressed ${t.files} files: ${Math.round(t.bytes / 1024)} KB -> ${Math.round(t.brotliBytes / 1024)} KB brotli`);
      },
    },
  };
}
