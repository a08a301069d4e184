import type { APIRoute } from 'astro';
import { staffRecordPage } from '@/lib/server/accounts/auth';
import { message } from '@/lib/domain/messages';
import { pdfResponse } from '@/lib/server/infra/pdf';

/**
 * The order's packing slip as a PDF, to print and put in the parcel (src/lib/server/delivery/packing-slip.ts).
 * Behind the back office's guard as its pages are: signed out, to the sign-in and back here.
 */
export const GET: APIRoute = async (ctx) => {
  const page = await staffRecordPage(ctx, (services) => services.packingSlips.pdf(ctx.params.id ?? ''), message('order-not-found'));
  if (page.response) return page.response;
  return pdfResponse(page.record.pdf, `packing-slip-${page.record.trackingNumber}.pdf`);
};
