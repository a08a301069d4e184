/**
 * Staff command for payments:
 *   npm run payments -- refund REFERENCE [AMOUNT]   refund through the provider: all that is left, or AMOUNT
 *                                                  in major units (12500.50 = ₦12,500.50); refunding again
 *                                                  does not refund twice
 *   npm run payments -- reconcile                   one reconciliation pass now (what the server runs on a timer)
 *   npm run payments -- release REFERENCE           let go of a refund whose outcome was lost, after checking
 *                                                  with the provider that nothing was refunded
 */
import { formatMoney, toMajor, toMinor, type CurrencyCode } from '@/lib/domain/money';
import { reconciliationFor } from '@/lib/server/payments/reconciliation';
import { runStaffCommand } from './staff-command';

const usage = 'usage: npm run payments -- refund <reference> [amount] | reconcile | release <reference>';
const [command, reference, amountText] = process.argv.slice(2);
const known = (command === 'refund' || command === 'release') && reference ? true : command === 'reconcile' && !reference;
let amountMinor: number | undefined;
if (amountText !== undefined) {
  if (!/^\d+(\.\d{1,2})?$/.test(amountText) || toMinor(Number(amountText)) <= 0) {
    console.error(`amount must be a positive number in major units, e.g. 12500 or 12500.50\n${usage}`);
    process.exit(2);
  }
  amountMinor = toMinor(Number(amountText));
}
if (!known || (amountText !== undefined && command !== 'refund')) {
  console.error(usage);
  process.exit(2);
}

const money = (minor: number, currency: string) => formatMoney(toMajor(minor), currency as CurrencyCode);

await runStaffCommand(async (services) => {
  if (command === 'refund') {
    const r = await services.payments.refund(reference!, amountMinor);
    const what = r.refundedNowMinor > 0 ? `refunded ${money(r.refundedNowMinor, r.currency)}` : 'already refunded, nothing sent';
    console.log(
      `${r.reference}: ${what}; ${money(r.refundedMinor, r.currency)} of ${money(r.amountMinor, r.currency)} refunded (${r.status}, refund ${r.refundId})`,
    );
  } else if (command === 'release') {
    console.log((await services.payments.releaseRefundClaim(reference!)) ? `${reference}: refund claim released` : `${reference}: no refund in progress`);
  } else {
    const report = await reconciliationFor(services).reconcile();
    console.log(report.ran ? `reconciled: ${JSON.stringify(report)}` : 'another server is reconciling right now; nothing done');
  }
});
