/**
 * Staff command for orders, e.g. `npm run orders -- set-status ML-ABCD2345 delivered`.
 * Only the allowed transitions are made (pending -> processed -> delivered; pending or
 * processed -> cancelled), and the shopper is e-mailed about each change.
 */
import { runStaffCommand } from './staff-command';

const usage = 'usage: npm run orders -- set-status <orderId|trackingNumber> <processed|delivered|cancelled> [--on YYYY-MM-DD (the delivery day)]';
const [command, key, status, flag, deliveredOn] = process.argv.slice(2);
if (command !== 'set-status' || !key || !status || (flag !== undefined && (flag !== '--on' || !deliveredOn))) {
  console.error(usage);
  process.exit(2);
}

await runStaffCommand(async (services) => {
  const { order, from } = await services.orders.setStatus(key, status, undefined, { deliveredOn });
  console.log(`${order.trackingNumber}: ${from} -> ${order.status} (shopper e-mailed)`);
});
