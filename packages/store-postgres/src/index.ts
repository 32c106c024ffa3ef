export { postgresStore, openPGlite, type PostgresStoreOptions } from './postgres-store.js';
export type { PGliteDatabase, PgPool, PgPoolSettings } from './drivers.js';
export { PostgresStore } from './store.js';
export { RESYNC_PAYLOAD, type Unsubscribe } from './notifications.js';
export { LATEST_VERSION, type MigrationResult } from './migrate.js';
export type { FirstIds } from './first-ids.js';
export type { SqlClient, Listening } from './sql/client.js';
