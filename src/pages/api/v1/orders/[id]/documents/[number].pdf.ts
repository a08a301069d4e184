import { documentViewer } from '@/lib/server/books/viewer';
import { endpoint } from '@/lib/server/infra/http';
import { pdfResponse } from '@/lib/server/infra/pdf';

/** One of the order's documents as a PDF (a plain link: works without script): its shopper and staff only; anything else is 404. */
export const GET = endpoint(async ({ locals, params }) => {
  const { pdf, filename } = await locals.services.books.pdf(documentViewer(locals), params.id ?? '', params.number ?? '');
  return pdfResponse(pdf, filename);
});
