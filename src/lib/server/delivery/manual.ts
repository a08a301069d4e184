import { createHash } from 'node:crypto';
import { NotFound } from '@/lib/domain/errors';
import { STORE_NAME } from '@/lib/domain/brand';
import { message } from '@/lib/domain/messages';
import { houseDocument } from '@/lib/server/infra/pdf';
import { WebhookRejected, type Booking, type BookingInput, type Courier, type CourierAddress, type Quote, type TrackingEvent } from './port';

/**
 * The store's own courier: its riders, whose events staff type on the back office's order page.
 * Booking asks nobody: the tracking number is made from the store's key, so the same key always
 * answers the same booking. Its events live in the store's own tables (there is nothing to poll and
 * no webhook), and its label is a one-page PDF the store writes itself (infra/pdf.ts).
 */

/** What the label prints, read from the store's shipment (the manual courier keeps nothing of its own). */
export interface ManualLabelFacts {
  orderReference: string;
  trackingNumber: string;
  kind: 'delivery' | 'return';
  from: CourierAddress;
  to: CourierAddress;
  /** What the rider collects at the door, already formatted ("NGN 12,000.00"), or null. */
  collect: string | null;
}

/** The manual courier's tracking number for a booking key: stable, so a booking asked again is the same one. */
export function manualTrackingNumber(key: string): string {
  return `MLD-${createHash('sha256').update(key).digest('hex').slice(0, 10).toUpperCase()}`;
}

export function createManualCourier(deps: { labelFacts: (shipmentId: string) => Promise<ManualLabelFacts | null> }): Courier {
  return {
    name: 'manual',
    async quote(): Promise<Quote[]> {
      // The store's riders charge the store's own delivery fee (the market's delivery speeds): no rate to offer.
      return [];
    },
    async book(input: BookingInput): Promise<Booking> {
      return { shipmentId: input.key, trackingNumber: manualTrackingNumber(input.key), trackingUrl: null, labelUrl: null };
    },
    async cancel(): Promise<void> {},
    async track(): Promise<TrackingEvent[]> {
      // Staff type its events into the store's timeline directly.
      return [];
    },
    async label(shipmentId: string): Promise<Uint8Array> {
      const facts = await deps.labelFacts(shipmentId);
      if (!facts) throw new NotFound(message('shipment-not-found'));
      return labelPdf(facts);
    },
    parseWebhook(): never {
      throw new WebhookRejected(message('courier-manual-no-webhooks'));
    },
  };
}

function addressLines(a: CourierAddress): string[] {
  return [a.name, a.line1, a.line2 ?? '', [a.city, a.region, a.postalCode ?? ''].filter(Boolean).join(', '), a.phone, a.landmark ? `Landmark: ${a.landmark}` : ''].filter(Boolean);
}

/**
 * The label: one A6 page in the house's style, what the rider needs and nothing else. The names
 * and addresses print as they were typed, tone marks and all (the house font carries them).
 */
export async function labelPdf(f: ManualLabelFacts): Promise<Uint8Array> {
  const pdf = houseDocument({ size: 'A6', title: `Label ${f.trackingNumber} · ${STORE_NAME}`, margin: 24 });
  pdf.text(STORE_NAME, 'brand');
  pdf.space(4).text(f.kind === 'return' ? 'RETURN COLLECTION' : 'DELIVERY', 'eyebrow');
  pdf.space(10).text(`Tracking ${f.trackingNumber}`, 'large');
  pdf.space(2).text(`Order ${f.orderReference}`, 'body');
  pdf.space(10).rule({ colour: 'gold' }).space(10);
  pdf.text('TO', 'eyebrow').space(3);
  addressLines(f.to).forEach((line, i) => pdf.text(line, i === 0 ? 'lead' : 'body'));
  pdf.space(10).rule().space(10);
  pdf.text('FROM', 'eyebrow').space(3);
  for (const line of addressLines(f.from)) pdf.text(line, 'small', { colour: 'ink' });
  if (f.collect) pdf.space(10).rule({ colour: 'ink' }).space(8).text(`COLLECT AT THE DOOR: ${f.collect}`, 'strong');
  return pdf.finish();
}
