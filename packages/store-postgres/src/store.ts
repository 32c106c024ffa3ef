import {
  CHANGE_SCOPES,
  type Asked,
  type ChangeScope,
  type ApplicationPasswordRepository,
  type EventRepository,
  type Logger,
  type OptionRepository,
  type OrganizerRecord,
  type OrganizerRepository,
  type NewOrganizer,
  type NewVenue,
  type PostIndex,
  type SiteStore,
  type TermRepository,
  type UserRepository,
  type VenueRecord,
  type VenueRepository,
} from '@siterest/core';
import { applyFirstIds, type FirstIds } from './first-ids.js';
import { LATEST_VERSION, migrateSchema, pendingMigrations, schemaVersion, type MigrateOptions, type MigrationResult } from './migrate.js';
import { Notifications, type Unsubscribe } from './notifications.js';
import { applicationPasswordRepository } from './repositories/site/application-passwords.js';
import { advancingAfter, CONFLICT_ATTEMPTS, conflictBackoff, type Db } from './repositories/db.js';
import { countableSearch, CountedSearches } from './repositories/calendar/counted-searches.js';
import { eventRepository } from './repositories/calendar/events.js';
import { linkedRepository } from './repositories/calendar/linked-posts.js';
import { optionRepository } from './repositories/site/options.js';
import { postIndex } from './repositories/post-index.js';
import { ORGANIZER, ORGANIZER_SEARCH, VENUE, VENUE_SEARCH } from './repositories/post-types.js';
import { termRepository } from './repositories/calendar/terms.js';
import { userRepository } from './repositories/site/users.js';
import { contactFormRepository } from './repositories/contact-forms/contact-forms.js';
import { popupRepository } from './repositories/popups/popups.js';
import { contentRepository } from './repositories/content/content.js';
import { attachmentRepository } from './repositories/media/attachments.js';
import { oembedCacheRepository } from './repositories/oembed/cache.js';
import { redirectionRepositories } from './repositories/redirection/index.js';
import type { SqlClient } from './sql/client.js';
import { isRetryableConflict, isUniqueViolation } from './sql/errors.js';
import type { Tables } from './tables.js';

/**
 * The write methods of the repositories: after each one the change version advances, after a failed one too (see
 * advancingAfter), as after a transaction.
 */
const WRITE_METHODS = ['create', 'update', 'delete', 'set', 'add', 'recordUse'] as const;

function tracked<R extends object>(repository: R, changed: (scope: ChangeScope) => Promise<void>, scope: ChangeScope): R {
  const out = { ...repository } as Record<string, unknown>;
  for (const name of WRITE_METHODS) {
    const method = (repository as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue;
    out[name] = (...args: unknown[]) => advancingAfter(() => (method as (...a: unknown[]) => Promise<unknown>).apply(repository, args), () => changed(scope));
  }
  return out as R;
}

export interface StoreSettings {
  firstIds: FirstIds;
  migrate: boolean;
  migrateOptions: MigrateOptions;
  /** Where work the store does in the background reports what failed (PostgresStoreOptions.logger). */
  logger?: Pick<Logger, 'warn'>;
}

/** The PostgreSQL SiteStore. A transaction gets its own instance bound to the transaction's connection. */
export class PostgresStore implements SiteStore {
  readonly name = 'postgres';
  readonly options: OptionRepository;
  readonly users: UserRepository;
  readonly applicationPasswords: ApplicationPasswordRepository;
  readonly posts: PostIndex;
  readonly events: Asked<EventRepository>;
  readonly venues: Asked<VenueRepository>;
  readonly organizers: Asked<OrganizerRepository>;
  readonly terms: Asked<TermRepository>;
  readonly contactForms: SiteStore['contactForms'];
  readonly popups: SiteStore['popups'];
  readonly content: SiteStore['content'];
  readonly attachments: SiteStore['attachments'];
  readonly oembedCache: SiteStore['oembedCache'];
  readonly redirection: SiteStore['redirection'];

  constructor(
    /** The store's query interface, for tools working on the same data (imports, benchmarks). */
    readonly sql: SqlClient,
    private readonly tables: Tables,
    private readonly settings: StoreSettings,
    private readonly notifications: Notifications,
    /** In a transaction's store: the scopes its writes changed, whose versions advance after the commit. */
    private readonly touched: Set<ChangeScope> | null = null,
    /** The instance's counted searches, shared with its transactions' stores (the root's client runs the fills). */
    private readonly counted: CountedSearches = new CountedSearches({ sql, t: tables }, {}, Date.now, settings.logger),
  ) {
    const db: Db = { sql, t: tables };
    // Inside a transaction the versions advance once, after the commit (see transaction()).
    const changed = (scope: ChangeScope) => {
      if (!this.touched) return this.versionChanged([scope]);
      this.touched.add(scope);
      return Promise.resolve();
    };
    this.options = tracked(optionRepository(db), changed, 'options');
    this.users = tracked(userRepository(db), changed, 'users');
    this.applicationPasswords = tracked(applicationPasswordRepository(db), changed, 'application_passwords');
    this.posts = postIndex(db);
    this.events = tracked(eventRepository(db, counted), changed, 'calendar');
    this.venues = tracked(linkedRepository<VenueRecord, NewVenue>(db, { type: VENUE, eventColumn: 'venue_ids', search: VENUE_SEARCH }), changed, 'calendar');
    this.organizers = tracked(
      linkedRepository<OrganizerRecord, NewOrganizer>(db, { type: ORGANIZER, eventColumn: 'organizer_ids', search: ORGANIZER_SEARCH }),
      changed,
      'calendar',
    );
    this.terms = tracked(termRepository(db), changed, 'calendar');
    // Not tracked: form, submission and popup writes never change an answer the list cache holds.
    this.contactForms = contactFormRepository(db);
    this.popups = popupRepository(db);
    // Not tracked: no cached answer shows content.
    this.content = contentRepository(db);
    // Not `tracked`: media writes advance the change version only when a calendar answer shows them.
    this.attachments = attachmentRepository(db, () => changed('calendar'));
    this.oembedCache = oembedCacheRepository(db);
    // Not tracked: Redirection's writes (hits and log rows above all) must not invalidate cached calendar answers.
    this.redirection = redirectionRepositories(db);
  }

  /** The schema the store keeps its tables in. */
  get schema(): string {
    return this.tables.schema;
  }

  /**
   * Runs `work` in one transaction. When it loses a race PostgreSQL can tell about (a deadlock, a serialization
   * failure, a unique value such as a slug that another transaction took first), the work runs again from the
   * start in a new transaction, where its reads see the winner: the check-then-write logic of a service (a unique
   * slug, "this name exists") then gives the answer it gives when requests come one after another. The work must
   * therefore only touch the store it receives (anything else it does may happen more than once).
   */
  async transaction<T>(work: (store: SiteStore) => Promise<T>): Promise<T> {
    if (this.sql.inTransaction) return work(this);
    let committed = false;
    const touched = new Set<ChangeScope>();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await this.sql.transaction((tx) => work(new PostgresStore(tx, this.tables, this.settings, this.notifications, touched, this.counted)));
          committed = true;
          return result;
        } catch (error) {
          if (attempt >= CONFLICT_ATTEMPTS || !(isRetryableConflict(error) || isUniqueViolation(error))) throw error;
          await conflictBackoff(attempt);
        }
      }
    } finally {
      // After a commit the caller's next read must see the new versions. After a failure the commit may still have
      // happened (its answer lost): readers recheck, without making the failure wait for the database.
      if (committed) await this.versionChanged([...touched]);
      else void this.versionChanged([...touched]);
    }
  }

  /**
   * The sum of the change sequences of `scopes` (`siterest_changes_<scope>`): it grows after every committed write
   * of any instance on this schema to one of them. Rejects while a write of this instance could not advance one.
   */
  async changeVersion(scopes: readonly ChangeScope[] = CHANGE_SCOPES): Promise<number> {
    if (this.versionOwed.size) await this.versionChanged([...this.versionOwed]);
    for (const scope of scopes) if (this.versionOwed.has(scope)) throw new Error(`The change version of ${scope} could not be advanced after a write.`);
    return this.sharedVersionRead(scopes);
  }

  /**
   * Reads the version of `scopes` with a statement that starts after this call — so it sees every write whose
   * advance finished before the call — shared by every call that arrives before it starts. Each cached answer asks
   * for the version; under load, one read per round trip serves them all instead of one statement per request.
   * A read already running when the call arrives may have passed a write that finished since: the call waits for
   * the next one instead.
   */
  private sharedVersionRead(scopes: readonly ChangeScope[]): Promise<number> {
    const text = this.versionQuery(scopes);
    let reads = this.versionReads.get(text);
    if (!reads) this.versionReads.set(text, (reads = { running: null, next: null }));
    const shared = reads;
    if (shared.next) return shared.next;
    const start = (): Promise<number> => {
      const read = this.sql.query<{ version: string | null }>(text, [], { prepare: true }).then((rows) => Number(rows[0]?.version ?? 0));
      shared.running = read;
      const settle = () => {
        if (shared.running === read) shared.running = null;
      };
      read.then(settle, settle);
      return read;
    };
    if (!shared.running) return start();
    const after = shared.running.then(
      () => undefined,
      () => undefined,
    );
    return (shared.next = after.then(() => {
      shared.next = null;
      return start();
    }));
  }

  /** Per version statement: the read running, and the one queued to start after it (see sharedVersionRead). */
  private readonly versionReads = new Map<string, { running: Promise<number> | null; next: Promise<number> | null }>();

  /** One statement reading the sequences of `scopes` (a sequence never called reads as 0). */
  private versionQuery(scopes: readonly ChangeScope[]): string {
    const key = scopes.join(',');
    let text = this.versionQueries.get(key);
    if (text === undefined) {
      const parts = scopes.map((scope) => `(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${this.tables.changes[scope]})`);
      text = `SELECT ${parts.length ? parts.join(' + ') : '0'} AS version`;
      this.versionQueries.set(key, text);
    }
    return text;
  }

  private readonly versionQueries = new Map<string, string>();

  private async advanceVersions(scopes: readonly ChangeScope[]): Promise<void> {
    if (!scopes.length) return;
    await this.sql.query(`SELECT ${scopes.map((scope) => `nextval('${this.tables.changes[scope]}'::regclass)`).join(', ')}`);
  }

  /** The scopes a committed write of this instance could not advance yet (the database went away right after it). */
  private readonly versionOwed = new Set<ChangeScope>();
  private versionRetry: NodeJS.Timeout | null = null;

  /**
   * Advances the versions of `scopes` after a write. Never fails: the write is saved whatever happens here, and
   * answering an error would tell the client it was not (an outage starting just after a commit). Instead the
   * advance is owed — changeVersion() rejects for those scopes meanwhile, so no cached answer is trusted — and
   * retried in the background until the database answers again.
   */
  private async versionChanged(scopes: readonly ChangeScope[]): Promise<void> {
    try {
      await this.advanceVersions(scopes);
      for (const scope of scopes) this.versionOwed.delete(scope);
    } catch {
      for (const scope of scopes) this.versionOwed.add(scope);
      this.retryVersionLater(250);
    }
  }

  private retryVersionLater(delay: number): void {
    if (this.versionRetry || this.closed) return;
    this.versionRetry = setTimeout(() => {
      this.versionRetry = null;
      if (!this.versionOwed.size || this.closed) return;
      const owed = [...this.versionOwed];
      this.advanceVersions(owed).then(
        () => {
          for (const scope of owed) this.versionOwed.delete(scope);
        },
        () => this.retryVersionLater(Math.min(delay * 2, 5_000)),
      );
    }, delay);
    this.versionRetry.unref();
  }

  private closed = false;

  /** Applies pending migrations (idempotent; concurrent callers wait for each other) and the firstIds floors. */
  async migrate(): Promise<MigrationResult> {
    const result = await migrateSchema(this.sql, this.tables, this.settings.migrateOptions);
    await applyFirstIds(this.sql, this.tables, this.settings.firstIds);
    return result;
  }

  /** Checks the schema is migrated (or migrates it with `migrate: true`). */
  async init(): Promise<void> {
    if (this.settings.migrate) {
      await this.migrate();
      return;
    }
    const pending = await pendingMigrations(this.sql, this.tables);
    if (pending.length) {
      const version = await schemaVersion(this.sql, this.tables);
      const state = version < LATEST_VERSION ? `is at version ${version}` : `lacks ${pending.map((m) => `${m.version} (${m.name})`).join(', ')}`;
      throw new Error(
        `The PostgreSQL schema "${this.tables.schema}" ${state}, siterest needs ${LATEST_VERSION}. ` +
          `Run \`await store.migrate()\` or \`DATABASE_URL=… npx siterest-migrate --schema ${this.tables.schema}\`, ` +
          `or create the store with postgresStore({ …, migrate: true }).`,
      );
    }
    await applyFirstIds(this.sql, this.tables, this.settings.firstIds);
  }

  subscribe(channel: string, listener: (payload: string) => void): Unsubscribe {
    return this.notifications.subscribe(channel, listener);
  }

  publish(channel: string, payload: string): Promise<void> {
    return this.notifications.publish(this.sql, channel, payload);
  }

  /**
   * Has the matches of `search` counted by day now (see migration 068), so that event lists with that search read
   * their total and their page's days from the counts. Lists count a common search on their own after they met it
   * (COUNTED_SEARCH_MIN_MATCHES); this is for a search known to be common before anyone asks. Resolves false when
   * the search cannot be counted (a phrase with a space) or another instance is counting it.
   */
  async countSearch(search: string): Promise<boolean> {
    const countable = countableSearch(search);
    return countable ? this.counted.count(countable) : false;
  }

  /** Stops listening and ends what the store opened itself; a pool or PGlite handed in stays open. */
  async close(): Promise<void> {
    if (this.sql.inTransaction) return;
    this.closed = true;
    if (this.versionRetry) clearTimeout(this.versionRetry);
    await this.counted.settled();
    await this.notifications.close();
    await this.sql.close();
  }
}
