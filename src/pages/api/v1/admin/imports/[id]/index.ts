import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint, json } from '@/lib/server/infra/http';

/** An import's state, its problems (`row`, `column`, `message`) and what applying it changes. */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  return json({ status: true, data: await locals.services.catalogueImports.get(params.id ?? '') });
});
