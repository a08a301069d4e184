import { and, eq, isNull, sql } from 'drizzle-orm';
import { Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import type { PromotionInput } from '@/lib/domain/promotion-input';
import { message } from '@/lib/domain/messages';
import { NEWSLETTER_WELCOME } from '@/lib/domain/promotions';
import type { Actor, AuditLog } from '@/lib/server/backoffice/audit';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { pgError } from '@/lib/server/infra/db/pg-errors';
import { promotionCodes, promotions } from '@/lib/server/promotions/tables';
import { insertCode, insertPromotion, moveCodesAndUses, renameCode, updatePromotion, type PromotionInsert } from './rows';
import type { PromotionDto } from './staff-list';

/** A promotion's terms: the fields an input may set and the audit log keeps (its code aside, kept in promotion_codes). */
const TERMS = ['description', 'kind', 'percentOff', 'amountOff', 'minSubtotal', 'startsAt', 'endsAt', 'usageLimit', 'oncePerCustomer', 'firstOrderOnly', 'categoryIds', 'status', 'codeValidDays'] as const satisfies readonly (keyof PromotionInput & keyof PromotionInsert)[];

type Terms = { [K in (typeof TERMS)[number]]?: Exclude<PromotionInput[K], undefined> };

/** A promotion's fields as the audit log keeps them (dates as ISO text). */
function auditable(p: Partial<PromotionInsert>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of TERMS) {
    const v = p[key];
    if (v !== undefined) out[key] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** Checks a whole promotion (the stored one with the changes) against the rules of a valid one. */
function check(next: Omit<PromotionInsert, 'id'>, code: string | null, needsCode = true) {
  if (next.kind === 'percent' && !next.percentOff) throw new Invalid(message('promo-percent-required'));
  if (next.kind === 'fixed' && Object.keys(next.amountOff ?? {}).length === 0) throw new Invalid(message('promo-amount-required'));
  if (next.systemKey === NEWSLETTER_WELCOME) {
    if (next.kind !== 'percent') throw new Invalid(message('promo-welcome-percent'));
    if (code) throw new Invalid(message('promo-welcome-no-code'));
  } else if (!code && needsCode) throw new Invalid(message('promo-code-required'));
  if (next.startsAt && next.endsAt && next.endsAt.getTime() <= next.startsAt.getTime()) throw new Invalid(message('promo-end-after-start'));
}

function fields(input: PromotionInput) {
  // The terms the input names (one it leaves out stays as it is); each input type fits its column.
  const f: Partial<PromotionInsert> = Object.fromEntries(TERMS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Terms;
  // One kind at a time: a percentage has no amounts, a fixed amount no percentage.
  if (f.kind === 'percent') f.amountOff = {};
  if (f.kind === 'fixed') f.percentOff = null;
  return f;
}

const codeTaken = () => new Conflict(message('promo-code-taken'));

/** The back office creates and changes promotions, each change audited in its transaction; `get` answers with the promotion as it now is. */
export function createPromotionEdits(deps: { db: Db; clock: () => Date; audit?: AuditLog; get: (id: number) => Promise<PromotionDto> }) {
  const { db, clock, get } = deps;

  async function audited<T>(actor: Actor, entry: (result: T) => Parameters<AuditLog['record']>[1], work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(async (tx) => {
        const result = await work(tx);
        if (deps.audit) await deps.audit.record(actor, entry(result), tx);
        return result;
      });
    } catch (err) {
      const e = pgError(err);
      if (e.code === '23505' && e.constraint?.includes('code')) throw codeTaken();
      throw err;
    }
  }

  return {
    /** A new promotion with its shared code (active unless paused is asked for). */
    async create(actor: Actor, input: PromotionInput): Promise<PromotionDto> {
      if (!input.code) throw new Invalid(message('promo-code-required'));
      if (!input.kind) throw new Invalid(message('promo-kind-required'));
      const values = { kind: input.kind, ...fields(input) } as Omit<PromotionInsert, 'id'>;
      check(values, input.code);
      const id = await audited(
        actor,
        (promotionId: number) => ({ action: 'promotion.create', entity: 'promotion', entityId: promotionId, details: { code: input.code, ...auditable(values) } }),
        async (tx) => {
          const promotionId = await insertPromotion(tx, { ...values, createdAt: clock(), updatedAt: clock() });
          await insertCode(tx, { promotionId, code: input.code!, createdAt: clock() });
          return promotionId;
        },
      );
      return get(id);
    },

    /** Changes what the input names. The welcome promotion's changes apply to codes issued from now on. */
    async update(actor: Actor, id: number, input: PromotionInput): Promise<PromotionDto> {
      await audited(
        actor,
        (changes: Record<string, unknown>) => ({ action: 'promotion.update', entity: 'promotion', entityId: id, details: changes }),
        async (tx) => {
          const [current] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
          if (!current) throw new NotFound(message('promotion-not-found'));
          const [shared] = await tx
            .select()
            .from(promotionCodes)
            .where(and(eq(promotionCodes.promotionId, id), isNull(promotionCodes.email)))
            .limit(1);
          const issued =
            (
              await tx
                .select({ id: promotionCodes.id })
                .from(promotionCodes)
                .where(and(eq(promotionCodes.promotionId, id), sql`${promotionCodes.email} is not null`))
                .limit(1)
            ).length > 0;
          const change = fields(input);
          if (current.systemKey === NEWSLETTER_WELCOME && input.code) throw new Invalid(message('promo-welcome-no-code'));
          const next = { ...current, ...change };
          const code = input.code ?? shared?.code ?? null;
          // Issued codes (the welcome promotion, or its earlier terms) need no shared code.
          check(next, current.systemKey ? null : code, !issued);
          if (next.usageLimit !== null && next.usageLimit < current.redemptions) {
            throw new Invalid(message('promo-limit-below-uses', String(current.redemptions)));
          }
          const changes: Record<string, unknown> = {};
          // The welcome mail promised its percentage: codes already issued keep it. They move to a copy
          // of the promotion with the old terms (their uses with them); the new terms apply to new codes.
          if (current.systemKey === NEWSLETTER_WELCOME && issued && change.percentOff !== undefined && change.percentOff !== current.percentOff) {
            const { id: _id, systemKey: _key, createdAt: _created, updatedAt: _updated, ...terms } = current;
            const archiveId = await insertPromotion(tx, { ...terms, description: `${current.description}, ${current.percentOff}% (codes issued until ${clock().toISOString().slice(0, 10)})`, createdAt: clock(), updatedAt: clock() });
            await moveCodesAndUses(tx, id, archiveId);
            change.redemptions = 0;
            changes.issuedCodesKeptOn = archiveId;
          }
          await updatePromotion(tx, id, { ...change, updatedAt: clock() });
          if (input.code && shared && input.code !== shared.code) await renameCode(tx, shared.id, input.code);
          else if (input.code && !shared) await insertCode(tx, { promotionId: id, code: input.code, createdAt: clock() });
          for (const [k, v] of Object.entries(auditable(change))) {
            const before = auditable(current as never)[k];
            if (JSON.stringify(before) !== JSON.stringify(v)) changes[k] = { from: before, to: v };
          }
          if (input.code && input.code !== shared?.code) changes.code = { from: shared?.code ?? null, to: input.code };
          return changes;
        },
      );
      return get(id);
    },
  };
}
