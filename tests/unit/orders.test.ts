import { describe, expect, it } from 'vitest';
import {
  canTransition,
  itemCount,
  normaliseStatusFilter,
  ORDER_STATUSES,
  STATUS_FILTERS,
  statusColour,
  trackingNumberFrom,
  TRACKING_NUMBER_PATTERN,
} from '@/lib/domain/orders';
import { newTrackingNumber } from '@/lib/server/orders/order-placing';

describe('order statuses', () => {
  it('allows only pending -> processed -> delivered and cancelling before delivery', () => {
    const allowed = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`));
    expect(allowed.sort()).toEqual(['pending->cancelled', 'pending->processed', 'processed->cancelled', 'processed->delivered']);
  });

  it('colours statuses as the spec says', () => {
    expect(statusColour('pending')).toBe('yellow');
    expect(statusColour('Processed')).toBe('blue');
    expect(statusColour('DELIVERED')).toBe('green');
    expect(statusColour('cancelled')).toBe('red');
    expect(statusColour('refunded')).toBe('grey');
  });

  it('filters case-insensitively with the spec\'s chips', () => {
    expect(STATUS_FILTERS.map((c) => c.label)).toEqual(['All Orders', 'Processed', 'Delivered', 'Cancelled', 'Pending']);
    expect(normaliseStatusFilter('PENDING')).toBe('pending');
    expect(normaliseStatusFilter('Delivered')).toBe('delivered');
    expect(normaliseStatusFilter('nonsense')).toBe('all');
  });

  it('counts units and makes ML- tracking numbers of 8 base32 characters', () => {
    expect(itemCount([{ quantity: 2 }, { quantity: 1 }])).toBe(3);
    expect(trackingNumberFrom(new Uint8Array([0, 1, 2, 3, 4, 5, 30, 31]))).toBe('ML-ABCDEF67');
    const many = new Set(Array.from({ length: 200 }, () => newTrackingNumber()));
    expect(many.size).toBe(200);
    for (const t of many) expect(t).toMatch(TRACKING_NUMBER_PATTERN);
  });
});
