/**
 * The methods each API endpoint exports, read from its module (Vite's glob of src/pages/api), so a
 * request with another method is answered 405 with Allow before Astro's own "no handler" 404, whose
 * error page would run the middleware a second time without the route's context.
 */
type EndpointModule = Record<string, unknown>;

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const loaders = new Map<string, () => Promise<EndpointModule>>(
  Object.entries(import.meta.glob<EndpointModule>('/src/pages/api/**/*.ts')).map(([file, load]) => [
    file.replace(/^\/src\/pages/, '').replace(/\.ts$/, '').replace(/\/index$/, ''),
    load,
  ]),
);

/** The methods the endpoint of `routePattern` answers (HEAD with GET), or null: not an endpoint, or one taking every method. */
export async function endpointMethods(routePattern: string): Promise<string[] | null> {
  const load = loaders.get(routePattern);
  if (!load) return null;
  const mod = await load();
  if (typeof mod.ALL === 'function') return null;
  const methods: string[] = HTTP_METHODS.filter((m) => typeof mod[m] === 'function');
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  return methods;
}
