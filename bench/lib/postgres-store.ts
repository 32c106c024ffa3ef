/** The events benchmark server's PostgreSQL store: a fresh, migrated schema in the benchmark database. */
export { openPostgresBenchStore as openBenchPostgres } from '../store-postgres.js';
