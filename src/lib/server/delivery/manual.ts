import { createHash } from 'node:crypto';
import { NotFound } from '@/lib/domain/errors';
import { STORE_NAME } from '@/lib/domain/brand';
import { message } from '@/lib/domain/messages';
import { WebhookRejected, type Booking, type BookingInput, type Courier, type CourierAddress, type Quote, type TrackingEvent } from './port';

/**
 * The store's own courier: its riders, whose events staff type on the back office's order page.
 * Booking asks nobody: the tracking number is made from the store's key, so the same key always
 * answers the same booking. Its events live in the store's own tables (there is nothing to poll and
 * no webhook), and its label is a one-page PDF the store writes itself.
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
      throw new WebhookRejected('the store’s own courier sends no webhooks');
    },
  };
}

function addressLines(a: CourierAddress): string[] {
  return [a.name, a.line1, a.line2 ?? '', [a.city, a.region, a.postalCode ?? ''].filter(Boolean).join(', '), a.phone, a.landmark ? `Landmark: ${a.landmark}` : ''].filter(Boolean);
}

/** The label: one A6 page, Helvetica, what the rider needs and nothing else. */
export function labelPdf(f: ManualLabelFacts): Uint8Array {
  const lines: { text: string; size: number; gap: number }[] = [
    { text: STORE_NAME, size: 14, gap: 22 },
    { text: f.kind === 'return' ? 'RETURN COLLECTION' : 'DELIVERY', size: 9, gap: 20 },
    { text: `Tracking ${f.trackingNumber}`, size: 13, gap: 16 },
    { text: `Order ${f.orderReference}`, size: 10, gap: 22 },
    { text: 'TO', size: 8, gap: 12 },
    ...addressLines(f.to).map((text, i) => ({ text, size: i === 0 ? 11 : 10, gap: 13 })),
    { text: '', size: 8, gap: 10 },
    { text: 'FROM', size: 8, gap: 12 },
    ...addressLines(f.from).map((text) => ({ text, size: 9, gap: 12 })),
    ...(f.collect ? [{ text: '', size: 8, gap: 10 }, { text: `COLLECT AT THE DOOR: ${f.collect}`, size: 11, gap: 14 }] : []),
  ];
  return simplePdf(lines, { width: 298, height: 420 });
}

/** PDF strings hold Latin-1; anything else is shown as '?', and the delimiters are escaped. */
function pdfText(s: string): string {
  return s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A one-page PDF of text lines from the top left (the smallest valid file: catalog, page, font, content, xref). */
function simplePdf(lines: { text: string; size: number; gap: number }[], page: { width: number; height: number }): Uint8Array {
  let y = page.height - 36;
  const ops = lines
    .map((l) => {
      const op = `BT /F1 ${l.size} Tf 24 ${y} Td (${pdfText(l.text)}) Tj ET`;
      y -= l.gap;
      return op;
    })
    .join('\n');
  const content = Buffer.from(ops, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content.toString('latin1')}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
