/**
 * Catalogue reads kept in memory, tagged like the route cache and invalidated with it. A signed-in
 * page cannot come from the route cache (it is personal), but the catalogue data on it is the same
 * for everyone: the product, its related products and the menu are read once per change instead
 * of once per request. Values expire after `ttlMs` as well, in case an invalidation is missed.
 */
export class ReadMemo {
  /** `tags` is null while the value loads; a loaded value with no tags is kept for its time only. */
  #entries = new Map<string, { at: number; tags: readonly string[] | null; value: Promise<unknown> }>();
  #max: number;
  #shelves: ReadMemo[] = [];

  constructor(
    private readonly clock: () => Date,
    private readonly ttlMs: number,
    max = 5000,
  ) {
    this.#max = max;
  }

  /** The memoised value of `key`, loading it when absent or expired; failures are not kept. */
  get<T>(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T> {
    const now = this.clock().getTime();
    const hit = this.#entries.get(key);
    if (hit && now - hit.at <= this.ttlMs) return hit.value as Promise<T>;
    if (this.ttlMs <= 0) return load();
    // Settled once, as a real promise: a query builder is a thenable that runs its query again each
    // time it is awaited, so a memo keeping one would read the database on every hit.
    const value = Promise.resolve(load());
    const entry: { at: number; tags: readonly string[] | null; value: Promise<unknown> } = { at: now, tags: null, value };
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
    value.then(
      (v) => {
        entry.tags = tagsOf(v);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return value;
  }

  /**
   * A memo of its own bound (and a shorter life, when given) for another kind of value, so one
   * kind cannot push the others out: pages of search results (bulky), the sessions and cart counts
   * of signed-in pages (many). Invalidated whenever this one is; off when this one is off.
   */
  shelf(max: number, ttlMs = this.ttlMs): ReadMemo {
    const shelf = new ReadMemo(this.clock, Math.min(ttlMs, this.ttlMs), max);
    this.#shelves.push(shelf);
    return shelf;
  }

  invalidate(tags: readonly string[] | 'all'): void {
    for (const shelf of this.#shelves) shelf.invalidate(tags);
    if (tags === 'all') {
      this.#entries.clear();
      return;
    }
    const wanted = new Set(tags);
    for (const [key, entry] of this.#entries) {
      // An entry still loading has no tags yet: drop it too, its data may predate the change.
      if (entry.tags === null || entry.tags.some((t) => wanted.has(t))) this.#entries.delete(key);
    }
  }
}

/** `load`'s value, kept in `memo` when there is one (the app server's; none in scripts) until one of its tags is invalidated. */
export function remember<T>(memo: ReadMemo | undefined, key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T> {
  return memo ? memo.get(key, load, tagsOf) : load();
}
