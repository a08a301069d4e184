import type { AuditLog } from '@/lib/server/backoffice/audit';
import type { Db } from '@/lib/server/infra/db/client';
import { createCodeCheck } from './code-check';
import { createPromotionLimits } from './limits';
import { createPromotionEdits } from './staff-edits';
import { createPromotionList } from './staff-list';
import { createWelcomeCodes } from './welcome-codes';

export type { AppliedDiscount, CartForDiscount, DiscountLine } from './code-check';
export type { PromotionDto } from './staff-list';

/**
 * Promotions, as the rest of the store calls them: one object made of one module per job.
 *
 * A code is checked against a cart (evaluate, code-check.ts), takes a place under its limits when
 * payment starts (hold, in the transaction that creates the payment row), becomes a use when the
 * order is placed (use, in the order's transaction) and gives its place back when the payment fails,
 * is declined, abandoned or cannot become an order (release), or the order is cancelled (giveBack):
 * limits.ts, reading who holds a place through holds.ts as the check does.
 *
 * Limits are the database's: `redemptions` counts held and used redemptions on the promotion and
 * on the code, and a hold is a conditional update (`redemptions < usage_limit`) that returns no row
 * when the place is gone, plus a CHECK that refuses a counter past its limit. Once per customer is
 * a partial unique index on (promotion, customer) over live redemptions. No read-then-write: 50
 * concurrent holds of a code limited to 1 give exactly one.
 *
 * The back office lists (staff-list.ts) and edits (staff-edits.ts) promotions; the newsletter's
 * welcome codes are issued by welcome-codes.ts. rows.ts is the one writer of promotions,
 * promotion_codes and promotion_redemptions. Nothing is decided here.
 */
export function createPromotionService(deps: { db: Db; clock: () => Date; audit?: AuditLog }) {
  const { db, clock } = deps;
  const list = createPromotionList({ db });
  return {
    ...createCodeCheck({ db, clock }),
    ...createPromotionLimits({ db, clock }),
    ...createWelcomeCodes({ db, clock }),
    ...list,
    ...createPromotionEdits({ db, clock, audit: deps.audit, get: list.get }),
  };
}
export type PromotionService = ReturnType<typeof createPromotionService>;
