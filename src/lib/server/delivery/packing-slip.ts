import { STORE_NAME } from '@/lib/domain/brand';
import { deliveryContact } from '@/lib/domain/gifts';
import type { OrderDto } from '@/lib/domain/orders';
import { lockerLine } from '@/lib/domain/lockers';
import { formatAddress } from '@/lib/domain/shipping';
import { houseDocument } from '@/lib/server/infra/pdf';

/**
 * The packing slip staff print and put in the parcel (ADR 0035): what is in it and who it goes to,
 * never a price (a gift's recipient must not learn them, and nobody else needs them in the box),
 * and a gift's message as a card with the recipient's own way to a return (ADR 0045).
 */
export interface PackingSlipFacts {
  trackingNumber: string;
  /** The day it was placed, YYYY-MM-DD. */
  placed: string;
  /** The PUDO locker the parcel goes to, and its code. */
  locker: { line: string; code: string } | null;
  /** Who takes the parcel: the heading, the name, the address (none for a locker) and the phone. */
  recipient: { heading: 'Collect at' | 'Collected by' | 'Deliver to'; name: string; address: string | null; phone: string | null };
  items: Array<{ name: string; colour: string | null; size: string | null; quantity: number }>;
  gift: { recipientName: string; message: string | null; from: string; returnLink: string | null } | null;
}

/** The slip's facts from the order as the back office reads it, the customer's name and the gift's return link. */
export function packingSlipFacts(order: OrderDto, customerName: string, returnLink: string | null): PackingSlipFacts {
  const contact = deliveryContact(order);
  return {
    trackingNumber: order.trackingNumber,
    placed: new Date(order.createdAt).toISOString().slice(0, 10),
    locker: order.locker ? { line: lockerLine(order.locker), code: order.locker.id } : null,
    recipient: {
      heading: order.deliveryOption === 'collect' ? 'Collect at' : order.locker ? 'Collected by' : 'Deliver to',
      name: contact.name,
      address: order.locker ? null : formatAddress(order.deliveryAddress),
      phone: contact.phone,
    },
    items: order.items.map((i) => ({ name: i.productName, colour: i.color, size: i.size, quantity: i.quantity })),
    gift: order.gift ? { recipientName: order.gift.recipientName, message: order.gift.message, from: customerName.split(' ')[0] ?? customerName, returnLink } : null,
  };
}

/** The slip on one A4 page (more when the parcel holds many pieces), in the house's style. */
export async function packingSlipPdf(f: PackingSlipFacts): Promise<Uint8Array> {
  const pdf = houseDocument({ size: 'A4', title: `Packing slip ${f.trackingNumber} · ${STORE_NAME}`, footer: `${STORE_NAME} · Packing slip ${f.trackingNumber}` });
  pdf.text(STORE_NAME, 'brand');
  pdf.space(10).text('Packing slip', 'title');
  pdf.space(2).text(`Order ${f.trackingNumber} · placed ${f.placed}`, 'body', { colour: 'muted' });
  pdf.space(14).rule({ colour: 'gold' }).space(18);

  if (f.locker) {
    pdf.text('Deliver to PUDO locker', 'eyebrow').space(4);
    pdf.text(f.locker.line, 'body').text(`Locker code: ${f.locker.code}`, 'body');
    pdf.space(18);
  }
  pdf.text(f.recipient.heading, 'eyebrow').space(4);
  pdf.text(f.recipient.name, 'lead');
  if (f.recipient.address) pdf.text(f.recipient.address, 'body');
  if (f.recipient.phone) pdf.text(`Phone: ${f.recipient.phone}`, 'body');
  pdf.space(22);

  pdf.text('In this parcel', 'eyebrow').space(6);
  const w = pdf.width;
  pdf.table(
    [
      { header: 'Item', width: w * 0.5 },
      { header: 'Colour', width: w * 0.2 },
      { header: 'Size', width: w * 0.15 },
      { header: 'Quantity', width: w * 0.15, align: 'right' },
    ],
    f.items.map((i) => ({ cells: [i.name, i.colour ?? '—', i.size ?? '—', String(i.quantity)] })),
  );

  if (f.gift) {
    const g = f.gift;
    const padding = 24;
    const inner = w - padding * 2;
    const returnText = g.returnLink ? `To return a piece within 3 days of delivery, for store credit:\n${g.returnLink}` : null;
    const height =
      padding * 2 +
      pdf.heightOf(`A gift for ${g.recipientName}`, 'eyebrow', inner) +
      (g.message ? 14 + pdf.heightOf(g.message, 'message', inner, 4) : 0) +
      14 +
      pdf.heightOf(`From ${g.from}`, 'body', inner) +
      (returnText ? 18 + pdf.heightOf(returnText, 'small', inner) : 0);
    pdf.space(32);
    pdf.keepTogether(height);
    const top = pdf.y;
    pdf.frame(pdf.left, top, w, height);
    const x = pdf.left + padding;
    pdf.text(`A gift for ${g.recipientName}`, 'eyebrow', { x, y: top + padding, width: inner, align: 'center' });
    if (g.message) pdf.space(14).text(g.message, 'message', { x, width: inner, align: 'center', lineGap: 4 });
    pdf.space(14).text(`From ${g.from}`, 'body', { x, width: inner, align: 'center' });
    if (returnText) pdf.space(18).text(returnText, 'small', { x, width: inner, align: 'center' });
    pdf.y = top + height;
  }
  return pdf.finish();
}

/** The back office's packing slips: the order read as staff see it, drawn as a PDF. */
export function createPackingSlips(deps: {
  orders: { adminDetail(orderId: string): Promise<{ order: OrderDto; customer: { name: string } }> };
  /** A gift's return link for its recipient (the gift-return access's signed link). */
  giftReturnLink(orderId: string): string;
}) {
  return {
    /** The order's slip; NotFound (from the orders module) for an order that is not there. */
    async pdf(orderId: string): Promise<{ pdf: Uint8Array; trackingNumber: string }> {
      const { order, customer } = await deps.orders.adminDetail(orderId);
      const facts = packingSlipFacts(order, customer.name, order.gift ? deps.giftReturnLink(order.id) : null);
      return { pdf: await packingSlipPdf(facts), trackingNumber: order.trackingNumber };
    },
  };
}
