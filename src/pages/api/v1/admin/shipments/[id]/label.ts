import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint } from '@/lib/server/infra/http';
import { pdfResponse } from '@/lib/server/infra/pdf';

/** The shipment's label (PDF), to print from the back office's order page. */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const { pdf, trackingNumber } = await locals.services.shipments.label(params.id ?? '');
  return pdfResponse(pdf, `label-${trackingNumber}.pdf`);
});
