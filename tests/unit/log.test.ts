import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, redact, REDACTED } from '@/lib/server/infra/log';

afterEach(() => vi.restoreAllMocks());

function capture(run: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  run();
  vi.restoreAllMocks();
  return lines.map((l) => JSON.parse(l));
}

describe('the logger never writes secrets', () => {
  it('replaces secret fields at any depth and keeps the rest', () => {
    const [line] = capture(() =>
      createLogger('info').child({ requestId: 'r1' }).warn('login', {
        email: 'ada@example.com',
        password: 'Lagos-2026!',
        body: { newPassword: 'Abuja-2026!', confirm_password: 'Abuja-2026!', otp: '4821', nested: [{ sessionToken: 'abc', apiKey: 'k' }] },
        headers: { authorization: 'Bearer 0123456789abcdef', cookie: 'ml_session=xyz' },
        tokenHash: 'deadbeef',
        PAYSTACK_SECRET_KEY: 'sk_test_123',
        code: '4821',
        status: 429,
      }),
    );
    const text = JSON.stringify(line);
    for (const secret of ['Lagos-2026!', 'Abuja-2026!', '4821', 'abc"', 'deadbeef', 'sk_test_123', '0123456789abcdef', 'ml_session=xyz']) {
      expect(text).not.toContain(secret);
    }
    expect(line).toMatchObject({ level: 'warn', msg: 'login', requestId: 'r1', email: 'ada@example.com', password: REDACTED, code: REDACTED, status: 429 });
    expect((line!.body as Record<string, unknown>).otp).toBe(REDACTED);
  });

  it('keeps error codes, and scrubs URL credentials and bearer tokens inside strings and errors', () => {
    const [line] = capture(() =>
      createLogger('info').error('failed', {
        code: 'payment_failed',
        err: new Error('connect to postgres://store:s3cret-pw@db.internal:5432/maison failed; header Bearer tok_abc.def'),
      }),
    );
    expect(line!.code).toBe('payment_failed');
    const err = line!.err as { message: string; stack: string };
    expect(err.message).toBe(`connect to postgres://store:${REDACTED}@db.internal:5432/maison failed; header Bearer ${REDACTED}`);
    expect(err.stack).not.toContain('s3cret-pw');
    expect(JSON.stringify(line)).not.toContain('tok_abc');
  });

  it('redact() copes with cycles and leaves the input alone', () => {
    const a: Record<string, unknown> = { token: 't' };
    a.self = a;
    const out = redact(a) as Record<string, unknown>;
    expect(out.token).toBe(REDACTED);
    expect(a.token).toBe('t');
  });
});
