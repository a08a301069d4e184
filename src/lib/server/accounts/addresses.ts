import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { AddressInput } from '@/lib/domain/accounts';
import { Forbidden, NotFound } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { addresses, users } from '@/lib/server/accounts/tables';
import type { AddressDto as ShippingAddress } from '@/lib/domain/shipping';

/** A saved address: the shipping address plus whether it is the account's default. */
export interface AddressDto extends ShippingAddress {
  active: boolean;
}

type Row = typeof addresses.$inferSelect;

/** A saved address as the cart, checkout and orders carry it (the courier's details only when given). */
export function shippingAddressOf(r: Row): ShippingAddress {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    state: r.state,
    city: r.city,
    address: r.address,
    zipCode: r.zipCode,
    landmark: r.landmark ?? '',
    deliveryPhone: r.deliveryPhone ?? '',
  };
}

function toDto(r: Row): AddressDto {
  return { ...shippingAddressOf(r), active: r.active };
}

const ADDRESS_NOT_FOUND = 'Address not found';

/**
 * The address book. Exactly one default (active) address per user at all times: the first
 * one becomes the default, deleting the default promotes another. Every change runs in a
 * transaction that locks the user's row, so concurrent edits cannot leave zero or two defaults
 * (the partial unique index would refuse two anyway).
 */
export function createAddressService({ db, clock }: { db: Db; clock: () => Date }) {
  async function lockUser(tx: Tx, userId: string): Promise<void> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async function ownedRow(tx: Tx | Db, userId: string, id: string): Promise<Row> {
    const [row] = await tx.select().from(addresses).where(eq(addresses.id, id)).limit(1);
    if (!row) throw new NotFound(ADDRESS_NOT_FOUND);
    if (row.userId !== userId) throw new Forbidden(message('address-other-account'));
    return row;
  }

  async function makeDefault(tx: Tx, userId: string, id: string): Promise<void> {
    await tx.update(addresses).set({ active: false }).where(and(eq(addresses.userId, userId), ne(addresses.id, id), eq(addresses.active, true)));
    await tx.update(addresses).set({ active: true }).where(eq(addresses.id, id));
  }

  const fields = (input: AddressInput) => ({
    name: input.name,
    country: input.country,
    state: input.state,
    city: input.city,
    address: input.address,
    zipCode: input.zipCode,
    landmark: input.landmark || null,
    deliveryPhone: input.deliveryPhone || null,
  });

  return {
    /** The default first, then newest. */
    async list(userId: string): Promise<AddressDto[]> {
      const rows = await db
        .select()
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(desc(addresses.active), desc(addresses.createdAt), asc(addresses.id));
      return rows.map(toDto);
    },

    async get(userId: string, id: string): Promise<AddressDto> {
      return toDto(await ownedRow(db, userId, id));
    },

    async getDefault(userId: string): Promise<AddressDto | null> {
      const [row] = await db.select().from(addresses).where(and(eq(addresses.userId, userId), eq(addresses.active, true))).limit(1);
      return row ? toDto(row) : null;
    },

    async create(userId: string, input: AddressInput): Promise<AddressDto> {
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const [existing] = await tx.select({ id: addresses.id }).from(addresses).where(eq(addresses.userId, userId)).limit(1);
        const [row] = await tx
          .insert(addresses)
          .values({ ...fields(input), userId, active: false, createdAt: clock() })
          .returning();
        if (!existing || input.active) await makeDefault(tx, userId, row!.id);
        return { ...toDto(row!), active: !existing || input.active === true };
      });
    },

    /** Replaces the fields; `active: true` also makes it the default. The default cannot be un-defaulted. */
    async update(userId: string, id: string, input: AddressInput): Promise<AddressDto> {
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        await ownedRow(tx, userId, id);
        const [row] = await tx.update(addresses).set(fields(input)).where(eq(addresses.id, id)).returning();
        if (input.active) await makeDefault(tx, userId, id);
        return { ...toDto(row!), active: row!.active || input.active === true };
      });
    },

    async setDefault(userId: string, id: string): Promise<AddressDto> {
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const row = await ownedRow(tx, userId, id);
        await makeDefault(tx, userId, id);
        return { ...toDto(row), active: true };
      });
    },

    /** Deleting the default promotes the most recent remaining address. */
    async remove(userId: string, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const row = await ownedRow(tx, userId, id);
        await tx.delete(addresses).where(eq(addresses.id, id));
        if (row.active) {
          const [next] = await tx
            .select({ id: addresses.id })
            .from(addresses)
            .where(eq(addresses.userId, userId))
            .orderBy(desc(addresses.createdAt), asc(addresses.id))
            .limit(1);
          if (next) await makeDefault(tx, userId, next.id);
        }
      });
    },
  };
}
export type AddressService = ReturnType<typeof createAddressService>;

/** An account's deletion deletes its address book. */
export async function eraseAddressesOf(tx: Db | Tx, userId: string): Promise<void> {
  await tx.delete(addresses).where(eq(addresses.userId, userId));
}
