import { documentViewer } from '@/lib/server/books/viewer';
import { endpoint, json } from '@/lib/server/infra/http';

/** The order's tax invoice and credit notes (number, kind, date, net, VAT, gross, PDF link): its shopper and staff only. */
export const GET = endpoint(async ({ locals, params }) => {
  const documents = await locals.services.books.documents(documentViewer(locals), params.id ?? '');
  return json({ status: true, data: { documents } });
});
