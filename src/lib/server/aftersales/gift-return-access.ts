import type { ReturnDto } from '@/lib/domain/after-sales';
import type { ReturnRequestInput } from '@/lib/domain/after-sales-input';
import { AppError, Conflict, Invalid, NotFound } from '@/lib/domain/errors';
import { fill, message, phoneCodeText } from '@/lib/domain/messages';
import { formatOrderDate } from '@/lib/domain/orders';
import { MARKETS } from '@/lib/domain/markets';
import { GIFT_RETURN_PROOF_MS, maskEmail, maskPhone, type GiftReturnAccountInput } from '@/lib/domain/gift-returns';
import type { AccountService } from '@/lib/server/accounts/accounts';
import { CODE_TTL_MS, type CodeService } from '@/lib/server/accounts/codes';
import type { PhoneVerification } from '@/lib/server/accounts/phone-verification';
import type { Logger } from '@/lib/server/infra/log';
import { LIMITS, type RateLimiter } from '@/lib/server/infra/rate-limit';
import type { LinkSigner } from '@/lib/server/infra/signing';
import { TextRefused, type TextSender } from '@/lib/server/notifications/port';
import { marketOfOrder } from './returns/shopper';
import type { GiftReturnOptions, ReturnService } from './returns';

const PURPOSE = 'gift-return';
/** The codes of one recipient's number share their limits (codes.ts keys by this). */
const codeKey = (phone: string) => `phone:${phone}`;

/** The absolute returns link of a gift order: its recipient's "delivered" text and the packing slip carry it. */
export function giftReturnLink(signer: LinkSigner, siteUrl: string, orderId: string): string {
  return new URL(`/gift-return/${signer.token('gift-return', orderId)}`, siteUrl).toString();
}

/** What the /gift-return page and its API show: the gift, the masked number, and how far the recipient got. */
export interface GiftReturnView {
  options: Omit<GiftReturnOptions, 'recipientPhone'>;
  maskedPhone: string;
  /** The number is proven (a valid proof for this order was given). */
  proven: boolean;
  /**
   * The account the credit goes to, once proven: the one holding the number, masked; `confirmed`
   * false while its e-mail waits for the code sign-up sent (no credit reaches it before); null: none yet.
   */
  account: { email: string; confirmed: boolean } | null;
}

/**
 * The way in to a gift's return (ADR 0045): the signed link (`gift-return`, subject the order id)
 * the recipient is texted; a code texted to the order's recipient phone only (codes.ts, its own
 * purpose, the same send and try limits as the phone check); the proof of that phone, a signed
 * `gift-return-proof` token with its expiry that the routes keep in an http-only cookie; the account
 * holding the number (verified_phones) or one created with sign-up's rules and the number verified;
 * then the request (returns/gift.ts). A bad, foreign or non-gift link is NotFound.
 */
export function createGiftReturnAccess(deps: {
  clock: () => Date;
  log: Logger;
  signer: LinkSigner;
  codes: CodeService;
  limiter: RateLimiter;
  sender: TextSender;
  accounts: Pick<AccountService, 'register'>;
  phones: Pick<PhoneVerification, 'holderOf' | 'waitingHolderOf' | 'holdProvenPhone'>;
  returns: Pick<ReturnService, 'giftOptions' | 'requestForGift'>;
  siteUrl: string;
}) {
  const { clock, log, signer, codes, limiter } = deps;

  async function giftOf(token: string | undefined): Promise<GiftReturnOptions> {
    const orderId = signer.verify('gift-return', token);
    if (!orderId) throw new NotFound(message('gift-return-link-invalid'));
    try {
      return await deps.returns.giftOptions(orderId);
    } catch (err) {
      if (err instanceof NotFound) throw new NotFound(message('gift-return-link-invalid'));
      throw err;
    }
  }

  /** The proven phone when `proof` is this order's, unexpired, for its recipient's number; else null. */
  function provenPhone(gift: GiftReturnOptions, proof: string | undefined): string | null {
    const subject = signer.verify('gift-return-proof', proof);
    if (!subject) return null;
    const [orderId, phone, until] = subject.split(' ');
    if (orderId !== gift.orderId || phone !== gift.recipientPhone || !(Number(until) > clock().getTime())) return null;
    return phone;
  }

  async function requireProof(token: string | undefined, proof: string | undefined) {
    const gift = await giftOf(token);
    const phone = provenPhone(gift, proof);
    if (!phone) throw new Invalid(message('gift-return-prove-first'));
    return { gift, phone };
  }

  function requireOpen(gift: GiftReturnOptions): void {
    if (gift.open) return;
    if (!gift.delivered || !gift.closesAt) throw new Conflict(message('return-not-delivered'));
    throw new Conflict(fill('return-window-closed', formatOrderDate(gift.closesAt)));
  }

  return {
    linkFor: (orderId: string) => giftReturnLink(signer, deps.siteUrl, orderId),

    /** The page's (and the API's) view of the gift; NotFound for a link that is not a gift's. */
    async view(token: string | undefined, proof: string | undefined): Promise<GiftReturnView> {
      const gift = await giftOf(token);
      const phone = provenPhone(gift, proof);
      const holder = phone ? await deps.phones.holderOf(phone) : null;
      const waiting = phone && !holder ? await deps.phones.waitingHolderOf(phone) : null;
      const account = holder ?? waiting;
      const { recipientPhone: _hidden, ...options } = gift;
      return { options, maskedPhone: maskPhone(gift.recipientPhone), proven: phone !== null, account: account ? { email: maskEmail(account.email), confirmed: holder !== null } : null };
    },

    /**
     * "Send code": texts a code to the order's recipient phone (never a number typed in), within the
     * send limits of every code. Refused while the window is not open.
     */
    async sendCode(token: string | undefined, ip: string | null): Promise<void> {
      const gift = await giftOf(token);
      requireOpen(gift);
      const key = codeKey(gift.recipientPhone);
      await codes.allowSend(key, PURPOSE, ip);
      const code = await codes.issue(key, PURPOSE, { phone: gift.recipientPhone });
      try {
        const { messageId } = await deps.sender.send({ to: gift.recipientPhone, body: phoneCodeText(code, CODE_TTL_MS / 60_000) });
        log.info('gift return code sent', { orderId: gift.orderId, provider: deps.sender.name, messageId });
      } catch (err) {
        log.warn('gift return code not sent', { err, orderId: gift.orderId, provider: deps.sender.name });
        if (err instanceof TextRefused) throw new Invalid(message('phone-code-refused'));
        throw new AppError('unavailable', message('phone-code-not-sent'));
      }
    },

    /**
     * The code: under the phone check's try limits (per number, per network); a right one answers
     * the proof (`gift-return-proof`: order, number, expiry) for the routes' cookie.
     */
    async verifyCode(token: string | undefined, code: string, ip: string | null): Promise<{ proof: string; maxAgeSeconds: number }> {
      const gift = await giftOf(token);
      const key = codeKey(gift.recipientPhone);
      if (ip) await limiter.check(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
      await limiter.consume(`code-try:${PURPOSE}:${key}`, LIMITS.codeAttemptsPerEmail);
      let phone: string | null;
      try {
        ({ phone } = await codes.consume(key, PURPOSE, code));
      } catch (err) {
        if (ip) await limiter.hit(`code-fail-ip:${ip}`, LIMITS.codeFailuresPerIp);
        throw err;
      }
      if (phone !== gift.recipientPhone) throw new Invalid(message('otp-expired'));
      const until = clock().getTime() + GIFT_RETURN_PROOF_MS;
      return { proof: signer.token('gift-return-proof', `${gift.orderId} ${phone} ${until}`), maxAgeSeconds: GIFT_RETURN_PROOF_MS / 1000 };
    },

    /**
     * The recipient's account, for a number no confirmed account holds: sign-up (its rules, limits and
     * e-mail code) with the order's number and market, then the number marked verified on it. It
     * counts as the number's holder only once its e-mail is confirmed by that code; until then another
     * try (an address mistyped) takes the number over.
     */
    async createAccount(token: string | undefined, proof: string | undefined, input: GiftReturnAccountInput, ip: string | null): Promise<{ email: string }> {
      const { gift, phone } = await requireProof(token, proof);
      if (await deps.phones.holderOf(phone)) throw new Conflict(message('gift-return-account-exists'));
      const country = MARKETS[marketOfOrder(gift.currency)].country;
      const user = await deps.accounts.register({ ...input, phoneNumber: phone, country }, ip);
      await deps.phones.holdProvenPhone(user.id, phone);
      log.info('gift recipient account created', { orderId: gift.orderId, userId: user.id });
      return { email: user.email };
    },

    /** The return, its money as store credit to the account holding the proven number. */
    async request(token: string | undefined, proof: string | undefined, input: ReturnRequestInput): Promise<ReturnDto> {
      const { gift, phone } = await requireProof(token, proof);
      const holder = await deps.phones.holderOf(phone);
      if (!holder) {
        const waiting = await deps.phones.waitingHolderOf(phone);
        throw new Conflict(message(waiting ? 'gift-return-confirm-email-first' : 'gift-return-account-first'));
      }
      return deps.returns.requestForGift(gift.orderId, holder.id, input);
    },
  };
}
export type GiftReturnAccess = ReturnType<typeof createGiftReturnAccess>;
