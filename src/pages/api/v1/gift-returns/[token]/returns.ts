import { giftReturnRequestSchema } from '@/lib/domain/gift-returns';
import { message } from '@/lib/domain/messages';
import { giftReturnProof } from '@/lib/server/aftersales/gift-return-cookie';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/**
 * The recipient's return (JSON `items: [{ orderItemId, quantity }]`, reason, method, or the page's
 * plain form): store credit to the account holding their proven number. The answer names the pieces,
 * never what they cost.
 */
export const POST = formEndpoint(async (ctx) => {
  const input = await readInput(ctx.request, giftReturnRequestSchema);
  const ret = await ctx.locals.services.giftReturns.request(ctx.params.token, giftReturnProof(ctx.cookies), input);
  const data = { id: ret.id, reference: ret.reference, status: ret.status, statusLabel: ret.statusLabel, reasonLabel: ret.reasonLabel, methodLabel: ret.methodLabel, items: ret.items.map((i) => ({ productName: i.productName, color: i.color, size: i.size, quantity: i.quantity })) };
  return { status: 201, body: { status: true, message: message('gift-return-requested'), data }, next: `/gift-return/${ctx.params.token}` };
});
