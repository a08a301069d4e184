import { requireStaff } from '@/lib/server/accounts/auth';
import { csvDownload, endpoint, streamed } from '@/lib/server/infra/http';

/** The catalogue as a CSV in the import's layout (docs/catalogue-import.md). */
export const GET = endpoint(async ({ locals }) => {
  requireStaff(locals);
  return streamed(locals.services.catalogueImports.exportCsv(), csvDownload('catalogue.csv'));
});
