import type { APIRoute } from 'astro';
import { json } from '@/lib/server/infra/http';
import { INSTANCE_ID } from '@/lib/server/infra/instance';

export const GET: APIRoute = async ({ locals }) => {
  const { database } = await locals.services.health();
  return json({ status: database, data: { database: database ? 'up' : 'down', instance: INSTANCE_ID } }, { status: database ? 200 : 503 });
};
