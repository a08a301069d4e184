import { giftReturnCodeSchema } from '@/lib/domain/gift-returns';
import { message } from '@/lib/domain/messages';
import { clientIp } from '@/lib/server/accounts/auth';
import { keepGiftReturnProof } from '@/lib/server/aftersales/gift-return-cookie';
import { formEndpoint, readInput } from '@/lib/server/infra/form-posts';

/** The texted code: a right one keeps the proof of the recipient's phone in an http-only cookie. */
export const POST = formEndpoint(async (ctx) => {
  const { code } = await readInput(ctx.request, giftReturnCodeSchema);
  const { proof, maxAgeSeconds } = await ctx.locals.services.giftReturns.verifyCode(ctx.params.token, code, clientIp(ctx));
  keepGiftReturnProof(ctx.cookies, ctx.locals.publicOrigin, proof, maxAgeSeconds);
  return { body: { status: true, message: message('gift-return-phone-proven') }, next: `/gift-return/${ctx.params.token}` };
});
