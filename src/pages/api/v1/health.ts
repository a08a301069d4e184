import type { APIRoute } from 'astro';
import { json } from '@/lib/server/infra/http';

export const GET: APIRoute = async ({ locals }) => {
  const { database } = await locals.services.health();
  return json({ status: database, data: { database: database ? 'up' : 'down' } }, { status: database ? 200 : 503 });
};
