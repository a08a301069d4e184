import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, MAX_CAUSES, redact, REDACTED } from '@/lib/server/infra/log';

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
        // A courier's AWS key pair (ShipLogic's SigV4 credentials), as configured and as passed to its adapter.
        SHIPLOGIC_SECRET_ACCESS_KEY: 'aws-secret-1',
        auth: { accessKeyId: 'AKIA1', secretAccessKey: 'aws-secret-2' },
        code: '4821',
        status: 429,
      }),
    );
    const text = JSON.stringify(line);
    for (const secret of ['Lagos-2026!', 'Abuja-2026!', '4821', 'abc"', 'deadbeef', 'sk_test_123', '0123456789abcdef', 'ml_session=xyz', 'aws-secret-1', 'aws-secret-2']) {
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

  it("logs an error's cause chain (the database's own message and code), scrubbed and bounded", () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01', password: 'Lagos-2026!' });
    const query = new Error('Failed query: update "variants" set "stock" = $1', { cause: deadlock });
    const [line] = capture(() => createLogger('info').error('unexpected error', { err: new Error('sale failed', { cause: query }) }));
    const err = line!.err as { message: string; cause: { message: string; cause: { name: string; message: string; code: string } } };
    expect(err.message).toBe('sale failed');
    expect(err.cause.message).toContain('Failed query');
    expect(err.cause.cause).toMatchObject({ name: 'Error', message: 'deadlock detected', code: '40P01' });
    expect(JSON.stringify(line)).not.toContain('Lagos-2026!');

    // A cause's string and a cause that is no Error are scrubbed like any field.
    const [scrubbed] = capture(() =>
      createLogger('info').error('x', {
        err: new Error('pool', { cause: new Error('connect to postgres://store:s3cret-pw@db.internal/maison failed') }),
        other: new Error('y', { cause: { token: 'tok_abc', detail: 'Bearer tok_def' } }),
      }),
    );
    const text = JSON.stringify(scrubbed);
    for (const secret of ['s3cret-pw', 'tok_abc', 'tok_def']) expect(text).not.toContain(secret);

    // A long or cyclic chain stops.
    let deep = new Error('cause 0');
    for (let i = 1; i <= 20; i++) deep = new Error(`cause ${i}`, { cause: deep });
    const looped = new Error('a');
    const b = new Error('b', { cause: looped });
    (looped as { cause?: unknown }).cause = b;
    const [bounded] = capture(() => createLogger('info').error('z', { deep, looped }));
    let depth = 0;
    for (let e = bounded!.deep as { cause?: unknown }; typeof e.cause === 'object'; e = e.cause as { cause?: unknown }) depth++;
    expect(depth).toBe(MAX_CAUSES);
    expect(JSON.stringify(bounded!.looped)).toContain('[…]');
  });

  it('redact() copes with cycles and leaves the input alone', () => {
    const a: Record<string, unknown> = { token: 't' };
    a.self = a;
    const out = redact(a) as Record<string, unknown>;
    expect(out.token).toBe(REDACTED);
    expect(a.token).toBe('t');
  });
});
