import { Unavailable } from '../domain/errors';

export interface QueueBounds {
  /** Jobs running at once. */
  concurrency: number;
  /** Jobs allowed to wait for a free slot; one more is refused at once. */
  maxWaiting: number;
}

/**
 * A bounded work queue: at most `concurrency` jobs run at once, at most `maxWaiting` wait
 * (first come, first served), and a job beyond that is refused immediately with 503
 * (Unavailable) instead of queueing without end. Used for password hashing, so a flood of
 * logins keeps its CPU and memory share bounded and other requests keep being served.
 */
export function createBoundedQueue({ concurrency, maxWaiting }: QueueBounds) {
  if (!(concurrency >= 1) || !(maxWaiting >= 0)) throw new Error('queue bounds must be concurrency >= 1 and maxWaiting >= 0');
  let running = 0;
  const waiting: Array<() => void> = [];

  return {
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else if (waiting.length >= maxWaiting) throw new Unavailable();
      // The finishing job hands its slot straight to the next in line, so `running` stays put.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await job();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
export type BoundedQueue = ReturnType<typeof createBoundedQueue>;
