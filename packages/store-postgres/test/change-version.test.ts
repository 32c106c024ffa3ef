import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

/**
 * The change version read by every cached answer: concurrent reads share one statement, and a read never answers
 * with a statement that started before it was asked (it would miss a write that finished in between).
 */
let db: TestDatabase;
let store: PostgresStore;
/** A second instance on the same schema, as another process of the app would be. */
let other: PostgresStore;
const schema = uniqueSchema('changeversion');

beforeAll(async () => {
  db = await openTestDatabase();
  store = postgresStore({ ...db.connection('siterest-test-a'), schema });
  other = postgresStore({ ...db.connection('siterest-test-b'), schema });
  await store.migrate();
});

afterAll(async () => {
  await store?.close();
  await other?.close();
  if (db) {
    await dropSchema(db, schema);
    await db.close();
  }
});

/** Counts the version statements `store` sends. */
function countVersionReads(target: PostgresStore): { reads: () => number; restore: () => void } {
  const sql = target.sql;
  const query = sql.query;
  let reads = 0;
  sql.query = ((text: string, ...rest: unknown[]) => {
    if (/^SELECT \(SELECT CASE WHEN is_called/.test(text)) reads++;
    return (query as (...args: unknown[]) => unknown).call(sql, text, ...rest);
  }) as typeof sql.query;
  return { reads: () => reads, restore: () => void (sql.query = query) };
}

describe('change version', () => {
  it('shares one statement among concurrent reads, at most one running and one waiting', async () => {
    const counter = countVersionReads(store);
    try {
      const versions = await Promise.all(Array.from({ length: 200 }, () => store.changeVersion(['calendar'])));
      expect(new Set(versions).size).toBe(1);
      // The first call starts a read; the others arrive while it runs and share the one queued after it.
      expect(counter.reads()).toBeLessThanOrEqual(2);
    } finally {
      counter.restore();
    }
  });

  it('never answers a read with a statement that started before it, so a write finished before it is seen', async () => {
    const before = await store.changeVersion(['calendar']);
    // A read that has its (old) answer but has not returned it yet: its result is held back until the write is done.
    const sql = store.sql;
    const query = sql.query;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    sql.query = ((text: string, ...rest: unknown[]) => {
      const result = (query as (...args: unknown[]) => Promise<unknown>).call(sql, text, ...rest);
      if (held || !/^SELECT \(SELECT CASE WHEN is_called/.test(text)) return result;
      held = true;
      return result.then(async (rows) => {
        await gate;
        return rows;
      });
    }) as typeof sql.query;
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
      sql.query = query;
    }
    // Scopes are read apart: another scope's reads are not held back by this one's.
    expect(await store.changeVersion(['users'])).toBe(await other.changeVersion(['users']));
  });
});
