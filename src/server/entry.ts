/**
 * dist/server/entry.mjs: `node dist/server/entry.mjs` starts the store. The built server always
 * runs in production mode: React and other libraries choose their production builds from
 * NODE_ENV when first loaded, so it is set before anything else is imported. Nothing in the
 * store itself reads NODE_ENV.
 */
import module from 'node:module';

process.env.NODE_ENV = 'production';
// Node keeps the compiled code of the store's modules on disk (in the system's temporary
// directory) for the next start: a restart or another app server skips compiling them.
module.enableCompileCache?.();

const { startServer } = await import('./server');
if (process.env.ASTRO_NODE_AUTOSTART !== 'disabled') {
  // This file is built to dist/server/entry.mjs; the browser files are in dist/client.
  startServer(new URL('../client/', import.meta.url).pathname);
}
