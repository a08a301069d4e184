import { and, eq } from 'drizzle-orm';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { DEFAULT_DELIVERY_SPEED, defaultDeliveryOption, deliveryFeeMinor, pickupLocationForMarket, type AddressDto, type DeliveryOption, type DeliverySpeedId } from '@/lib/domain/shipping';
import type { Db, Tx } from '@/lib/server/infra/db/client';
import { addresses } from '@/lib/server/accounts/tables';
import { shippingAddressOf } from '@/lib/server/accounts/addresses';

export interface ShippingQuote {
  option: DeliveryOption;
  /** The speed a delivery goes at (pickup keeps the cart's choice for when the shopper switches back). */
  speed: DeliverySpeedId;
  feeMinor: number;
  deliveryAddress: AddressDto | null;
  pickupAddress: AddressDto;
}

/** Applies the shipping rules of src/lib/domain/shipping.ts to a shopper's delivery address (chosen for the order, or the default). */
export function createShippingService({ db }: { db: Db }) {
  async function defaultAddress(userId: string, tx: Db | Tx = db): Promise<AddressDto | null> {
    const [row] = await tx
      .select()
      .from(addresses)
      .where(and(eq(addresses.userId, userId), eq(addresses.active, true)))
      .limit(1);
    if (!row) return null;
    return shippingAddressOf(row);
  }

  /** The address a delivery goes to: the one chosen for this order (when it is still the shopper's), else the default. */
  async function deliveryAddress(userId: string, chosenId: string | null, tx: Db | Tx = db): Promise<AddressDto | null> {
    if (chosenId) {
      const [row] = await tx
        .select()
        .from(addresses)
        .where(and(eq(addresses.userId, userId), eq(addresses.id, chosenId)))
        .limit(1);
      if (row) return shippingAddressOf(row);
    }
    return defaultAddress(userId, tx);
  }

  return {
    defaultAddress,
    deliveryAddress,
    /**
     * The fee and addresses for a chosen option and speed (or the defaults when none was chosen).
     * The address is the one chosen for this order (`addressId`), else the default; delivery
     * without either falls back to pickup: there is nowhere to deliver.
     * The fee is in the market's currency and the pickup store is the market's; `orderMinor`
     * (subtotal less discount) decides whether Express is free.
     */
    async quote(
      userId: string,
      chosen: DeliveryOption | null,
      market: MarketCode,
      tx: Db | Tx = db,
      chosenSpeed: DeliverySpeedId | null = null,
      orderMinor = 0,
      addressId: string | null = null,
    ): Promise<ShippingQuote> {
      const address = await deliveryAddress(userId, addressId, tx);
      const pickupAddress = pickupLocationForMarket(market);
      let option = chosen ?? defaultDeliveryOption(address !== null);
      if (option === 'delivery' && !address) option = 'collect';
      const speed = chosenSpeed ?? DEFAULT_DELIVERY_SPEED;
      const feeMinor = deliveryFeeMinor(option, MARKETS[market].currency, address?.country ?? null, speed, orderMinor) ?? 0;
      return { option, speed, feeMinor, deliveryAddress: address, pickupAddress };
    },
  };
}
export type ShippingService = ReturnType<typeof createShippingService>;
