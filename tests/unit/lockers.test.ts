import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { distanceText, lockerDelivery, lockerLine, DEFAULT_LOCKER_FEE_MINOR } from '@/lib/domain/lockers';
import type { AddressDto } from '@/lib/domain/shipping';
import { createLockerOffers } from '@/lib/server/checkout/lockers';
import { createDemoLockers } from '@/lib/server/delivery/demo-lockers';
import type { Lockers } from '@/lib/server/delivery/lockers';
import { parseConfig } from '@/lib/server/infra/config';

const joburg: AddressDto = { id: 'a1', name: 'Thandi Nkosi', country: 'south_africa', state: 'Gauteng', city: 'Johannesburg', address: '12 Jan Smuts Avenue', zipCode: '2196' };

describe('choosing and pricing a PUDO locker', () => {
  const defaultFee = async (m: 'NG' | 'ZA') => DEFAULT_LOCKER_FEE_MINOR[m];
  const offers = createLockerOffers({ points: { ZA: createDemoLockers() }, fee: defaultFee });

  it('lists the demo lockers in the address\'s town, at the market\'s fee; none elsewhere', async () => {
    const offer = await offers.offer('ZA', joburg);
    expect(offer!.feeMinor).toBe(DEFAULT_LOCKER_FEE_MINOR.ZA!);
    // The address's postcode (2196) finds three, its town the fourth, nearest the best match first.
    expect(offer!.points.map((p) => p.name)).toEqual(['Hyde Park Corner', 'Rosebank Mall', 'Sandton City', 'Melrose Arch']);
    expect(offer!.points[1]).toEqual({ id: 'DEMO-JHB-ROS', name: 'Rosebank Mall', where: '50 Bath Avenue, Rosebank, Johannesburg' });
    expect(offer).toMatchObject({ title: 'Collect from a PUDO locker', feeText: 'R\u00a065' });
    expect(await offers.offer('ZA', { ...joburg, city: 'Polokwane', zipCode: '0699' })).toBeNull();
    // A suburb as the address's city ("Sandton"): the locker named for it first, then the nearest.
    expect((await offers.offer('ZA', { ...joburg, city: 'Sandton', zipCode: '' }))!.points.map((p) => p.name)).toEqual(['Sandton City']);
    expect((await offers.offer('ZA', { ...joburg, city: 'Rosebank', zipCode: '' }))!.points.map((p) => p.name)).toEqual(['Rosebank Mall']);
    expect(await offers.offer('ZA', null)).toBeNull();
    expect(await offers.offer('NG', { ...joburg, country: 'nigeria', state: 'Lagos', city: 'Lagos' })).toBeNull();
    // An address outside the market's country gets no lockers.
    expect(await offers.offer('ZA', { ...joburg, country: 'nigeria' })).toBeNull();
  });

  it('finds lockers by the suburb, town or postcode the shopper searched, and says so when there are none', async () => {
    expect((await offers.offer('ZA', joburg, 'sandton'))!.points.map((p) => p.name)).toEqual(['Sandton City']);
    expect((await offers.offer('ZA', joburg, 'Cape Town'))!.points.map((p) => p.name)).toEqual(['Cavendish Square', 'V&A Waterfront']);
    expect((await offers.offer('ZA', joburg, '8001'))!.points.map((p) => p.name)).toEqual(['V&A Waterfront']);
    const none = await offers.offer('ZA', joburg, 'Polokwane');
    expect(none).toMatchObject({ points: [], search: 'Polokwane', empty: 'No PUDO locker found for "Polokwane". Try a suburb, a town or a postcode.' });
    // A locker chosen from a search stays listed when the page comes back without it.
    expect((await offers.offer('ZA', joburg, null, 'DEMO-CPT-VAW'))!.points[0]!.name).toBe('V&A Waterfront');
  });

  it('chooses any of the courier\'s lockers by its code, with its fee in minor units', async () => {
    const chosen = await offers.choose('ZA', joburg, 'DEMO-JHB-ROS');
    expect(chosen).toEqual({ point: { courier: 'pudo', id: 'DEMO-JHB-ROS', name: 'Rosebank Mall', address: '50 Bath Avenue, Rosebank', city: 'Johannesburg', distanceKm: null }, feeMinor: 6_500 });
    expect((await offers.choose('ZA', joburg, 'DEMO-CPT-VAW')).point.name).toBe('V&A Waterfront');
    await expect(offers.choose('ZA', joburg, 'DEMO-NOWHERE')).rejects.toThrow('We cannot find this PUDO locker. Please choose another.');
    await expect(offers.choose('NG', joburg, 'DEMO-JHB-ROS')).rejects.toThrow(/choose Delivery with an address in South Africa/);
    await expect(offers.choose('ZA', null, 'DEMO-JHB-ROS')).rejects.toThrow(/choose Delivery with an address in South Africa/);
  });

  it('a courier out of reach lists no lockers (the door stays) and refuses a choice as unavailable', async () => {
    const away = () => Promise.reject(new AppError('unavailable', 'PUDO did not answer'));
    const down: Lockers = { name: 'pudo', lockers: away, locker: away };
    const out = createLockerOffers({ points: { ZA: down }, fee: defaultFee });
    expect(await out.offer('ZA', joburg)).toBeNull();
    const err = await out.choose('ZA', joburg, 'CG54').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unavailable' });
  });

  it('lists and prices at the fee staff set, read when asked; a market without a fee offers none', async () => {
    let feeMinor: number | null = 4_000;
    const set = createLockerOffers({ points: { ZA: createDemoLockers() }, fee: async () => feeMinor });
    expect((await set.offer('ZA', joburg))!.feeMinor).toBe(4_000);
    expect((await set.choose('ZA', joburg, 'DEMO-JHB-ROS')).feeMinor).toBe(4_000);
    feeMinor = 0;
    expect(await set.offer('ZA', joburg)).toMatchObject({ feeMinor: 0, feeText: 'R\u00a00' });
    feeMinor = null;
    expect(await set.offer('ZA', joburg)).toBeNull();
    await expect(set.choose('ZA', joburg, 'DEMO-JHB-ROS')).rejects.toThrow(/choose Delivery with an address in South Africa/);
  });

  it('reads a locker and its distance as a shopper does', () => {
    const p = { id: 'CG54', name: 'Rosebank Mall', address: '50 Bath Ave, Rosebank', city: 'Johannesburg' };
    expect(lockerLine(p)).toBe('PUDO locker Rosebank Mall, 50 Bath Ave, Rosebank, Johannesburg');
    expect(lockerDelivery(p)).toMatch(/^Collect from a PUDO locker: Rosebank Mall, 50 Bath Ave, Rosebank, Johannesburg\. Collect it/);
    // The courier's code for the locker is staff's (the packing slip), never the shopper's to read.
    expect(lockerDelivery(p)).not.toContain('CG54');
    expect([distanceText(null), distanceText(0.42), distanceText(2.44)]).toEqual(['', '420 m', '2.4 km']);
  });

  it('demo lockers are the demo store\'s default and a live store refuses them', () => {
    expect(parseConfig({}).lockersZA).toBe('demo');
    expect(() => parseConfig({ STORE_MODE: 'live', LOCKERS_ZA: 'demo' })).toThrow(/LOCKERS_ZA: must be pudo or none when STORE_MODE=live/);
  });
});
