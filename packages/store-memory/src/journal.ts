import type { ChangeScope } from '@siterest/core';

/**
 * Undo log for the memory store's transactions: every mutation records how to revert itself, so a failed
 * transaction leaves no partial write behind.
 */
export class Journal {
  private readonly undo: Array<() => void> = [];
  /** What the transaction's writes changed: their versions advance when it ends. */
  readonly touched = new Set<ChangeScope>();

  record(revert: () => void): void {
    this.undo.push(revert);
  }

  rollback(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]!();
    this.undo.length = 0;
  }
}

/** A map whose changes can be journaled. */
export class JournaledMap<K, V> {
  readonly map = new Map<K, V>();

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  get size(): number {
    return this.map.size;
  }

  set(key: K, value: V, journal: Journal | null): void {
    if (journal) {
      const had = this.map.has(key);
      const old = this.map.get(key);
      journal.record(() => (had ? this.map.set(key, old as V) : this.map.delete(key)));
    }
    this.map.set(key, value);
  }

  delete(key: K, journal: Journal | null): boolean {
    if (!this.map.has(key)) return false;
    if (journal) {
      const old = this.map.get(key) as V;
      journal.record(() => this.map.set(key, old));
    }
    return this.map.delete(key);
  }
}

/** Serialises writers: single writes and whole transactions run one at a time. */
export class WriteLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
