import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_TERMS, type EventQuery } from '@siterest/core';
import { newEvent, newOrganizer, newVenue, taxonomies } from '@siterest/core/testing';
import { postgresStore, PostgresStore, type SqlClient } from '../src/index.js';
import { Notifications } from '../src/notifications.js';
import type { Row } from '../src/sql/client.js';
import { channelFor } from '../src/sql/identifiers.js';
import type { TransactionOptions } from '../src/sql/limits.js';
import { tablesIn } from '../src/tables.js';
import { dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

interface Statement {
  text: string;
  params: readonly unknown[];
}

/** Records every statement the store sends (the store has no other way to the database than its SqlClient). */
class RecordingClient implements SqlClient {
  constructor(
    private readonly inner: SqlClient,
    readonly log: Statement[],
  ) {}

  get inTransaction(): boolean {
    return this.inner.inTransaction;
  }

  query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    this.log.push({ text, params });
    return this.inner.query<T>(text, params);
  }

  transaction<T>(work: (client: SqlClient) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.inner.transaction((tx) => work(new RecordingClient(tx, this.log)), options);
  }

  maintain(text: string): Promise<void> {
    this.log.push({ text, params: [] });
    return this.inner.maintain(text);
  }

  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void) {
    return this.inner.listen(channel, onMessage, onReconnect);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A value an attacker would send: quotes, comment and statement separators, backslashes, LIKE wildcards. */
const MARK = `Zmark'"; DROP TABLE posts; --\\%_`;

const mentions = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('Zmark') : Array.isArray(value) ? value.some(mentions) : false;

describe('every value the store sends is a bound parameter', () => {
  let db: TestDatabase;
  let plain: PostgresStore;
  let store: PostgresStore;
  const log: Statement[] = [];
  const schema = uniqueSchema('audit');

  beforeAll(async () => {
    db = await openTestDatabase();
    plain = postgresStore({ ...db.connection(), schema });
    await plain.migrate();
    const sql = new RecordingClient(plain.sql, log);
    store = new PostgresStore(sql, tablesIn(schema), { firstIds: {}, migrate: false, migrateOptions: {} }, new Notifications(sql, channelFor(schema)));
    // Opening PGlite alone can take most of a minute on a busy machine.
  }, 180_000);

  afterAll(async () => {
    await plain?.close();
    if (db) {
      await dropSchema(db, schema);
      await db.close();
    }
  });

  it('never writes input into SQL text, whatever the repository', async () => {
    const category = await store.terms.create({ taxonomy: taxonomies.category, name: MARK, slug: `${MARK}-slug`, description: MARK, parentId: 0 });
    await store.terms.update(category.id, { name: `${MARK}2`, description: MARK });
    await store.terms.findBySlug(taxonomies.category, MARK);
    await store.terms.findByName(taxonomies.category, MARK, 0);
    await store.terms.list({ taxonomy: taxonomies.category, search: MARK, slugs: [MARK], orderBy: 'name', order: 'asc', offset: 0, limit: 10 });
    const venue = await store.venues.create(newVenue({ title: MARK, content: MARK, slug: `${MARK}v`, city: MARK, address: MARK }));
    const organizer = await store.organizers.create(newOrganizer({ title: MARK, email: MARK }));
    await store.venues.findByTitle(MARK);
    await store.venues.list({ statuses: [MARK], search: MARK, offset: 0, limit: 10 });
    await store.organizers.update(organizer.id, { title: `${MARK}3`, phone: MARK });
    const event = await store.transaction(async (tx) =>
      tx.events.create(
        newEvent({ title: MARK, content: MARK, excerpt: MARK, slug: `${MARK}e`, status: 'publish', timezone: MARK, cost: [MARK], website: MARK, venueIds: [venue.id], categoryIds: [category.id] }),
      ),
    );
    await store.events.update(event.id, { title: `${MARK}4`, status: MARK, cost: [MARK, MARK] });
    await store.events.list({ statuses: [MARK], search: `${MARK} "${MARK} phrase" -${MARK}`, orderBy: 'start', offset: 0, limit: 10 });
    await store.posts.idBySlug(MARK, MARK);
    await store.posts.slugTaken(MARK, MARK);
    await store.options.set(MARK, { [MARK]: MARK });
    await store.options.get(MARK);
    await store.options.delete(MARK);
    await store.users.create({ login: MARK, email: MARK, displayName: MARK, nicename: MARK, url: MARK, registered: '2026-01-01 00:00:00', roles: [MARK] });
    await store.users.findByLogin(MARK);
    await store.users.findByEmail(MARK);
    await store.applicationPasswords.create({ uuid: MARK, userId: 1, name: MARK, passwordHash: MARK, created: 1, lastUsed: null, lastIp: MARK });
    await store.applicationPasswords.recordUse(MARK, 2, MARK);
    await store.applicationPasswords.delete(MARK);
    await store.publish(MARK, MARK);

    expect(log.filter((s) => mentions(s.params)).length).toBeGreaterThan(20);
    const leaks = log.filter((s) => s.text.includes('Zmark'));
    expect(leaks).toEqual([]);
    // What came back is what went in, quotes and wildcards included.
    expect((await store.events.get(event.id))?.title).toBe(`${MARK}4`);
  });

  it(`turns a search of any length into at most ${MAX_SEARCH_TERMS} conditions`, async () => {
    const search = Array.from({ length: 4_000 }, (_, i) => `word${i}`).join(' ');
    const nine = Array.from({ length: 9 }, (_, i) => `word${i}`).join(' ');
    const conditions = async (run: () => Promise<unknown>) => {
      const from = log.length;
      await run();
      return Math.max(...log.slice(from).map((s) => s.text.split(/ I?LIKE /).length - 1));
    };
    const events: EventQuery = { statuses: ['publish'], orderBy: 'start', offset: 0, limit: 10 };
    const venues = { statuses: ['publish'] as string[], offset: 0, limit: 10 };
    // Events: one test of the searched text per word, and the three columns as well for a phrase with a space (the
    // whole search, once it has too many words); the page and its total read one set of matches, so once per
    // statement. Twelve searched columns for venues, six for organizers, each twice: their page and its total are
    // one statement with the conditions in both (paging.ts, pageAndTotal).
    expect(await conditions(() => store.events.list({ ...events, search }))).toBe(4);
    expect(await conditions(() => store.events.list({ ...events, search: nine }))).toBe(9);
    expect(await conditions(() => store.venues.list({ ...venues, search }))).toBe(12 * 2);
    expect(await conditions(() => store.organizers.list({ ...venues, search: nine }))).toBe(9 * 6 * 2);
  });
});
