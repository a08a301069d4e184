import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/domain/errors';
import { passwordQueue, PASSWORD_QUEUE_BOUNDS, verifyPassword, hashPassword } from '../../src/lib/server/passwords';
import { createBoundedQueue } from '../../src/lib/server/work-queue';

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
    const checks = await Promise.all(Array.from({ length: 4 }, (_, i) => verifyPassword(i === 0 ? 'Lagos-2026!' : 'wrong-pass', hash)));
    clearInterval(timer);
    expect(checks).toEqual([true, false, false, false]);
    expect(peak).toBeLessThanOrEqual(2);
    expect(passwordQueue.running).toBe(0);
  });
});
