import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnRequestSchema } from '@/lib/domain/after-sales-input';
import { vatInGross } from '@/lib/domain/vat';
import { documentsOf, issueOrderInvoice } from '@/lib/server/books/documents';
import { vatLinesOf } from '@/lib/server/books/order-vat';
import { taxDocuments } from '@/lib/server/books/tables';
import { checkMoney } from '@/lib/server/orders/money-check';
import { placePodOrder, podShopper, podVariant, type PodOrder } from '../support/pod-orders';
import { pdfText } from '../support/pdf-text';
import { DRIVERS, servicesFor } from '../support/services';

const owner = { id: null, email: 'owner@maisonluxe.ng' };
const NUMBER = /^ZA-\d{4}-\d{6}$/;
const CREDIT_NUMBER = /^ZA-CN-\d{4}-\d{6}$/;

/** VAT per line at placement, the tax invoice of a paid order, and a credit note for every amount given back. */
for (const driver of DRIVERS) {
  describe(`the books on ${driver}`, () => {
    let ctx: Awaited<ReturnType<typeof servicesFor>>;
    beforeAll(async () => {
      ctx = await servicesFor(driver);
    });
    afterAll(async () => ctx?.close());

    /** A South African order paid online in full (a deposit of 100%), delivered. */
    async function paidZaOrder(skip: number, opts: { quantity?: number; discountPercent?: number } = {}): Promise<PodOrder> {
      const shopper = await podShopper(ctx.services, 'ZA');
      const v = await podVariant(ctx.services, 'ZA', 3, skip);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id, market: 'ZA', depositPercent: 100, ...opts });
      await ctx.services.orders.setStatus(order.id, 'processed');
      await ctx.services.orders.setStatus(order.id, 'delivered');
      return order;
    }

    it('seeds the demo store registered in both markets, with numbers that say they are not real', async () => {
      const za = await ctx.services.books.settings.read('ZA');
      const ng = await ctx.services.books.settings.read('NG');
      expect(za).toMatchObject({ registered: true, taxNumber: '4000000000', rates: [{ basisPoints: 1500 }] });
      expect(ng).toMatchObject({ registered: true, rates: [{ basisPoints: 750 }] });
      expect(za?.notice).toContain('not a real registration');
    });

    it('refuses a ZA VAT number of another shape, a NG TIN of another shape and a rate outside 0–100', async () => {
      const base = { registered: true, legalName: 'Maison Luxe (Pty) Ltd', address: '1 Demo Avenue', rates: [{ percent: 15, from: '2018-04-01' }] };
      await expect(ctx.services.books.settings.save(owner, 'ZA', { ...base, taxNumber: '5000000000' })).rejects.toThrow('A South African VAT number is 10 digits starting with 4');
      await expect(ctx.services.books.settings.save(owner, 'ZA', { ...base, taxNumber: '400000000' })).rejects.toThrow('10 digits starting with 4');
      await expect(ctx.services.books.settings.save(owner, 'NG', { ...base, taxNumber: '1234-5678' })).rejects.toThrow('A Nigerian TIN is');
      await expect(ctx.services.books.settings.save(owner, 'ZA', { ...base, taxNumber: '4000000000', rates: [{ percent: 101, from: '2026-01-01' }] })).rejects.toThrow('from 0 to 100');
      await expect(ctx.services.books.settings.save(owner, 'ZA', { ...base, taxNumber: '4000000000', rates: [{ percent: 15, from: '2026-02-30' }] })).rejects.toThrow('YYYY-MM-DD');
      await expect(ctx.services.books.settings.save(owner, 'XX', { ...base, taxNumber: '4000000000' })).rejects.toThrow('Unknown market');
    });

    it('fixes each line\'s VAT at placement, adding up exactly, and invoices the paid order at once', async () => {
      const order = await paidZaOrder(0, { quantity: 2, discountPercent: 10 });
      const lines = await vatLinesOf(ctx.services.db, order.id);
      expect(lines.map((l) => l.kind)).toEqual(['item', 'delivery']);
      for (const l of lines) expect(l.netMinor + l.vatMinor).toBe(l.grossMinor);
      expect(lines.reduce((a, l) => a + l.grossMinor, 0)).toBe(order.totalMinor);
      expect(lines.reduce((a, l) => a + l.vatMinor, 0)).toBe(vatInGross(order.totalMinor, 1500));
      const [invoice, ...rest] = await documentsOf(ctx.services.db, order.id);
      expect(rest).toEqual([]);
      expect(invoice).toMatchObject({ kind: 'invoice', grossMinor: order.totalMinor, vatMinor: vatInGross(order.totalMinor, 1500) });
      expect(invoice!.number).toMatch(NUMBER);
      expect(invoice!.form).toBe(order.totalMinor > 5_000_00 ? 'full' : 'abridged');
    });

    it('a discount lowers the VAT; store credit is no part of it', async () => {
      const plain = await paidZaOrder(1);
      const discounted = await paidZaOrder(1, { discountPercent: 20 });
      const vat = async (o: PodOrder) => (await vatLinesOf(ctx.services.db, o.id)).reduce((a, l) => a + l.vatMinor, 0);
      expect(await vat(discounted)).toBeLessThan(await vat(plain));
    });

    it('a refund in five pieces makes five credit notes that end at exactly zero VAT left', async () => {
      const order = await paidZaOrder(2);
      const piece = Math.floor(order.totalMinor / 5);
      for (let i = 0; i < 4; i++) await ctx.services.orderRefunds.refund(order.id, piece, owner);
      await ctx.services.orderRefunds.refund(order.id, undefined, owner);
      const docs = await documentsOf(ctx.services.db, order.id);
      const [invoice, ...notes] = docs;
      expect(notes).toHaveLength(5);
      for (const n of notes) {
        expect(n.number).toMatch(CREDIT_NUMBER);
        expect(n.reducesId).toBe(invoice!.id);
      }
      const sum = (k: 'netMinor' | 'vatMinor' | 'grossMinor') => notes.reduce((a, n) => a + n[k], 0);
      expect([sum('netMinor'), sum('vatMinor'), sum('grossMinor')]).toEqual([invoice!.netMinor, invoice!.vatMinor, invoice!.grossMinor]);
      expect((await checkMoney(ctx.services.db)).problems).toEqual([]);
    });

    it('a return credited as store credit makes a credit note; the PDFs read as the law asks', async () => {
      const order = await paidZaOrder(3);
      const line = (await ctx.services.orders.load(order.id))!.items[0]!.id;
      const ret = await ctx.services.returns.request(order.userId, order.id, returnRequestSchema.parse({ items: [{ orderItemId: line, quantity: 1 }], reason: 'changed_mind', resolution: 'credit', method: 'drop_off' }));
      await ctx.services.returns.act(owner, ret.id, { action: 'approve' });
      await ctx.services.returns.act(owner, ret.id, { action: 'receive' });
      await ctx.services.returns.act(owner, ret.id, { action: 'credit' });
      const [invoice, note] = await documentsOf(ctx.services.db, order.id);
      expect(note).toMatchObject({ kind: 'credit-note', reason: 'Returned goods, credited as store credit' });
      const viewer = { userId: order.userId, staff: false };
      const invoiceText = await pdfText((await ctx.services.books.pdf(viewer, order.id, invoice!.number)).pdf);
      expect(invoiceText).toContain('Tax Invoice');
      expect(invoiceText).toContain(invoice!.number);
      expect(invoiceText).toContain('VAT number 4000000000');
      const noteText = await pdfText((await ctx.services.books.pdf(viewer, order.id, note!.number)).pdf);
      expect(noteText).toContain('Credit Note');
      expect(noteText).toContain(`Tax Invoice ${invoice!.number}`);
      // Another shopper's order, or a number of another order: not found.
      await expect(ctx.services.books.pdf({ userId: '00000000-0000-4000-8000-000000000000', staff: false }, order.id, invoice!.number)).rejects.toThrow('Order not found');
      await expect(ctx.services.books.pdf(viewer, order.id, 'ZA-2026-999999')).rejects.toThrow('No such document');
      await expect(ctx.services.books.documents({ userId: 'x', staff: true }, order.id)).resolves.toHaveLength(2);
    });

    it('an order paid at the door is invoiced when collected, not before; a rolled-back number is given back', async () => {
      const shopper = await podShopper(ctx.services, 'NG');
      const v = await podVariant(ctx.services, 'NG', 3, 4);
      const order = await placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: v.id });
      expect(await documentsOf(ctx.services.db, order.id)).toEqual([]);
      expect((await vatLinesOf(ctx.services.db, order.id)).length).toBeGreaterThan(0);
      // A transaction that took a number and rolled back leaves no gap.
      await ctx.services.db
        .transaction(async (tx) => {
          await issueOrderInvoice(tx, order.id, new Date());
          tx.rollback();
        })
        .catch(() => undefined);
      await ctx.services.collection.record(owner, order.id, { outcome: 'paid', method: 'cash', amount: order.dueMinor / 100 });
      const [invoice] = await documentsOf(ctx.services.db, order.id);
      expect(invoice).toMatchObject({ kind: 'invoice', market: 'NG', grossMinor: order.totalMinor, vatMinor: vatInGross(order.totalMinor, 750) });
      const rows = await ctx.services.db.select({ number: taxDocuments.number }).from(taxDocuments).where(eq(taxDocuments.market, 'NG'));
      const seq = rows.map((r) => r.number).filter((n) => /^NG-\d{4}-\d{6}$/.test(n)).map((n) => Number(n.slice(-6))).sort((a, b) => a - b);
      expect(seq).toEqual(seq.map((_, i) => i + 1));
      expect(invoice!.number.endsWith(String(seq.length).padStart(6, '0'))).toBe(true);
    });

    it('the VAT report: its totals are the sums of the period\'s documents, its CSV lists each; a period that does not exist is refused', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const docs = await ctx.services.db.select().from(taxDocuments).where(eq(taxDocuments.market, 'ZA'));
      const report = await ctx.services.books.vatReport.totals({ market: 'za', from: '2026-01-01', to: '2026-12-31' });
      const sum = (kind: string, k: 'vatMinor' | 'grossMinor') => docs.filter((d) => d.kind === kind).reduce((a, d) => a + d[k], 0) / 100;
      expect(today >= '2026-01-01').toBe(true);
      expect(report.sales.vat).toBeCloseTo(sum('invoice', 'vatMinor'), 2);
      expect(report.creditNotes.gross).toBeCloseTo(sum('credit-note', 'grossMinor'), 2);
      expect(report.vatDue).toBeCloseTo(sum('invoice', 'vatMinor') - sum('credit-note', 'vatMinor'), 2);
      expect(report.byRate.map((r) => r.ratePercent)).toContain(15);
      let csv = '';
      for await (const chunk of ctx.services.books.vatReport.csv({ market: 'ZA', from: '2026-01-01', to: '2026-12-31' })) csv += chunk;
      const lines = csv.trim().split('\r\n');
      expect(lines[0]).toBe('Number,Kind,Date,Order,Net,VAT,Gross');
      expect(lines).toHaveLength(docs.length + 1);
      await expect(ctx.services.books.vatReport.totals({ market: 'ZA', from: '2026-02-30', to: '2026-03-31' })).rejects.toThrow('Give a period');
      await expect(ctx.services.books.vatReport.totals({ market: 'ZA', from: '2026-04-01', to: '2026-03-31' })).rejects.toThrow('Give a period');
      await expect(ctx.services.books.vatReport.totals({ market: 'XX', from: '2026-03-01', to: '2026-03-31' })).rejects.toThrow('Choose a market');
      const empty = await ctx.services.books.vatReport.totals({ market: 'ZA', from: '2020-01-01', to: '2020-01-31' });
      expect(empty).toMatchObject({ sales: { documents: 0, vat: 0 }, creditNotes: { documents: 0 }, vatDue: 0 });
    });

    it('50 paid orders and 20 refunds at once: both series without a gap or a duplicate', async () => {
      const before = await ctx.services.db.select({ number: taxDocuments.number }).from(taxDocuments).where(eq(taxDocuments.market, 'ZA'));
      const shopper = await podShopper(ctx.services, 'ZA');
      const variants = await Promise.all(Array.from({ length: 14 }, (_, i) => podVariant(ctx.services, 'ZA', 8, 20 + i)));
      const refundable = await Promise.all(Array.from({ length: 20 }, (_, i) => placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: variants[i % 14]!.id, market: 'ZA', depositPercent: 100 })));
      const placing = Array.from({ length: 50 }, (_, i) => placePodOrder(ctx.services, { userId: shopper.id, email: shopper.email, variantId: variants[(i + 6) % 14]!.id, market: 'ZA', depositPercent: 100 }));
      const refunding = refundable.map((o) => ctx.services.orderRefunds.refund(o.id, Math.floor(o.totalMinor / 2), owner));
      await Promise.all([...placing, ...refunding]);
      const numbers = (await ctx.services.db.select({ number: taxDocuments.number }).from(taxDocuments).where(eq(taxDocuments.market, 'ZA'))).map((r) => r.number);
      expect(numbers.length - before.length).toBe(90);
      expect(new Set(numbers).size).toBe(numbers.length);
      for (const series of [NUMBER, CREDIT_NUMBER]) {
        const seq = numbers.filter((n) => series.test(n)).map((n) => Number(n.slice(-6))).sort((a, b) => a - b);
        expect(seq).toEqual(seq.map((_, k) => k + 1));
      }
      expect((await checkMoney(ctx.services.db)).problems).toEqual([]);
    });
  });
}
