import { endpoint, json, publicCache } from '../../../../lib/server/http';

export const GET = endpoint(async ({ locals }) => {
  const data = await locals.services.catalogue.parentCategories();
  return json({ status: true, data: { data } }, { headers: publicCache });
});
