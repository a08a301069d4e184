import { describe, expect, it } from 'vitest';
import { ReadMemo } from '@/lib/server/infra/read-memo';

describe('the read memo', () => {
  const now = () => new Date(0);

  it('loads a value once and again after one of its tags is invalidated', async () => {
    const memo = new ReadMemo(now, 60_000);
    let loads = 0;
    const read = () => memo.get('product:1', async () => ++loads, () => ['product:1']);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    memo.invalidate(['product:2']);
    expect(await read()).toBe(1);
    memo.invalidate(['product:1']);
    expect(await read()).toBe(2);
  });

  it('keeps bulky values on a shelf with its own bound, invalidated with the memo', async () => {
    const memo = new ReadMemo(now, 60_000);
    const shelf = memo.shelf(2);
    let loads = 0;
    const read = (key: string) => shelf.get(key, async () => ++loads, () => ['listing']);
    await read('a');
    await read('b');
    await read('c'); // the shelf holds two: the oldest ('a') goes
    expect(loads).toBe(3);
    await read('c');
    expect(loads).toBe(3);
    await read('a');
    expect(loads).toBe(4);
    memo.invalidate(['listing']);
    await read('a');
    expect(loads).toBe(5);
  });

  it('keeps a value loaded without tags for its time only, whatever is invalidated; drops one still loading', async () => {
    let at = 0;
    const memo = new ReadMemo(() => new Date(at), 15_000);
    let loads = 0;
    const read = () => memo.get('top', async () => ++loads, () => []);
    await read();
    memo.invalidate(['listing']);
    await read();
    expect(loads).toBe(1);
    at = 16_000;
    await read();
    expect(loads).toBe(2);
    // Invalidated while loading: its data may predate the change, so the next read loads again.
    let finish!: (n: number) => void;
    const slow = memo.get('slow', () => new Promise<number>((resolve) => (finish = resolve)), () => []);
    memo.invalidate(['listing']);
    finish(1);
    await slow;
    expect(await memo.get('slow', async () => 2, () => [])).toBe(2);
  });

  it('runs a lazy load (a query builder: a thenable that runs again each time it is awaited) once', async () => {
    const memo = new ReadMemo(now, 60_000);
    let runs = 0;
    const query = { then: (resolve: (n: number) => void) => resolve(++runs) } as unknown as Promise<number>;
    for (let i = 0; i < 3; i++) expect(await memo.get('top', () => query, () => [])).toBe(1);
    expect(runs).toBe(1);
  });
});
