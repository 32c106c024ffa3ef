import { searchTerms, type Logger } from '@siterest/core';
import { containsPattern } from '../../sql/like.js';
import { sleep } from '../../sql/limits.js';
import { hasNul, Params } from '../../sql/params.js';
import type { Db } from '../db.js';
import { eventSearchConditions } from '../search-sql.js';

/**
 * A list whose search matched at least this many events in its window has that search counted (migration 068).
 * Counted plainly, a search costs from about 2 µs a match (one common word at a million events: 20,000 matches,
 * 35 ms) to 6 µs (two words whose trigrams narrow less: 1,459 matches, 9–16 ms), so below this it stays within a
 * few milliseconds.
 */
export const COUNTED_SEARCH_MIN_MATCHES = 1000;

/**
 * At most this many searches are counted at once; a new one drops the one used longest ago. Every write of an event
 * tests its text against each of them (one LIKE each), and each costs a fill and a row per (status, hidden flag,
 * start day, end day) it matches.
 */
const MAX_COUNTED_SEARCHES = 16;

/**
 * An instance starts at most one fill per this many ms. Any visitor can ask for a common search; a fill reads every
 * match of it (about a second for one event in ten at a million events), so this bounds what searches can make the
 * database do in the background, whatever they ask.
 */
const FILL_INTERVAL_MS = 60_000;

/** A fill claimed this long ago and still not ready was left by an instance that stopped: another takes it over. */
const ABANDONED_FILL = '10 minutes';

/** The ready searches are read again when the last read is older than this (a list never waits for it). */
const REFRESH_MS = 5_000;

/** A search's `used` (which decides what is dropped) is written at most this often by one instance. */
const USE_STAMP_MS = 600_000;

/** Longest a fill waits for the writers that were under way when its search was claimed. */
const WRITERS_WAIT_MS = 30_000;

/** Longest the fill's count may run: longer than a request's statement, as it runs once, in the background. */
const FILL_STATEMENT_TIMEOUT_MS = 60_000;

/** A search as the counts know it: its terms in one order (`key`), and the LIKE patterns of the terms. */
export interface CountableSearch {
  readonly key: string;
  readonly search: string;
  readonly patterns: readonly string[];
  readonly excluded: readonly string[];
}

/**
 * The counted form of `search`, or undefined when its matches cannot be counted by text alone: a term with a space
 * (a phrase may match across two columns, which event_search's joined text cannot tell) or with a NUL character.
 * Two searches with the same terms in any order are one counted search.
 */
export function countableSearch(search: string): CountableSearch | undefined {
  const terms = searchTerms(search);
  if (terms.some((term) => term.text.includes(' ') || hasNul(term.text))) return undefined;
  const words = [...new Set(terms.map((term) => `${term.exclude ? '-' : '+'}${term.text}`))].sort();
  return {
    // Terms hold no line feed (searchTerms drops them), so the joined key names one set of terms.
    key: words.join('\n'),
    search,
    patterns: words.filter((word) => word[0] === '+').map((word) => containsPattern(word.slice(1))),
    excluded: words.filter((word) => word[0] === '-').map((word) => containsPattern(word.slice(1))),
  };
}

/**
 * The counted searches of one store instance: which are ready (read every few seconds), and the fills it runs.
 * A list whose search is ready reads its total and its page's days from the counts (listEvents); a list that counted
 * a common search plainly hands it here (`noteTotal`), and the search is counted in the background, at most one fill
 * at a time and one a minute per instance.
 */
export class CountedSearches {
  private ready = new Map<string, number>();
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;
  private lastFill = -Infinity;
  private filling: Promise<unknown> | undefined;
  /** Hand-overs waiting for the ready searches to be read (noteTotal), awaited by settled(). */
  private readonly deciding = new Set<Promise<unknown>>();
  private readonly stamped = new Map<number, number>();
  /** Writes of `used` under way, awaited by settled(). */
  private readonly stamping = new Set<Promise<unknown>>();

  constructor(
    /** The store's own client, outside any caller's transaction: fills and reads of the list commit on their own. */
    private readonly db: Db,
    /** COUNTED_SEARCH_MIN_MATCHES, FILL_INTERVAL_MS and WRITERS_WAIT_MS unless given (tests). */
    private readonly limits: { minMatches?: number; fillIntervalMs?: number; writersWaitMs?: number } = {},
    private readonly now: () => number = Date.now,
    /** Where a fill that failed is reported (nothing waits for a fill started by a list). */
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /** The id of the counts of `search` when they were ready at the last read; the list's statement checks again. */
  idOf(search: CountableSearch): number | undefined {
    if (this.now() - this.readAt > REFRESH_MS) void this.refresh();
    return this.ready.get(search.key);
  }

  /** A list read the counts of search `id`: its `used` moves on, so it is not the next dropped. */
  used(id: number): void {
    const at = this.now();
    if (at - (this.stamped.get(id) ?? -Infinity) < USE_STAMP_MS) return;
    this.stamped.set(id, at);
    const stamping = this.db.sql
      .query(`UPDATE ${this.db.t.eventCountedSearches} SET used = now() WHERE id = $1`, [id])
      .catch(() => undefined)
      .finally(() => this.stamping.delete(stamping));
    this.stamping.add(stamping);
  }

  /** A list counted `total` matches of `search` plainly: a common search is counted, in the background. */
  noteTotal(search: CountableSearch, total: number): void {
    if (total < (this.limits.minMatches ?? COUNTED_SEARCH_MIN_MATCHES) || this.filling) return;
    // Decided on a fresh read of the ready searches: right after an instance starts it has read none, and a search
    // another instance counted would be claimed in vain, using up the minute's fill.
    if (this.now() - this.readAt > REFRESH_MS) {
      const deciding = this.refresh()
        .then(() => {
          if (this.now() - this.readAt <= REFRESH_MS) this.noteTotal(search, total);
        })
        .finally(() => this.deciding.delete(deciding));
      this.deciding.add(deciding);
      return;
    }
    if (this.ready.has(search.key)) return;
    const at = this.now();
    if (at - this.lastFill < (this.limits.fillIntervalMs ?? FILL_INTERVAL_MS)) return;
    this.lastFill = at;
    // A failed fill leaves its claim, taken over after ABANDONED_FILL; nothing waits for it, so it is only reported.
    this.filling = this.count(search)
      .catch((error: unknown) => {
        try {
          this.logger?.warn('a common search could not be counted; its lists are counted the plain way', {
            terms: search.patterns.length + search.excluded.length,
            error: error instanceof Error ? error.message : String(error),
          });
        } catch {
          // An app's logger that throws must not leave a rejection no one handles (which ends the process).
        }
        return false;
      })
      .finally(() => (this.filling = undefined));
  }

  /** Resolves once the fill under way, if any, has ended (the store's close, tests). */
  async settled(): Promise<void> {
    // A hand-over may start a fill once its read ends: waited for until nothing is under way.
    while (this.filling || this.reading || this.deciding.size || this.stamping.size) {
      await Promise.all([this.filling, this.reading, ...this.deciding, ...this.stamping]);
    }
  }

  /**
   * Counts `search` now: claims it (or finds it claimed by another instance: false), drops the searches used longest
   * ago beyond MAX_COUNTED_SEARCHES, waits for the writers under way, fills the counts and marks them ready (true).
   * Also what an operator can call to have a search counted before anyone asks.
   */
  async count(search: CountableSearch): Promise<boolean> {
    const { sql, t } = this.db;
    const claimed = await sql.query<{ id: string }>(
      `INSERT INTO ${t.eventCountedSearches} AS w (key, patterns, excluded)
       VALUES ($1, ARRAY(SELECT lower(p) FROM unnest($2::text[]) p), ARRAY(SELECT lower(p) FROM unnest($3::text[]) p))
       ON CONFLICT (key) DO UPDATE SET fill_started = now() WHERE NOT w.ready AND w.fill_started < now() - interval '${ABANDONED_FILL}'
       RETURNING id`,
      [search.key, [...search.patterns], [...search.excluded]],
    );
    if (!claimed.length) return false;
    const id = Number(claimed[0]!.id);
    await sql.query(
      `DELETE FROM ${t.eventCountedSearches} WHERE id IN (SELECT id FROM ${t.eventCountedSearches} WHERE id <> $1 ORDER BY used DESC, id DESC OFFSET $2)`,
      [id, MAX_COUNTED_SEARCHES - 1],
    );
    await sql.query(`DELETE FROM ${t.eventSearchCounts} c WHERE NOT EXISTS (SELECT 1 FROM ${t.eventCountedSearches} w WHERE w.id = c.search_id)`);
    await this.waitForWriters();
    const filled = await fillCounts(this.db, id, search);
    await this.refresh();
    return filled;
  }

  /**
   * Waits until every transaction that was writing event_search when this was called has ended. A writer whose
   * trigger did not see the newly claimed search held its lock on event_search (or a partition) then, since the
   * trigger runs after the write and the claim committed before this: once those have ended, every change the
   * counts' deltas miss is committed, and the fill's snapshot sees it. Writers starting later are never waited for
   * (a LOCK TABLE would queue them behind it).
   */
  private async waitForWriters(): Promise<void> {
    const { sql, t } = this.db;
    const rows = await sql.query<{ vxid: string }>(
      `SELECT DISTINCT l.virtualtransaction AS vxid FROM pg_locks l
        WHERE l.locktype = 'relation' AND l.mode = 'RowExclusiveLock' AND l.granted AND l.pid IS DISTINCT FROM pg_backend_pid()
          AND l.relation IN (SELECT $1::regclass UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
      [t.eventSearch],
    );
    const writers = rows.map((row) => row.vxid);
    const deadline = this.now() + (this.limits.writersWaitMs ?? WRITERS_WAIT_MS);
    while (writers.length) {
      const open = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'virtualxid' AND virtualxid = ANY($1::text[])`, [writers]);
      if (!open[0]!.n) return;
      if (this.now() > deadline) throw new Error('Writers of event_search stayed open too long for a search to be counted.');
      await sleep(20);
    }
  }

  /** Reads which searches are ready; concurrent calls share one read. */
  private refresh(): Promise<void> {
    this.reading ??= this.db.sql
      .query<{ id: string; key: string }>(`SELECT id, key FROM ${this.db.t.eventCountedSearches} WHERE ready`)
      .then((rows) => {
        this.ready = new Map(rows.map((row) => [row.key, Number(row.id)]));
        for (const id of this.stamped.keys()) if (![...this.ready.values()].includes(id)) this.stamped.delete(id);
        this.readAt = this.now();
      })
      .catch(() => undefined)
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}

/**
 * Fills the counts of search `id` and marks them ready, in one transaction. The counts already hold the deltas of
 * the writers that saw the claim; some of those committed before the fill's snapshot and are in what it counts too.
 * So one statement, with one snapshot, adds (what it counts) − (the deltas it sees) to each row: the rows' latest
 * values (every delta, committed before or after) plus that leave the count as of the snapshot plus the deltas
 * committed after it, which is exact. An upsert waits for a writer inserting the same row meanwhile and then adds to
 * its value. The rows are written in key order, as the trigger writes them, after the count has been read: they
 * are locked only for the moment the transaction takes to commit.
 */
async function fillCounts(db: Db, id: number, search: CountableSearch): Promise<boolean> {
  return db.sql.transaction(async (sql) => {
    const params = new Params();
    const searchId = params.add(id, 'bigint');
    const { conditions } = eventSearchConditions(params, search.search, 's.body', []);
    await sql.query(
      `INSERT INTO ${db.t.eventSearchCounts} AS c (search_id, status, hide_from_listings, start_day, end_day, n)
       SELECT ${searchId}, status, hide_from_listings, start_day, end_day, sum(n) FROM (
         SELECT s.status, s.hide_from_listings, s.start_utc::date AS start_day, s.end_utc::date AS end_day, count(*) AS n
           FROM ${db.t.eventSearch} s WHERE ${conditions.length ? conditions.join(' AND ') : 'TRUE'} GROUP BY 1, 2, 3, 4
         UNION ALL
         SELECT status, hide_from_listings, start_day, end_day, -n FROM ${db.t.eventSearchCounts} WHERE search_id = ${searchId}
       ) found
       GROUP BY status, hide_from_listings, start_day, end_day HAVING sum(n) <> 0 ORDER BY status, hide_from_listings, start_day, end_day
       ON CONFLICT (search_id, status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n`,
      params.values,
    );
    // No row when the search was dropped meanwhile: its counts are then left to the next fill's clean-up.
    const marked = await sql.query(`UPDATE ${db.t.eventCountedSearches} SET ready = true, used = now() WHERE id = $1 RETURNING id`, [id]);
    return marked.length === 1;
  }, { statementTimeout: FILL_STATEMENT_TIMEOUT_MS, timeout: FILL_STATEMENT_TIMEOUT_MS + 5_000 });
}
