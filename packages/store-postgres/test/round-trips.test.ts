import { describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger } from '@siterest/core';
import { newEvent, newOrganizer, newVenue, taxonomies } from '@siterest/core/testing';
import type { PostgresStore } from '../src/index.js';
import { emptySchema, useMigratedStore } from './support/database.js';
import { explainAnalyze, nodesOf, withStatements, type PlanNode } from './support/plans.js';

/**
 * Statements a list answer takes on PostgreSQL when nothing is cached: each is a round trip, and the calendar's
 * short lists (venues, organizers, terms) used to take a second one for their total, and a term filter resolved
 * its terms twice (once to validate, once to query).
 */
const migrated = useMigratedStore('round_trips');
const NOW = '2026-11-21T16:41:37Z';

const VERSION_READ = /^SELECT \(SELECT CASE WHEN is_called/;

/** The statements (other than change-version reads) `store` runs while `work` does, with their values, as sent. */
async function statementsRun(store: PostgresStore, work: () => Promise<unknown>): Promise<Array<{ text: string; values: unknown[] }>> {
  const { statements } = await withStatements(store, work);
  return statements.filter(([text]) => !VERSION_READ.test(text)).map(([text, values]) => ({ text, values }));
}

/** The statements' texts, whitespace folded (see statementsRun). */
async function statementsOf(store: PostgresStore, work: () => Promise<unknown>): Promise<string[]> {
  return (await statementsRun(store, work)).map(({ text }) => text.replace(/\s+/g, ' '));
}

/** A scan of term rows that finds events (not the lookup by event of each record's own terms). */
const readsTermRows = (node: PlanNode) => node['Relation Name'] === 'term_relationships' && node['Index Name'] !== 'term_relationships_pkey';

/** The plan `statement` runs with (EXPLAIN ANALYZE), and all its nodes. */
async function planOf(store: PostgresStore, statement: { text: string; values: unknown[] }): Promise<{ plan: PlanNode; nodes: PlanNode[] }> {
  const plan = await explainAnalyze(store, statement.text, statement.values);
  return { plan, nodes: nodesOf(plan) };
}

async function setUp() {
  await emptySchema(migrated.db, migrated.schema);
  const store = migrated.store;
  const site = createSite({ store, cache: false, fragments: false, settings: { name: 'Test', url: 'http://example.test' }, clock: manualClock(NOW), logger: silentLogger });
  await site.ready();
  const get = async (path: string, query = '') => {
    const answer = await site.handle({ method: 'GET', path, query, headers: {}, basePath: '/api' });
    expect(answer.status, answer.body).toBe(200);
    return { body: answer.body, header: (name: string) => answer.headers.find(([key]) => key === name)?.[1] };
  };
  return { store, get };
}

describe('round trips of uncached calendar lists', () => {
  it('reads a full page of venues or organizers and its total in one statement', async () => {
    const { store, get } = await setUp();
    for (let n = 0; n < 3; n++) {
      await store.venues.create(newVenue({ title: `Hall ${n}` }));
      await store.organizers.create(newOrganizer({ title: `Band ${n}` }));
    }
    for (const kind of ['venues', 'organizers']) {
      let answer: Awaited<ReturnType<typeof get>> | undefined;
      // Two a page: the page is full, so the total could not be told from it.
      const statements = await statementsOf(store, async () => (answer = await get(`/cal/events/v1/${kind}`, 'per_page=2')));
      expect(statements, statements.join('\n')).toHaveLength(1);
      expect(answer!.header('X-TEC-Total')).toBe('3');
      expect((JSON.parse(answer!.body) as Record<string, unknown[]>)[kind]).toHaveLength(2);
    }
  });

  it('counts a venues or organizers list from the posts of its kind, not by walking every post', async () => {
    const { store, get } = await setUp();
    // Venues and organizers made first (the lowest ids), then many posts of another kind after them: the plan the
    // count used to get walked the posts by id, the kind as a filter, to the last post of the site.
    for (let n = 0; n < 20; n++) await store.venues.create(newVenue({ title: `Hall ${n}` }));
    for (let n = 0; n < 20; n++) await store.organizers.create(newOrganizer({ title: `Band ${n}` }));
    const posts = `"${migrated.schema}".posts`;
    const stamp = "'2026-01-01 00:00:00'";
    await store.sql.query(
      `INSERT INTO ${posts} (id, type, status, post_date, post_date_gmt, post_modified, post_modified_gmt)
       SELECT 100000 + g, 'cal_events', 'publish', ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, 5000) g`,
    );
    await store.sql.query(`ANALYZE ${posts}, "${migrated.schema}".venues, "${migrated.schema}".organizers`);
    for (const kind of ['venues', 'organizers']) {
      const seen = await statementsRun(store, () => get(`/cal/events/v1/${kind}`, 'per_page=2'));
      expect(seen).toHaveLength(1);
      const { plan, nodes } = await planOf(store, seen[0]!);
      // Rows of posts read and thrown away by a filter, over the whole plan (the page and its count).
      const discarded = nodes.reduce((sum, node) => sum + (node['Relation Name'] === 'posts' ? (node['Rows Removed by Filter'] ?? 0) : 0), 0);
      expect(discarded, JSON.stringify(plan)).toBeLessThan(100);
    }
  });

  it('keeps the term lookup by slug and list pages without a search prepared, and a search not', async () => {
    const { store, get } = await setUp();
    await store.terms.create({ taxonomy: taxonomies.category, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
    await store.venues.create(newVenue({ title: 'Blue Hall' }));
    const sql = store.sql;
    const query = sql.query;
    const seen: Array<{ text: string; prepare: boolean }> = [];
    sql.query = ((text: string, values?: unknown[], options?: { prepare?: boolean }) => {
      if (!VERSION_READ.test(text)) seen.push({ text, prepare: options?.prepare === true });
      return (query as (...args: unknown[]) => Promise<unknown>).call(sql, text, values, options);
    }) as typeof sql.query;
    try {
      await get('/cal/events/v1/events', 'categories=jazz');
      expect(seen.find((s) => s.text.includes('t.slug = $2'))?.prepare).toBe(true);
      for (const [path, query, prepared] of [
        ['/cal/events/v1/venues', '', true],
        ['/cal/events/v1/venues', 'search=blue', false],
        ['/cal/events/v1/venues', 'only_with_upcoming=1', false],
        ['/cal/events/v1/organizers', 'has_events=1', false],
        ['/cal/events/v1/categories', 'hide_empty=0', true],
        ['/cal/events/v1/categories', 'hide_empty=0&search=ja', false],
      ] as const) {
        seen.length = 0;
        await get(path, query);
        expect(seen.map((s) => s.prepare), `${path}?${query}`).toEqual([prepared]);
      }
    } finally {
      sql.query = query;
    }
  });

  it('still counts a page asked for past the end, which has no row to carry the total', async () => {
    const { store } = await setUp();
    for (let n = 0; n < 3; n++) await store.venues.create(newVenue({ title: `Hall ${n}` }));
    const statements = await statementsOf(store, async () => {
      expect(await store.venues.list({ statuses: ['publish'], offset: 4, limit: 2 })).toEqual({ items: [], total: 3 });
      expect(await store.venues.list({ statuses: ['publish'], offset: 2, limit: 2 })).toMatchObject({ total: 3 });
    });
    expect(statements).toHaveLength(3);
  });

  it('reads a full page of terms and its total in one statement', async () => {
    const { store, get } = await setUp();
    for (const name of ['Jazz', 'Rock', 'Folk']) await store.terms.create({ taxonomy: taxonomies.category, name, slug: name.toLowerCase(), description: '', parentId: 0 });
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(store, async () => (answer = await get('/cal/events/v1/categories', 'per_page=2&hide_empty=0')));
    expect(statements, statements.join('\n')).toHaveLength(1);
    expect(answer!.header('X-TEC-Total')).toBe('3');
  });

  it('resolves each term of a filter once, though both the validation and the query need it', async () => {
    const { store, get } = await setUp();
    const jazz = await store.terms.create({ taxonomy: taxonomies.category, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
    await store.events.create(newEvent({ categoryIds: [jazz.id], startDateUtc: '2027-01-01 10:00:00', endDateUtc: '2027-01-01 12:00:00' }));
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await statementsOf(store, async () => (answer = await get('/cal/events/v1/events', 'categories=jazz&start_date=2026-12-01')));
    expect(answer!.header('X-TEC-Total')).toBe('1');
    const termLookups = statements.filter((text) => text.includes('t.slug = $2'));
    expect(termLookups, statements.join('\n')).toHaveLength(1);
  });

  it('finds the events of a category and a tag together once, for both the page and its total', async () => {
    const { store } = await setUp();
    const jazz = await store.terms.create({ taxonomy: taxonomies.category, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
    const free = await store.terms.create({ taxonomy: taxonomies.tag, name: 'Free', slug: 'free', description: '', parentId: 0 });
    for (let n = 0; n < 6; n++) {
      const day = `2027-01-${String(10 + n).padStart(2, '0')}`;
      await store.events.create(newEvent({ categoryIds: [jazz.id], tagIds: n % 2 ? [free.id] : [], startDateUtc: `${day} 10:00:00`, endDateUtc: `${day} 12:00:00` }));
    }
    let page: Awaited<ReturnType<typeof store.events.list>> | undefined;
    const seen = await statementsRun(store, async () => {
      page = await store.events.list({ statuses: ['publish'], categoryIds: [jazz.id], tagIds: [free.id], excludeHidden: true, orderBy: 'start', offset: 0, limit: 2 });
    });
    expect(page!.total).toBe(3);
    expect(seen).toHaveLength(1);
    const { plan, nodes } = await planOf(store, seen[0]!);
    // The events are found in event_search, whose index holds both lists (migration 70): each partition of the window
    // read once, for the page and the total alike, and no term rows read to find them (the records' own lookups of
    // their terms by event aside). Joined once for the page and again for the total, the term rows were read twice.
    expect(nodes.filter(readsTermRows), JSON.stringify(plan)).toEqual([]);
    const partitions = nodes.map((node) => node['Relation Name']).filter((name): name is string => /^event_search_/.test(name ?? ''));
    expect(partitions.length, JSON.stringify(plan)).toBeGreaterThan(0);
    expect(new Set(partitions).size, JSON.stringify(plan)).toBe(partitions.length);
  });

  it('reads the page of one category or tag from its term rows in start order, not every row of the term sorted first', async () => {
    const { store } = await setUp();
    const jazz = await store.terms.create({ taxonomy: taxonomies.category, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
    const free = await store.terms.create({ taxonomy: taxonomies.tag, name: 'Free', slug: 'free', description: '', parentId: 0 });
    // 3,000 events in both, in one statement each (as an import would write them; the term rows' keys are given).
    const t = (table: string) => `"${migrated.schema}".${table}`;
    const stamp = "'2026-01-01 00:00:00'";
    const start = "timestamp '2027-01-01 00:00:00' + g * interval '1 hour'";
    await store.sql.query(
      `INSERT INTO ${t('posts')} (id, type, status, title, slug, post_date, post_date_gmt, post_modified, post_modified_gmt)
       SELECT 300000 + g, 'cal_events', 'publish', 'Event ' || g, 'event-' || g, ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, 3000) g`,
    );
    await store.sql.query(
      `INSERT INTO ${t('events')} (post_id, status, start_local, end_local, start_utc, end_utc, timezone)
       SELECT 300000 + g, 'publish', to_char(${start}, 'YYYY-MM-DD HH24:MI:SS'), to_char(${start} + interval '1 hour', 'YYYY-MM-DD HH24:MI:SS'),
              ${start}, ${start} + interval '1 hour', 'UTC' FROM generate_series(1, 3000) g`,
    );
    for (const term of [jazz, free]) {
      await store.sql.query(
        `INSERT INTO ${t('term_relationships')} (object_id, term_id, taxonomy, object_type, status, start_utc, end_utc)
         SELECT 300000 + g, $1::bigint, $2::text, 'cal_events', 'publish', ${start}, ${start} + interval '1 hour' FROM generate_series(1, 3000) g`,
        [term.id, term.taxonomy],
      );
    }
    await store.sql.query(`ANALYZE ${t('posts')}, ${t('events')}, ${t('term_relationships')}`);

    for (const filter of [{ categoryIds: [jazz.id] }, { tagIds: [free.id] }]) {
      let page: Awaited<ReturnType<typeof store.events.list>> | undefined;
      const seen = await statementsRun(store, async () => {
        page = await store.events.list({ statuses: ['publish'], ...filter, excludeHidden: true, orderBy: 'start', startsAfter: '2027-02-01 00:00:00', offset: 0, limit: 10 });
      });
      expect([page!.total, page!.items.map((event) => event.startDateUtc)[0]]).toEqual([3000 - 31 * 24 + 1, '2027-02-01 00:00:00']);
      expect(seen).toHaveLength(1);
      const { plan, nodes } = await planOf(store, seen[0]!);
      // With `term_id = ANY(…)` for the one term, the page sorted all 2,257 of its rows in the window for the first ten.
      const sorts = nodes.filter((node) => node['Node Type'] === 'Sort' && nodesOf(node).some(readsTermRows));
      expect(sorts, JSON.stringify(plan)).toEqual([]);
    }
  });
});
