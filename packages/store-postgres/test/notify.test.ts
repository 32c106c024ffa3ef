import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@siterest/core/testing';
import { postgresStore, RESYNC_PAYLOAD, type PostgresStore } from '../src/index.js';
import { dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

// Two instances of the app: on a server each has its own pool; on PGlite they share the one database.
let db: TestDatabase;
let a: PostgresStore;
let b: PostgresStore;
let elsewhere: PostgresStore;
const schema = uniqueSchema('notify');
const otherSchema = uniqueSchema('notify_other');

beforeAll(async () => {
  db = await openTestDatabase();
  a = postgresStore({ ...db.connection('siterest-test-a'), schema });
  b = postgresStore({ ...db.connection('siterest-test-b'), schema });
  elsewhere = postgresStore({ ...db.connection('siterest-test-other'), schema: otherSchema });
  await a.migrate();
  await elsewhere.migrate();
});

afterAll(async () => {
  await Promise.all([a, b, elsewhere].map((s) => s?.close()));
  if (db) {
    await dropSchema(db, schema);
    await dropSchema(db, otherSchema);
    await db.close();
  }
});

/** Resolves with the next `count` payloads a store hears on a channel. */
function collect(store: PostgresStore, channel: string, count: number): { done: Promise<string[]>; ready: Promise<void>; stop: () => void } {
  const seen: string[] = [];
  let finish!: (payloads: string[]) => void;
  const done = new Promise<string[]>((resolve) => (finish = resolve));
  const unsubscribe = store.subscribe(channel, (payload) => {
    seen.push(payload);
    if (seen.length === count) finish(seen);
  });
  return { done, ready: unsubscribe.ready, stop: unsubscribe };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('many instances', () => {
  it('sees a change made through another instance at once', async () => {
    const event = await a.events.create(newEvent({ title: 'Written by A' }));
    expect((await b.events.get(event.id))?.title).toBe('Written by A');
    await b.events.update(event.id, { title: 'Edited by B' });
    expect((await a.events.get(event.id))?.title).toBe('Edited by B');
  });

  it('delivers a publish on one instance to the listeners of another (LISTEN/NOTIFY)', async () => {
    const onB = collect(b, 'redirects', 2);
    const onA = collect(a, 'redirects', 2);
    await Promise.all([onB.ready, onA.ready]);
    await a.publish('redirects', 'changed:12');
    await b.publish('redirects', JSON.stringify({ id: 13 }));
    expect(await onB.done).toEqual(['changed:12', '{"id":13}']);
    expect(await onA.done).toEqual(['changed:12', '{"id":13}']);
    onA.stop();
    onB.stop();
  });

  it('keeps channels and schemas apart, and stops after unsubscribe', async () => {
    const heard: string[] = [];
    const off = b.subscribe('menus', (p) => heard.push(`menus:${p}`));
    const offOther = elsewhere.subscribe('menus', (p) => heard.push(`other-schema:${p}`));
    await Promise.all([off.ready, offOther.ready]);
    await a.publish('redirects', 'not for menus');
    await a.publish('menus', 'one');
    await settle();
    off();
    await a.publish('menus', 'two');
    await settle();
    offOther();
    expect(heard).toEqual(['menus:one']);
  });

  it('publishes from a transaction only when it commits', async () => {
    const heard = collect(b, 'cache', 1);
    await heard.ready;
    await expect(
      a.transaction(async (tx) => {
        await tx.publish!('cache', 'rolled back');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await a.transaction(async (tx) => tx.publish!('cache', 'committed'));
    expect(await heard.done).toEqual(['committed']);
    heard.stop();
  });

  it('can subscribe again after unsubscribing before LISTEN was even in effect', async () => {
    const c = postgresStore({ ...db.connection('siterest-test-c'), schema });
    const early = c.subscribe('flaky', () => undefined);
    early();
    const heard = collect(c, 'flaky', 1);
    await heard.ready;
    await a.publish('flaky', 'still heard');
    expect(await heard.done).toEqual(['still heard']);
    heard.stop();
    await c.close();
  });

  it('uses a payload no publisher sends for "resync"', () => {
    expect(RESYNC_PAYLOAD).toBe('*');
  });
});
