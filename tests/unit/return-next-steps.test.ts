import { describe, expect, it } from 'vitest';
import { returnNextSteps } from '@/lib/domain/after-sales';

/** After a return is asked for, the page and the mail say what happens next, in full. */
describe('what happens after a return request', () => {
  const base = { reference: 'RT-ABCD2345', method: 'drop_off', resolution: 'refund', difference: 0, differencePaid: false } as const;

  it('names the return, how the pieces come back, what to pack and when the money follows', () => {
    const steps = returnNextSteps(base, '15 Babatunde Jose St, Victoria Island, Lagos');
    expect(steps).toHaveLength(4);
    expect(steps[0]).toBe('Your return RT-ABCD2345 is with us. We approve it first and tell you by e-mail.');
    expect(steps[1]).toBe('Once it is approved, bring the pieces to 15 Babatunde Jose St, Victoria Island, Lagos, with your order number.');
    expect(steps[2]).toBe('Pack each piece as it came: unworn, with its tags, dust bag and box.');
    expect(steps[3]).toMatch(/we refund what you paid for them to your payment\.$/);
  });

  it('says the courier collects, credit or a new piece follows, and a dearer exchange is paid first', () => {
    expect(returnNextSteps({ ...base, method: 'collection', resolution: 'credit' }, 'x')[1]).toMatch(/our courier collects the pieces from your delivery address/);
    expect(returnNextSteps({ ...base, resolution: 'credit' }, 'x')[3]).toMatch(/added to your store credit\.$/);
    const dearer = returnNextSteps({ ...base, resolution: 'exchange', difference: 10_000 }, 'x');
    expect(dearer[0]).toContain('Pay the difference for the new piece and we approve it.');
    expect(dearer[3]).toMatch(/we send your new one/);
    expect(returnNextSteps({ ...base, resolution: 'exchange', difference: 10_000, differencePaid: true }, 'x')[0]).toContain('We approve it first');
  });
});
