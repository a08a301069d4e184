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

/** Applies the shipping rules of src/lib/domain/shipping.ts to a shopper's default address. */
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

  return {
    defaultAddress,
    /**
     * The fee and addresses for a chosen option and speed (or the defaults when none was chosen).
     * Delivery without a default address falls back to pickup: there is nowhere to deliver.
     * The fee is in the market's currency and the pickup store is the market's; `orderMinor`
     * (subtotal less discount) decides whether Express is free.
     */
    async quote(userId: string, chosen: DeliveryOption | null, market: MarketCode, tx: Db | Tx = db, chosenSpeed: DeliverySpeedId | null = null, orderMinor = 0): Promise<ShippingQuote> {
      const deliveryAddress = await defaultAddress(userId, tx);
      const pickupAddress = pickupLocationForMarket(market);
      let option = chosen ?? defaultDeliveryOption(deliveryAddress !== null);
      if (option === 'delivery' && !deliveryAddress) option = 'collect';
      const speed = chosenSpeed ?? DEFAULT_DELIVERY_SPEED;
      const feeMinor = deliveryFeeMinor(option, MARKETS[market].currency, deliveryAddress?.country ?? null, speed, orderMinor) ?? 0;
      return { option, speed, feeMinor, deliveryAddress, pickupAddress };
    },
  };
}
export type ShippingService = ReturnType<typeof createShippingService>;
