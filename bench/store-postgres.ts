/**
 * Benchmark of the PostgreSQL store's event list: seeds a dedicated database in bulk, shows with EXPLAIN
 * that the default list and every filter are index-served (page and total), and measures store-level
 * `events.list` latency.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres EVENTS=1000000 npx tsx bench/store-postgres.ts (after pnpm build)
 *
 * DATABASE_URL is only used to create the benchmark database (BENCH_DATABASE, default siterest_bench) if
 * it is missing; all data goes there, in a schema named after the event count (reused unless RESEED=1). The
 * table goes to the `store-postgres` section of bench/RESULTS.md.
 */
import { pathToFileURL } from 'node:url';
import { machine, recordSection } from './lib/results.js';
import { createSite, silentLogger, type EventQuery } from '@siterest/core';
import { postgresStore, type PostgresStore } from '../packages/store-postgres/src/index.js';
import { COUNTED_SEARCH_MIN_MATCHES } from '../packages/store-postgres/src/repositories/calendar/counted-searches.js';
import { countedSearchBounds, countedSearchBoundsSql, countedSearchOf, countedSearchPageSql, eventListSql } from '../packages/store-postgres/src/repositories/calendar/event-list.js';
import type { Db } from '../packages/store-postgres/src/repositories/db.js';
import { tablesIn } from '../packages/store-postgres/src/tables.js';
import { percentile, summarizePlan, type PlanNode } from './store-postgres-plans.js';
import { seedEvents, type SeedFacts } from './store-postgres-seed.js';

export interface PostgresStoreBenchOptions {
  /** Any database on the server, used to create `database` when missing (default: DATABASE_URL). */
  databaseUrl?: string;
  /** Default: BENCH_DATABASE or siterest_bench. */
  database?: string;
  /** Default: EVENTS or 1,000,000. */
  events?: number;
  /** Timed runs per case, after a warm-up. Default: RUNS or 200. */
  runs?: number;
  /** Seed again even if the schema holds a seed of this size. Default: RESEED=1. */
  reseed?: boolean;
  /** "Now" for the windows; the seed spreads starts over 2022–2029. */
  now?: Date;
  log?: (line: string) => void;
}

export interface PostgresStoreBenchCase {
  name: string;
  total: number;
  pagePlan: string[];
  countPlan: string[];
  /** Big tables read sequentially by the page or count query (should be none). */
  seqScans: string[];
  p50: number;
  p95: number;
  /** The count query on its own. */
  countP50: number;
}

export interface PostgresStoreBenchResult {
  events: number;
  seeded: boolean;
  seedSeconds: number | null;
  cases: PostgresStoreBenchCase[];
  allIndexed: boolean;
  markdown: string;
}

const BIG_TABLES = ['posts', 'events', 'term_relationships', 'event_search'];
const SEED_MARKER = 'bench_seed';
/** Bumped whenever the seed or the schema changes shape: an older seed is then made again. */
const SEED_LAYOUT = 5;

const wp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/**
 * The store queries the API itself makes (its own query shapes: the default window also bounds the end date, the
 * read clause, hidden events left out): each request goes through a site on the store, whose `events.list` call is
 * recorded instead of run.
 */
async function benchCases(store: PostgresStore, now: Date, facts: SeedFacts, sampleIds: number[]): Promise<Array<{ name: string; query: EventQuery }>> {
  const pick = <T>(list: T[], at: number) => list[Math.floor(list.length * at)]!;
  const requests: Array<{ name: string; query: string; editor?: boolean }> = [
    { name: 'default (publish, now → +24 months)', query: '' },
    { name: 'category', query: `categories=${pick(facts.categoryIds, 0.5)}` },
    { name: 'two categories', query: `categories=${pick(facts.categoryIds, 0.2)},${pick(facts.categoryIds, 0.8)}` },
    { name: 'tag', query: `tags=${pick(facts.tagIds, 0.3)}` },
    { name: 'category + tag', query: `categories=${pick(facts.categoryIds, 0.1)}&tags=${pick(facts.tagIds, 0.1)}` },
    { name: 'venue', query: `venue=${pick(facts.venueIds, 0.5)}` },
    { name: 'organizer', query: `organizer=${pick(facts.organizerIds, 0.5)}` },
    { name: 'featured', query: 'featured=true' },
    // TEC Pro's map view: events at venues with coordinates, and those within 25 km of a point (the seed's random
    // coordinates put no venue or one in range).
    { name: 'geoloc', query: 'geoloc=true' },
    { name: 'geoloc near a point', query: 'geoloc=true&geoloc_lat=45&geoloc_lng=5' },
    { name: 'search "saxophone"', query: 'search=saxophone' },
    { name: 'search "jazz night"', query: 'search=jazz%20night' },
    // A word of the seed's vocabulary of 40, found in about one event in ten: a search whose exact total counts thousands.
    { name: 'search "concert"', query: 'search=concert' },
    // The same word within a category: a list with terms is counted plainly, never from the search's day counts.
    { name: 'category + search "concert"', query: `categories=${pick(facts.categoryIds, 0.5)}&search=concert` },
    { name: 'include (50 ids)', query: `include=${sampleIds.join(',')}` },
    { name: 'one month', query: `start_date=${wp(addDays(now, 30)).slice(0, 10)}&end_date=${wp(addDays(now, 60)).slice(0, 10)}` },
    { name: 'ongoing, next 7 days', query: `start_date=${wp(now).slice(0, 10)}&end_date=${wp(addDays(now, 7)).slice(0, 10)}` },
    { name: 'page 50', query: 'page=50' },
    { name: 'editor, status=publish,private', query: 'status=publish,private', editor: true },
  ];
  const site = createSite({ store, cache: false, clock: () => now.getTime(), logger: silentLogger });
  const events = store.events;
  const list = events.list;
  const cases: Array<{ name: string; query: EventQuery }> = [];
  try {
    for (const request of requests) {
      let recorded: EventQuery | undefined;
      events.list = async (query: EventQuery) => {
        recorded = query;
        return { items: [], total: 0 };
      };
      const editor = request.editor ? { id: 1, login: 'editor', roles: ['editor'] } : undefined;
      await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: request.query, headers: {}, principal: editor });
      if (!recorded) throw new Error(`${request.name}: the API made no list query`);
      cases.push({ name: request.name, query: recorded });
    }
  } finally {
    events.list = list;
  }
  return cases;
}

async function explain(store: PostgresStore, text: string, params: unknown[]): Promise<PlanNode> {
  const [row] = await store.sql.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
  const plan = row!['QUERY PLAN'];
  return (typeof plan === 'string' ? (JSON.parse(plan) as Array<{ Plan: PlanNode }>) : plan)[0]!.Plan;
}

async function timings(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(10, runs); i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

/**
 * The statements of a list read from its search's counts (migration 068), with the search counted first when it is
 * common: what the store's lists do on their own after meeting such a search once (COUNTED_SEARCH_MIN_MATCHES), done
 * here before the timings so that they time one way of reading. `count` is then the statement giving the total and
 * the page's days. Undefined for a list read plainly.
 */
async function countedStatements(store: PostgresStore, db: Db, query: EventQuery): Promise<{ page: string; pageParams: unknown[]; count: string; countParams: unknown[] } | undefined> {
  const search = countedSearchOf(query);
  if (!search) return undefined;
  const plain = eventListSql(db, query);
  const [counted] = await store.sql.query<{ n: unknown }>(plain.count, plain.countParams);
  if (Number(counted!.n) < COUNTED_SEARCH_MIN_MATCHES) return undefined;
  await store.countSearch(query.search!);
  const [ready] = await store.sql.query<{ id: unknown }>(`SELECT id FROM ${db.t.eventCountedSearches} WHERE key = $1 AND ready`, [search.key]);
  if (!ready) throw new Error(`The search "${query.search}" could not be counted.`);
  const bounds = countedSearchBoundsSql(db, query, Number(ready.id), search.key);
  const [days] = await store.sql.query(bounds.text, bounds.params);
  const page = countedSearchPageSql(db, query, countedSearchBounds(days!));
  return { page: page.text, pageParams: page.params, count: bounds.text, countParams: bounds.params };
}

/**
 * A fresh, migrated, empty store for HTTP benchmarks (e.g. bench/events-server.ts): schema `http_bench` in
 * the benchmark database, dropped and created again on every call.
 */
export async function openPostgresBenchStore(options: { databaseUrl?: string; database?: string; schema?: string } = {}): Promise<PostgresStore> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('The PostgreSQL benchmark store needs DATABASE_URL.');
  const database = options.database ?? process.env.BENCH_DATABASE ?? 'siterest_bench';
  await ensureDatabase(databaseUrl, database);
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  const store = postgresStore({ connectionString: url.toString(), schema: options.schema ?? 'http_bench', poolConfig: { max: 20, application_name: 'siterest-bench-http' } });
  await store.sql.query(`DROP SCHEMA IF EXISTS "${store.schema}" CASCADE`);
  await store.migrate();
  return store;
}

/**
 * The seed marker, or undefined when the schema is not a (current) benchmark seed. A reused seed first gets the
 * migrations added since it was made: their backfills leave it as a fresh seed would be.
 */
interface SeedMarker {
  layout: number;
  facts: SeedFacts;
  seededAt?: string;
  seedSeconds?: number;
}

async function readMarker(store: PostgresStore): Promise<SeedMarker | undefined> {
  try {
    await store.migrate();
    return (await store.options.get(SEED_MARKER)) as SeedMarker | undefined;
  } catch {
    return undefined;
  }
}

async function ensureDatabase(databaseUrl: string, database: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`Invalid database name "${database}".`);
  const admin = postgresStore({ connectionString: databaseUrl, poolConfig: { max: 1, application_name: 'siterest-bench-admin' } });
  try {
    const exists = await admin.sql.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.length === 0) await admin.sql.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.close();
  }
}

export async function runPostgresStoreBench(options: PostgresStoreBenchOptions = {}): Promise<PostgresStoreBenchResult> {
  const env = process.env;
  const databaseUrl = options.databaseUrl ?? env.DATABASE_URL;
  if (!databaseUrl) throw new Error('The PostgreSQL store benchmark needs DATABASE_URL (any database on the server).');
  const log = options.log ?? (() => undefined);
  const events = options.events ?? (env.EVENTS ? Number(env.EVENTS) : 1_000_000);
  const runs = options.runs ?? (env.RUNS ? Number(env.RUNS) : 200);
  const reseed = options.reseed ?? env.RESEED === '1';
  const now = options.now ?? new Date();
  const database = options.database ?? env.BENCH_DATABASE ?? 'siterest_bench';
  await ensureDatabase(databaseUrl, database);
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  const schema = `bench_${events}`;
  // Seeding a million events and rebuilding their indexes runs statements for minutes: no statement or transaction limit here.
  const store = postgresStore({
    connectionString: url.toString(),
    schema,
    poolConfig: { max: 4, application_name: 'siterest-bench', connectionTimeoutMillis: 30_000 },
    statementTimeout: 0,
    transactionTimeout: 0,
  });
  try {
    const present = (await store.sql.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).length > 0;
    const marker = present ? await readMarker(store) : undefined;
    let facts: SeedFacts;
    let seedSeconds: number | null = null;
    let seed: string;
    if (!marker || marker.layout !== SEED_LAYOUT || reseed) {
      await store.sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await store.migrate();
      log(`Seeding ${events.toLocaleString('en')} events into ${database}.${schema}…`);
      const started = Date.now();
      facts = await seedEvents(store, { events, log });
      seedSeconds = (Date.now() - started) / 1000;
      await store.options.set(SEED_MARKER, { layout: SEED_LAYOUT, events, facts, seededAt: new Date().toISOString(), seedSeconds });
      log(`Seeded in ${seedSeconds.toFixed(0)} s.`);
      seed = `Seeded in ${seedSeconds.toFixed(0)} s.`;
    } else {
      facts = marker.facts;
      const made = [marker.seededAt && `made ${marker.seededAt.slice(0, 16).replace('T', ' ')} UTC`, marker.seedSeconds && `in ${marker.seedSeconds.toFixed(0)} s`].filter(Boolean);
      seed = `Seed reused${made.length ? ` (${made.join(' ')})` : ''}.`;
      log(`Reusing ${database}.${schema} (RESEED=1 to seed again).`);
    }
    const sampleIds = (await store.sql.query<{ id: unknown }>(`SELECT post_id AS id FROM "${schema}".events TABLESAMPLE SYSTEM (1) LIMIT 50`)).map((r) => Number(r.id));

    const cases: PostgresStoreBenchCase[] = [];
    const db = { sql: store.sql, t: tablesIn(schema) };
    for (const { name, query } of await benchCases(store, now, facts, sampleIds)) {
      const built = (await countedStatements(store, db, query)) ?? eventListSql(db, query);
      const page = summarizePlan(await explain(store, built.page, built.pageParams), BIG_TABLES);
      const count = summarizePlan(await explain(store, built.count, built.countParams), BIG_TABLES);
      const listMs = await timings(runs, () => store.events.list(query));
      const countMs = await timings(Math.max(20, Math.floor(runs / 4)), () => store.sql.query(built.count, built.countParams));
      const { total } = await store.events.list(query);
      const result: PostgresStoreBenchCase = {
        name,
        total,
        pagePlan: page.scans,
        countPlan: count.scans,
        seqScans: [...new Set([...page.seqScans, ...count.seqScans])],
        p50: percentile(listMs, 50),
        p95: percentile(listMs, 95),
        countP50: percentile(countMs, 50),
      };
      cases.push(result);
      log(`  ${name}: total ${total}, p50 ${result.p50.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms${result.seqScans.length ? `, SEQ SCAN on ${result.seqScans.join(', ')}` : ''}`);
    }
    const allIndexed = cases.every((c) => c.seqScans.length === 0);
    const server = await serverFacts(store);
    const setting = `Machine: ${machine()}. ${server} Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ${seed}`;
    return { events, seeded: seedSeconds !== null, seedSeconds, cases, allIndexed, markdown: toMarkdown(events, runs, cases, setting) };
  } finally {
    await store.close();
  }
}

/** The server's version and the settings the figures depend on most (the cache size, whether tables are vacuumed on their own). */
async function serverFacts(store: PostgresStore): Promise<string> {
  const [row] = await store.sql.query<{ version: string; buffers: string; autovacuum: string }>(
    `SELECT current_setting('server_version') AS version, current_setting('shared_buffers') AS buffers, current_setting('autovacuum') AS autovacuum`,
  );
  return `PostgreSQL ${row!.version}, shared_buffers ${row!.buffers}, autovacuum ${row!.autovacuum}.`;
}

function toMarkdown(events: number, runs: number, cases: PostgresStoreBenchCase[], setting: string): string {
  const ms = (n: number) => n.toFixed(2);
  const lines = [
    `### PostgreSQL store: \`events.list\` over ${events.toLocaleString('en')} events (${runs} runs per case)`,
    '',
    `${setting} Command: \`DATABASE_URL=… EVENTS=${events} npx tsx bench/store-postgres.ts\` (or \`pnpm bench\` with DATABASE_URL and BENCH_STORE_EVENTS).`,
    '',
    '| case | total | page query scans | count query scans | index-served | p50 ms | p95 ms | count p50 ms |',
    '| --- | ---: | --- | --- | :---: | ---: | ---: | ---: |',
    ...cases.map(
      (c) =>
        `| ${c.name} | ${c.total.toLocaleString('en')} | ${c.pagePlan.join(', ')} | ${c.countPlan.join(', ')} | ${c.seqScans.length ? `no (seq scan: ${c.seqScans.join(', ')})` : 'yes'} | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.countP50)} |`,
    ),
    '',
    'Each case is the store query the API makes for the request named (recorded from a site on the store). IOS = index-only scan, IS = index scan, BIS = bitmap index scan, SEQ = sequential scan. p50/p95 are store-level `events.list` (page + total); the total is exact, from the day counts plus the bound days when the list filters only on status, visibility, hidden flag and dates (docs/architecture.md), from the search\'s own day counts for a search of 1,000 matches or more (counted before the timings, as the store does after meeting it once; the count column then times the statement that reads the total and the page\'s days), else a count(*).',
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runPostgresStoreBench({ log: (line) => console.log(line) }).then(
    (result) => {
      console.log(`\n${result.markdown}\n`);
      recordSection('store-postgres', result.markdown);
      console.log('results written to bench/RESULTS.md');
      if (!result.allIndexed) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
