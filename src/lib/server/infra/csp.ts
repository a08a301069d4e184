import { createHash } from 'node:crypto';
import islandDevScript from 'astro/runtime/server/astro-island.prebuilt-dev.js';
import idleScript from 'astro/runtime/client/idle.prebuilt.js';
import mediaScript from 'astro/runtime/client/media.prebuilt.js';
import onlyScript from 'astro/runtime/client/only.prebuilt.js';

/**
 * The client directives the store's pages use (`client:load`, `client:visible` and its own
 * `client:reach`). Astro's policy allows the script of every directive it knows, and of its island
 * loader in development, on every page; a unit test keeps this list in step with src/.
 */
export const USED_CLIENT_DIRECTIVES = ['load', 'visible', 'reach'] as const;

const digest = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** Scripts no page of this build can run: the directives above leave out, and the development island loader. */
const NEVER_RUN = new Set([idleScript, mediaScript, onlyScript, islandDevScript].map(digest));

/**
 * A page's Content-Security-Policy without the hashes of scripts it never runs: about 220 bytes
 * less on each page a phone fetches, and the same protection (a hash only ever allows a script).
 */
export function withoutUnrunScripts(policy: string): string {
  return policy.replace(/ 'sha256-[A-Za-z0-9+/=]+'/g, (hash) => (NEVER_RUN.has(hash.trim()) ? '' : hash));
}
