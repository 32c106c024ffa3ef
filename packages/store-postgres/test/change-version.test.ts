import { beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@siterest/core/testing';
import type { PostgresStore } from '../src/index.js';
import { useSharedSchema } from './support/database.js';

/**
 * The change version read by every cached answer: concurrent reads share one statement, and a read never answers
 * with a statement that started before it was asked (it would miss a write that finished in between).
 */
const shared = useSharedSchema('changeversion');
let store: PostgresStore;
/** A second instance on the same schema, as another process of the app would be. */
let other: PostgresStore;
beforeAll(() => void ({ store, other } = shared));

const VERSION_READ = /^SELECT \(SELECT CASE WHEN is_called/;

/**
 * Routes the results of `target`'s version statements through `through` (every other statement untouched), until
 * the returned function undoes it.
 */
function interceptVersionReads(target: PostgresStore, through: (rows: Promise<unknown>) => Promise<unknown>): () => void {
  const sql = target.sql;
  const query = sql.query;
  sql.query = ((text: string, ...rest: unknown[]) => {
    const result = (query as (...args: unknown[]) => Promise<unknown>).call(sql, text, ...rest);
    return VERSION_READ.test(text) ? through(result) : result;
  }) as typeof sql.query;
  return () => void (sql.query = query);
}

describe('change version', () => {
  it('shares one statement among concurrent reads, at most one running and one waiting', async () => {
    let reads = 0;
    const restore = interceptVersionReads(store, (rows) => (reads++, rows));
    try {
      const versions = await Promise.all(Array.from({ length: 1000 }, () => store.changeVersion(['calendar'])));
      expect(new Set(versions).size).toBe(1);
      // The first call starts a read; the others arrive while it runs and share the one queued after it.
      expect(reads).toBeLessThanOrEqual(2);
    } finally {
      restore();
    }
  });

  it('never answers a read with a statement that started before it, so a write finished before it is seen', async () => {
    const before = await store.changeVersion(['calendar']);
    // A read that has its (old) answer but has not returned it yet: its result is held back until the write is done.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const restore = interceptVersionReads(store, (rows) => {
      if (held) return rows;
      held = true;
      return rows.then(async (value) => {
        await gate;
        return value;
      });
    });
    try {
      const early = store.changeVersion(['calendar']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Another instance writes and advances the version while that read is still running.
      await other.events.create(newEvent({ title: 'Written meanwhile' }));
      const late = store.changeVersion(['calendar']);
      release();
      expect(await early).toBe(before);
      expect(await late).toBeGreaterThan(before);
    } finally {
      restore();
    }
    // Another set of scopes has a read of its own, and both instances agree on it.
    expect(await store.changeVersion(['users'])).toBe(await other.changeVersion(['users']));
  });
});
