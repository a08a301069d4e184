/**
 * A local stand-in for the Paystack API, following its documented shapes
 * (https://paystack.com/docs/api/transaction/):
 *   POST /transaction/initialize  {email, amount (subunits), currency, reference, callback_url}
 *     -> {status:true, message:'Authorization URL created', data:{authorization_url, access_code, reference}}
 *   GET  /transaction/verify/:reference
 *     -> {status:true, message:'Verification successful', data:{status, reference, amount, currency, ...}}
 *   POST /refund  {transaction (reference), amount? (subunits; default: all that is left)}
 *     -> {status:true, message:'Refund has been queued for processing', data:{id, amount, status:'pending', transaction:{...}, ...}}
 *     (https://paystack.com/docs/api/refund/#create); every refund made is kept in `refunds`, with its notes.
 *   GET  /refund?transaction=<reference>
 *     -> {status:true, message:'Refunds retrieved', data:[{id, amount, status, merchant_note, customer_note, ...}]}
 *     (https://paystack.com/docs/api/refund/#list): the account's refunds, of that transaction when given.
 * Tests decide what the shopper did with `pay`, `fail`, `abandon` and `payAmount` (amount mismatch),
 * and can make verification slow or failing with `verifyBehaviour`.
 *
 * Bank transfers (pay with transfer): `sendTransfer` is the shopper's "I have sent the money" (verify
 * answers pending, channel bank_transfer); `confirmTransfer` is the bank's confirmation: verify
 * answers success and, when `webhookUrl` is set, the signed charge.success webhook is sent, as
 * Paystack does; `expireTransfer` is the transfer window running out (verify answers abandoned).
 *
 * Markets: each Paystack account (integration) has its own secret key and settles in its own
 * currency. `startFakePaystack(key, [{ secretKey, currency: 'ZAR' }])` adds accounts; a transaction
 * belongs to the account whose key started it and is unknown to the others (as on Paystack), and an
 * account refuses a currency it does not settle in. The first key accepts any currency.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { send, readBody } from './fake-http';

export interface FakeTransaction {
  reference: string;
  email: string;
  amount: number;
  currency: string;
  callbackUrl: string | null;
  status: 'abandoned' | 'success' | 'failed' | 'pending';
  /** The channels initialize offered, and the one the shopper used (card unless a test says). */
  channels: string[] | null;
  channel: string;
  /** What was actually charged (differs from amount only in mismatch tests). */
  paidAmount: number;
  /** The secret key of the account that started it. */
  account: string;
}

export interface FakeRefund {
  id: number;
  reference: string;
  /** What the request asked for (undefined: all). */
  requested: number | undefined;
  amount: number;
  merchantNote: string | null;
  customerNote: string | null;
}

export interface FakePaystack {
  baseUrl: string;
  secretKey: string;
  transactions: Map<string, FakeTransaction>;
  calls: { method: string; path: string; auth: string | null; body: unknown }[];
  refunds: FakeRefund[];
  /** Verification answers after `delayMs`, with HTTP `status` (500: Paystack is down). */
  verifyBehaviour: { delayMs: number; status: number };
  /**
   * `cut`: a refund is made, then the connection is cut before the answer (the answer is lost).
   * `delayMs`: a refund is made, then answered only after that long (a caller's timeout loses it).
   */
  refundBehaviour: { cut: boolean; delayMs: number };
  pay(reference: string): void;
  fail(reference: string): void;
  abandon(reference: string): void;
  payAmount(reference: string, amount: number): void;
  /** Where charge.success is sent when a transfer is confirmed (the store's webhook URL); none when unset. */
  webhookUrl: string | null;
  sendTransfer(reference: string): void;
  /** Confirms a pending transfer; answers the webhook's HTTP status (null when no webhook URL is set). */
  confirmTransfer(reference: string): Promise<number | null>;
  expireTransfer(reference: string): void;
  close(): Promise<void>;
}

export interface FakeAccount {
  secretKey: string;
  /** The one currency the account settles in (null: any). */
  currency: string | null;
}

export async function startFakePaystack(secretKey = `sk_test_${randomBytes(12).toString('hex')}`, more: FakeAccount[] = []): Promise<FakePaystack> {
  const accounts: FakeAccount[] = [{ secretKey, currency: null }, ...more];
  const transactions = new Map<string, FakeTransaction>();
  const calls: FakePaystack['calls'] = [];
  const refunds: FakeRefund[] = [];
  const verifyBehaviour = { delayMs: 0, status: 200 };
  const refundBehaviour = { cut: false, delayMs: 0 };
  let server: Server;
  let baseUrl = '';

  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return send(res, 400, { status: false, message: 'Invalid JSON' });
    }
    const auth = req.headers.authorization ?? null;
    calls.push({ method: req.method ?? 'GET', path: url.pathname, auth, body });
    const account = accounts.find((a) => auth === `Bearer ${a.secretKey}`);
    if (!account) return send(res, 401, { status: false, message: 'Invalid key' });
    const mine = (reference: string) => {
      const tx = transactions.get(reference);
      return tx && tx.account === account.secretKey ? tx : undefined;
    };

    if (req.method === 'POST' && url.pathname === '/transaction/initialize') {
      const amount = Number(body?.amount);
      if (!body?.email) return send(res, 400, { status: false, message: 'Email is required' });
      if (!Number.isInteger(amount) || amount <= 0) return send(res, 400, { status: false, message: 'Invalid amount sent' });
      const reference = String(body.reference ?? randomBytes(6).toString('hex'));
      if (transactions.has(reference)) return send(res, 400, { status: false, message: 'Duplicate Transaction Reference' });
      const currency = body.currency ?? 'NGN';
      if (account.currency && currency !== account.currency) return send(res, 400, { status: false, message: 'Currency not supported by merchant' });
      transactions.set(reference, {
        account: account.secretKey,
        reference,
        email: body.email,
        amount,
        currency,
        callbackUrl: body.callback_url ?? null,
        status: 'abandoned',
        paidAmount: amount,
        channels: Array.isArray(body.channels) ? body.channels.map(String) : null,
        channel: 'card',
      });
      const accessCode = randomBytes(8).toString('hex');
      return send(res, 200, {
        status: true,
        message: 'Authorization URL created',
        data: { authorization_url: `${baseUrl}/checkout/${accessCode}`, access_code: accessCode, reference },
      });
    }

    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && verify) {
      if (verifyBehaviour.delayMs) await new Promise((r) => setTimeout(r, verifyBehaviour.delayMs));
      if (verifyBehaviour.status >= 500) return send(res, verifyBehaviour.status, { status: false, message: 'Service unavailable' });
      const tx = mine(decodeURIComponent(verify[1]!));
      if (!tx) return send(res, 400, { status: false, message: 'Transaction reference not found' });
      return send(res, 200, {
        status: true,
        message: 'Verification successful',
        data: {
          id: 4099260516,
          domain: 'test',
          status: tx.status,
          reference: tx.reference,
          amount: tx.paidAmount,
          currency: tx.currency,
          gateway_response: tx.status === 'success' ? 'Successful' : tx.status === 'failed' ? 'Declined' : 'The transaction was not completed',
          paid_at: tx.status === 'success' ? new Date().toISOString() : null,
          channel: tx.channel,
          customer: { email: tx.email },
        },
      });
    }
    if (req.method === 'POST' && url.pathname === '/refund') {
      const tx = mine(String(body?.transaction ?? ''));
      if (!tx) return send(res, 404, { status: false, message: 'Transaction not found' });
      if (tx.status !== 'success') return send(res, 400, { status: false, message: 'Cannot refund a transaction that was not successful' });
      const left = tx.paidAmount - refunds.filter((r) => r.reference === tx.reference).reduce((n, r) => n + r.amount, 0);
      if (left <= 0) return send(res, 400, { status: false, message: 'Transaction has been fully reversed' });
      const requested = body.amount === undefined ? undefined : Number(body.amount);
      if (requested !== undefined && (!Number.isInteger(requested) || requested <= 0 || requested > left)) {
        return send(res, 400, { status: false, message: 'Refund amount cannot be more than the transaction amount left' });
      }
      const note = (v: unknown) => (typeof v === 'string' ? v : null);
      const refund: FakeRefund = { id: 3_000_000 + refunds.length, reference: tx.reference, requested, amount: requested ?? left, merchantNote: note(body.merchant_note), customerNote: note(body.customer_note) };
      refunds.push(refund);
      if (refundBehaviour.cut) return void req.socket.destroy();
      if (refundBehaviour.delayMs) await new Promise((r) => setTimeout(r, refundBehaviour.delayMs));
      const now = new Date().toISOString();
      return send(res, 200, {
        status: true,
        message: 'Refund has been queued for processing',
        data: {
          transaction: { id: 4099260516, domain: 'test', reference: tx.reference, amount: tx.paidAmount, currency: tx.currency },
          integration: 412829,
          deducted_amount: 0,
          channel: null,
          merchant_note: refund.merchantNote ?? 'Refund for transaction ' + tx.reference,
          customer_note: refund.customerNote ?? 'Refund for transaction ' + tx.reference,
          status: 'pending',
          refunded_by: 'store@example.com',
          expected_at: now,
          currency: tx.currency,
          domain: 'test',
          amount: refund.amount,
          fully_deducted: false,
          id: refund.id,
          createdAt: now,
          updatedAt: now,
        },
      });
    }
    if (req.method === 'GET' && url.pathname === '/refund') {
      const of = url.searchParams.get('transaction');
      const listed = refunds.filter((r) => transactions.get(r.reference)?.account === account.secretKey && (of === null || r.reference === of));
      return send(res, 200, {
        status: true,
        message: 'Refunds retrieved',
        data: listed.map((r) => ({
          id: r.id,
          integration: 412829,
          domain: 'test',
          transaction: 4099260516,
          amount: r.amount,
          currency: transactions.get(r.reference)!.currency,
          status: 'processed',
          merchant_note: r.merchantNote ?? 'Refund for transaction ' + r.reference,
          customer_note: r.customerNote ?? 'Refund for transaction ' + r.reference,
        })),
        meta: { total: listed.length, perPage: Number(url.searchParams.get('perPage') ?? 50), page: 1 },
      });
    }
    return send(res, 404, { status: false, message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const set = (reference: string, patch: Partial<FakeTransaction>) => {
    const tx = transactions.get(reference);
    if (!tx) throw new Error(`fake paystack: unknown reference ${reference}`);
    Object.assign(tx, patch);
  };
  const fake = {
    webhookUrl: null as string | null,
  };
  async function confirmTransfer(reference: string): Promise<number | null> {
    set(reference, { status: 'success', channel: 'bank_transfer' });
    const tx = transactions.get(reference)!;
    if (!fake.webhookUrl) return null;
    const raw = JSON.stringify({
      event: 'charge.success',
      data: { id: 4099260516, status: 'success', reference, amount: tx.paidAmount, currency: tx.currency, channel: 'bank_transfer', customer: { email: tx.email } },
    });
    const res = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': createHmac('sha512', tx.account).update(raw).digest('hex') },
      body: raw,
    });
    return res.status;
  }
  return {
    get webhookUrl() {
      return fake.webhookUrl;
    },
    set webhookUrl(url: string | null) {
      fake.webhookUrl = url;
    },
    sendTransfer: (ref) => set(ref, { status: 'pending', channel: 'bank_transfer' }),
    confirmTransfer,
    expireTransfer: (ref) => set(ref, { status: 'abandoned', channel: 'bank_transfer' }),
    baseUrl,
    secretKey,
    refundBehaviour,
    transactions,
    calls,
    refunds,
    verifyBehaviour,
    pay: (ref) => set(ref, { status: 'success' }),
    fail: (ref) => set(ref, { status: 'failed' }),
    abandon: (ref) => set(ref, { status: 'abandoned' }),
    payAmount: (ref, amount) => set(ref, { status: 'success', paidAmount: amount }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
