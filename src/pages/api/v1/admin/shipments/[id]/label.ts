import { requireStaff } from '@/lib/server/accounts/auth';
import { endpoint } from '@/lib/server/infra/http';

/** The shipment's label (PDF), to print from the back office's order page. */
export const GET = endpoint(async ({ locals, params }) => {
  requireStaff(locals);
  const { pdf, trackingNumber } = await locals.services.shipments.label(params.id ?? '');
  return new Response(new Uint8Array(pdf), {
    headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="label-${trackingNumber.replace(/[^A-Za-z0-9-]/g, '')}.pdf"`, 'cache-control': 'no-store' },
  });
});
