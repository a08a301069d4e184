import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/domain/errors';
import { PRODUCTION_SCRYPT_LOG2_N } from '@/lib/server/infra/config';
import { passwordQueue, PASSWORD_QUEUE_BOUNDS, verifyPassword, hashPassword } from '@/lib/server/accounts/passwords';
import { createBoundedQueue } from '@/lib/server/infra/work-queue';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('bounded work queue', () => {
  it('runs at most `concurrency` jobs at once, queues up to `maxWaiting`, refuses the next at once with 503', async () => {
    const q = createBoundedQueue({ concurrency: 2, maxWaiting: 3 });
    const gates = Array.from({ length: 5 }, deferred);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const jobs = gates.map((g, i) =>
      q.run(async () => {
        started.push(i);
        active++;
        peak = Math.max(peak, active);
        await g.promise;
        active--;
        return i;
      }),
    );
    await tick();
    expect(q.running).toBe(2);
    expect(q.waiting).toBe(3);
    expect(started).toEqual([0, 1]);

    // The line is full: the sixth job is refused without waiting.
    const refused = await q.run(async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('unavailable');
    expect((refused as AppError).details?.retryAfter).toBeGreaterThan(0);

    // Finishing jobs hand their slots on, first come first served.
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(q.running).toBe(2);
    expect(q.waiting).toBe(2);
    for (const g of gates) g.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(q.running).toBe(0);
    expect(q.waiting).toBe(0);
  });

  it('a failing job frees its slot', async () => {
    const q = createBoundedQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(q.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(q.running).toBe(0);
    expect(await q.run(async () => 'ok')).toBe('ok');
  });

  it('refuses bad bounds', () => {
    expect(() => createBoundedQueue({ concurrency: 0, maxWaiting: 1 })).toThrow();
  });

  it('password hashing goes through a queue of 2 at once by default', async () => {
    expect(PASSWORD_QUEUE_BOUNDS.concurrency).toBe(2);
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, passwordQueue.running)), 1);
    const hash = await hashPassword('Lagos-2026!');
    const checks = await Promise.all(Array.from({ length: 4 }, (_, i) => verifyPassword(i === 0 ? 'Lagos-2026!' : 'wrong-pass', hash, 'sign-in')));
    clearInterval(timer);
    expect(checks).toEqual([true, false, false, false]);
    expect(peak).toBeLessThanOrEqual(2);
    expect(passwordQueue.running).toBe(0);
  });

  it('lanes: a flood in a lower lane keeps to its share, and a higher lane takes the next free slot', async () => {
    const q = createBoundedQueue({ concurrency: 2, lanes: { urgent: { maxWaiting: 2 }, bulk: { maxWaiting: 5, maxRunning: 1 } } });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const job = (name: string, lane: 'urgent' | 'bulk') => {
      const gate = deferred();
      gates.set(name, gate);
      return q.run(async () => {
        started.push(name);
        await gate.promise;
        return name;
      }, lane);
    };
    const bulk = Array.from({ length: 6 }, (_, i) => job(`b${i}`, 'bulk'));
    await tick();
    // The bulk lane runs one job at once, however many wait; the other slot stays free.
    expect(started).toEqual(['b0']);
    expect(q.runningIn('bulk')).toBe(1);
    expect(q.waitingIn('bulk')).toBe(5);
    // Its line is full: one more is refused at once, without touching the urgent lane.
    await expect(q.run(async () => 'never', 'bulk')).rejects.toMatchObject({ code: 'unavailable' });
    // An urgent job starts at once in the free slot.
    const u0 = job('u0', 'urgent');
    await tick();
    expect(started).toEqual(['b0', 'u0']);
    // With both slots busy, urgent jobs wait, and go before the bulk line when a slot frees.
    const u1 = job('u1', 'urgent');
    await tick();
    gates.get('b0')!.resolve();
    await tick();
    expect(started).toEqual(['b0', 'u0', 'u1']);
    expect(q.waitingIn('bulk')).toBe(5);
    for (const g of gates.values()) g.resolve();
    await Promise.all([u0, u1]);
    for (let i = 0; i < 8 && q.running > 0; i++) {
      for (const g of gates.values()) g.resolve();
      await tick();
    }
    expect(await Promise.all(bulk)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
    expect(q.running).toBe(0);
  });

  it('a sign-up flood does not hold up a login by more than one hash', async () => {
    // How long one hash at the production cost takes here (the machine may be busy).
    const started = Date.now();
    const hash = await hashPassword('Lagos-2026!', PRODUCTION_SCRYPT_LOG2_N);
    const oneHash = Date.now() - started;
    // A flood of sign-ups fills the line (each hashes a new password)...
    const flood = Array.from({ length: 24 }, () => hashPassword('Flood-2026!', PRODUCTION_SCRYPT_LOG2_N).then(() => Date.now()));
    await tick();
    // ...and a shopper signs in meanwhile.
    const loginStarted = Date.now();
    expect(await verifyPassword('Lagos-2026!', hash, 'sign-in')).toBe(true);
    const loginTook = Date.now() - loginStarted;
    const floodEnds = await Promise.all(flood);
    const floodTook = Math.max(...floodEnds) - loginStarted;
    console.log(`one hash ${oneHash} ms; login during a 24-hash sign-up flood ${loginTook} ms; flood ${floodTook} ms`);
    // The login needed at most about one hash of its own (plus slack for a busy machine),
    // while the flood took many times that.
    expect(loginTook).toBeLessThan(3 * oneHash + 200);
    expect(loginTook * 4).toBeLessThan(floodTook);
  }, 120_000);
});
