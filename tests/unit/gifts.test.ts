import { describe, expect, it } from 'vitest';
import { deliveryContact, giftFromForm, giftSchema, giftWrapMinor } from '@/lib/domain/gifts';
import { giftRecipientText } from '@/lib/domain/messages';

describe('gifts', () => {
  const ng = giftSchema('nigeria');
  const za = giftSchema('south_africa');

  it("reads the recipient's phone in the market's country, in E.164", () => {
    expect(ng.parse({ recipientName: ' Ada ', recipientPhone: '0803 123 4567' })).toEqual({ recipientName: 'Ada', recipientPhone: '+2348031234567', message: '', wrap: false, hidePrices: false });
    expect(za.parse({ recipientName: 'Thandi', recipientPhone: '082 123 4567', wrap: 'true' }).recipientPhone).toBe('+27821234567');
    const wrong = ng.safeParse({ recipientName: 'Ada', recipientPhone: '123456' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toMatch(/valid Nigerian phone number/);
  });

  it('keeps a message of up to 250 characters and refuses a longer one with a clear text', () => {
    expect(ng.parse({ recipientName: 'Ada', recipientPhone: '08031234567', message: 'x'.repeat(250) }).message).toHaveLength(250);
    const long = ng.safeParse({ recipientName: 'Ada', recipientPhone: '08031234567', message: 'x'.repeat(251) });
    expect(long.error?.issues[0]?.message).toBe('The gift message can be at most 250 characters');
    expect(ng.safeParse({ recipientName: '', recipientPhone: '08031234567' }).error?.issues[0]?.message).toBe("Please enter the recipient's name");
  });

  it("reads the checkout form's flat fields only when the box is ticked", () => {
    expect(giftFromForm({ giftName: 'Ada' })).toBeUndefined();
    expect(giftFromForm({ giftOn: true, giftName: 'Ada', giftPhone: '0803', giftWrap: true })).toMatchObject({ recipientName: 'Ada', recipientPhone: '0803', wrap: true });
  });

  it('wrapping adds the fee only when asked for', () => {
    expect(giftWrapMinor({ wrap: true }, 750_000)).toBe(750_000);
    expect(giftWrapMinor({ wrap: false }, 750_000)).toBe(0);
    expect(giftWrapMinor(null, 750_000)).toBe(0);
  });

  it('the courier calls the recipient of a gift, else the delivery contact', () => {
    const deliveryAddress = { name: 'Buyer', deliveryPhone: '+2348030000000' };
    expect(deliveryContact({ gift: { recipientName: 'Ada', recipientPhone: '+2348031234567' }, deliveryAddress })).toEqual({ name: 'Ada', phone: '+2348031234567', gift: true });
    expect(deliveryContact({ gift: null, deliveryAddress })).toEqual({ name: 'Buyer', phone: '+2348030000000', gift: false });
  });

  it("the recipient's texts name the sender and the order, never a price", () => {
    expect(giftRecipientText('placed', 'ML-1', 'Bola')).toMatch(/Bola has sent you a gift \(order ML-1\)/);
    expect(giftRecipientText('cancelled', 'ML-1', 'Bola')).toBeNull();
  });

  it('"delivered" carries the gift\'s returns link when there is one, and only "delivered" does', () => {
    const link = 'https://maisonluxe.ng/gift-return/abc.def';
    expect(giftRecipientText('delivered', 'ML-1', 'Bola', link)).toMatch(/delivered\. Enjoy it\. To return a piece within 3 days, for store credit: https:\/\/maisonluxe\.ng\/gift-return\/abc\.def$/);
    expect(giftRecipientText('out_for_delivery', 'ML-1', 'Bola', link)).not.toContain(link);
    expect(giftRecipientText('delivered', 'ML-1', 'Bola')).not.toContain('return');
  });
});
