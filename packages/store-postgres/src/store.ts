import type {
  ApplicationPasswordRepository,
  EventRepository,
  OptionRepository,
  OrganizerRecord,
  OrganizerRepository,
  NewOrganizer,
  NewVenue,
  PostIndex,
  SiteStore,
  TermRepository,
  UserRepository,
  VenueRecord,
  VenueRepository,
} from '@siterest/core';
import { applyFirstIds, type FirstIds } from './first-ids.js';
import { LATEST_VERSION, migrateSchema, schemaVersion, type MigrateOptions, type MigrationResult } from './migrate.js';
import { Notifications, type Unsubscribe } from './notifications.js';
import { applicationPasswordRepository } from './repositories/application-passwords.js';
import type { Db } from './repositories/db.js';
import { eventRepository } from './repositories/events.js';
import { linkedRepository } from './repositories/linked-posts.js';
import { optionRepository } from './repositories/options.js';
import { postIndex } from './repositories/post-index.js';
import { ORGANIZER, ORGANIZER_SEARCH, VENUE, VENUE_SEARCH } from './repositories/post-types.js';
import { termRepository } from './repositories/terms.js';
import { userRepository } from './repositories/users.js';
import type { SqlClient } from './sql/client.js';
import type { Tables } from './tables.js';

export interface StoreSettings {
  firstIds: FirstIds;
  migrate: boolean;
  migrateOptions: MigrateOptions;
}

/** The PostgreSQL SiteStore. A transaction gets its own instance bound to the transaction's connection. */
export class PostgresStore implements SiteStore {
  readonly name = 'postgres';
  readonly options: OptionRepository;
  readonly users: UserRepository;
  readonly applicationPasswords: ApplicationPasswordRepository;
  readonly posts: PostIndex;
  readonly events: EventRepository;
  readonly venues: VenueRepository;
  readonly organizers: OrganizerRepository;
  readonly terms: TermRepository;

  constructor(
    /** The store's query interface, for tools working on the same data (imports, benchmarks). */
    readonly sql: SqlClient,
    private readonly tables: Tables,
    private readonly settings: StoreSettings,
    private readonly notifications: Notifications,
  ) {
    const db: Db = { sql, t: tables };
    this.options = optionRepository(db);
    this.users = userRepository(db);
    this.applicationPasswords = applicationPasswordRepository(db);
    this.posts = postIndex(db);
    this.events = eventRepository(db);
    this.venues = linkedRepository<VenueRecord, NewVenue>(db, { type: VENUE, eventColumn: 'venue_ids', search: VENUE_SEARCH });
    this.organizers = linkedRepository<OrganizerRecord, NewOrganizer>(db, { type: ORGANIZER, eventColumn: 'organizer_ids', search: ORGANIZER_SEARCH });
    this.terms = termRepository(db);
  }

  /** The schema the store keeps its tables in. */
  get schema(): string {
    return this.tables.schema;
  }

  transaction<T>(work: (store: SiteStore) => Promise<T>): Promise<T> {
    if (this.sql.inTransaction) return work(this);
    return this.sql.transaction((tx) => work(new PostgresStore(tx, this.tables, this.settings, this.notifications)));
  }

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
    const version = await schemaVersion(this.sql, this.tables);
    if (version < LATEST_VERSION) {
      throw new Error(
        `The PostgreSQL schema "${this.tables.schema}" is at version ${version}, siterest needs ${LATEST_VERSION}. ` +
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

  /** Stops listening and ends what the store opened itself; a pool or PGlite handed in stays open. */
  async close(): Promise<void> {
    if (this.sql.inTransaction) return;
    await this.notifications.close();
    await this.sql.close();
  }
}
