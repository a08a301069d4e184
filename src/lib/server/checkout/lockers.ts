import { AppError, Invalid } from '@/lib/domain/errors';
import { MARKETS, type MarketCode } from '@/lib/domain/markets';
import { fill, message } from '@/lib/domain/messages';
import { formatMoney, toMajor } from '@/lib/domain/money';
import { distanceText, LOCKER_CHOICE, LOCKER_NOTE, LOCKERS_LISTED, type ChosenLocker, type LockerOffer } from '@/lib/domain/lockers';
import type { AddressDto } from '@/lib/domain/shipping';
import type { Locker, Lockers } from '@/lib/server/delivery/lockers';
import type { Logger } from '@/lib/server/infra/log';

/**
 * The couriers' lockers checkout offers (ADR 0041): the market's points at the delivery address's
 * town, suburb or postcode, or at the place the shopper searched, and the one the shopper chose,
 * any of the courier's points, priced by the market's fee for the choice (`fee`: the market
 * settings', as staff set it). The courier's list is read through the lockers port.
 */
export function createLockerOffers(deps: { points: Partial<Record<MarketCode, Lockers>>; fee: (market: MarketCode) => Promise<number | null>; log?: Logger }) {
  /** The points for an address in the market's country (or near what the shopper searched); null when the market offers none. */
  async function nearest(market: MarketCode, address: AddressDto | null, search: string | null = null): Promise<Locker[] | null> {
    const source = deps.points[market];
    if (!source || !address || address.country !== MARKETS[market].country) return null;
    return source.lockers(search ? { place: search, postcode: search } : { place: address.city, postcode: address.zipCode }, LOCKERS_LISTED);
  }

  return {
    /** The market's fee when it offers lockers at all (the checkout shows the choice then); null otherwise. */
    async offeredFee(market: MarketCode): Promise<number | null> {
      return deps.points[market] === undefined ? null : deps.fee(market);
    },

    /**
     * What checkout lists for this address, or for a suburb, town or postcode the shopper searched
     * (`search`: then the offer stands with no points, so the search can be tried again). The
     * courier out of reach is no reason to stop a checkout: the choice is left out (null) and
     * delivery to the door remains.
     */
    async offer(market: MarketCode, address: AddressDto | null, search: string | null = null, keep: string | null = null): Promise<LockerOffer | null> {
      const feeMinor = await this.offeredFee(market);
      if (feeMinor === null) return null;
      let points: Locker[] | null;
      try {
        points = await nearest(market, address, search);
        // The one chosen from an earlier search stays listed (its page came back without the search).
        if (points && keep && !points.some((p) => p.id === keep)) {
          const kept = await deps.points[market]!.locker(keep);
          if (kept) points = [kept, ...points];
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        deps.log?.warn('lockers not listed', { err, market });
        return null;
      }
      if (!points || (points.length === 0 && !search)) return null;
      return {
        courier: 'pudo',
        feeMinor,
        feeText: formatMoney(toMajor(feeMinor), MARKETS[market].currency),
        title: LOCKER_CHOICE,
        note: LOCKER_NOTE,
        door: 'No, to my address',
        search,
        empty: points.length === 0 ? fill('lockers-none-near', search ?? '') : null,
        points: points.map((p) => ({ id: p.id, name: p.name, where: [p.address, p.city, distanceText(p.distanceKm)].filter((s) => s !== '').join(', ') })),
      };
    },

    /** The point chosen by its code, any of the market courier's (the shopper may have searched elsewhere), with its fee (minor units). */
    async choose(market: MarketCode, address: AddressDto | null, id: string): Promise<{ point: ChosenLocker; feeMinor: number }> {
      const feeMinor = await this.offeredFee(market);
      const source = deps.points[market];
      if (!source || !address || address.country !== MARKETS[market].country || feeMinor === null) throw new Invalid(message('locker-needs-address'));
      let found: Locker | null;
      try {
        found = await source.locker(id);
      } catch (err) {
        if (err instanceof AppError) throw new AppError('unavailable', message('lockers-unavailable'));
        throw err;
      }
      if (!found) throw new Invalid(message('locker-unknown'));
      return {
        point: { courier: 'pudo', id: found.id, name: found.name, address: found.address, city: found.city, distanceKm: found.distanceKm },
        feeMinor,
      };
    },
  };
}
export type LockerOffers = ReturnType<typeof createLockerOffers>;
