import { endpoint, json, publicCache } from '../../../../../lib/server/http';

export const GET = endpoint(async ({ locals }) => {
  const docs = await locals.services.catalogue.bestSellers();
  return json({ status: true, data: { docs } }, { headers: publicCache });
});
