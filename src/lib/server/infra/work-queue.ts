import { Unavailable } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';

export interface LaneBounds {
  /** Jobs of this lane allowed to wait for a free slot; one more is refused at once. */
  maxWaiting: number;
  /** Jobs of this lane running at once (its share of `concurrency`); all of it when unset. */
  maxRunning?: number;
}

/** One lane: `{ concurrency, maxWaiting }`. Several: `{ concurrency, lanes }`, in order of priority. */
export type QueueBounds<L extends string> = { concurrency: number } & ({ maxWaiting: number; lanes?: never } | { lanes: Record<L, LaneBounds> });

/**
 * A bounded work queue: at most `concurrency` jobs run at once, at most `maxWaiting` wait
 * per lane (first come, first served within a lane), and a job beyond that is refused
 * immediately with 503 (Unavailable) instead of queueing without end. Used for password
 * hashing, so a flood keeps its CPU and memory share bounded and other requests keep being served.
 *
 * Lanes share the slots: a freed slot goes to the first lane (in the order given) that has a
 * job waiting and is under its own `maxRunning`. A lane whose share is smaller than
 * `concurrency` leaves the other slots to the lanes before it, so a flood in one lane cannot
 * hold up another by more than the jobs already running.
 */
export function createBoundedQueue<L extends string = 'default'>(bounds: QueueBounds<L>) {
  const { concurrency } = bounds;
  const laneBounds = (bounds.lanes ?? { default: { maxWaiting: (bounds as { maxWaiting: number }).maxWaiting } }) as Record<L, LaneBounds>;
  const order = Object.keys(laneBounds) as L[];
  if (!(concurrency >= 1) || order.length === 0) throw new Error('queue bounds must be concurrency >= 1 with at least one lane');
  for (const lane of order) {
    const { maxWaiting, maxRunning = concurrency } = laneBounds[lane];
    if (!(maxWaiting >= 0) || !(maxRunning >= 1)) throw new Error(`lane ${lane} must have maxWaiting >= 0 and maxRunning >= 1`);
  }
  const lanes = Object.fromEntries(
    order.map((lane) => [lane, { running: 0, waiting: [] as Array<() => void>, cap: Math.min(concurrency, laneBounds[lane].maxRunning ?? concurrency), maxWaiting: laneBounds[lane].maxWaiting }]),
  ) as Record<L, { running: number; waiting: Array<() => void>; cap: number; maxWaiting: number }>;
  let running = 0;

  const hasRoom = (lane: L) => running < concurrency && lanes[lane].running < lanes[lane].cap;
  const take = (lane: L) => {
    running++;
    lanes[lane].running++;
  };
  /** Hands free slots to waiting jobs, lanes in order of priority. */
  const dispatch = () => {
    for (const lane of order) {
      const { waiting } = lanes[lane];
      while (waiting.length > 0 && hasRoom(lane)) {
        take(lane);
        waiting.shift()!();
      }
    }
  };

  return {
    get running() {
      return running;
    },
    get waiting() {
      return order.reduce((n, lane) => n + lanes[lane].waiting.length, 0);
    },
    runningIn(lane: L): number {
      return lanes[lane].running;
    },
    waitingIn(lane: L): number {
      return lanes[lane].waiting.length;
    },
    /** Runs `job` in `lane` (by default the last one, the lowest priority). */
    async run<T>(job: () => Promise<T>, lane: L = order[order.length - 1]!): Promise<T> {
      const own = lanes[lane];
      if (own.waiting.length === 0 && hasRoom(lane)) take(lane);
      else if (own.waiting.length >= own.maxWaiting) throw new Unavailable(message('busy'));
      // The slot is taken for this job by dispatch() before it is woken.
      else await new Promise<void>((resolve) => own.waiting.push(resolve));
      try {
        return await job();
      } finally {
        running--;
        own.running--;
        dispatch();
      }
    },
  };
}
export type BoundedQueue<L extends string = 'default'> = ReturnType<typeof createBoundedQueue<L>>;
