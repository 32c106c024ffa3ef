import { consoleLogger, type SiteStore } from '@siterest/core';
import { openPGlite, postgresStore } from '@siterest/store-postgres';

/**
 * PostgreSQL when DATABASE_URL is set, migrated on start: a server (`postgres://…`), or PGlite kept in a
 * directory (`pglite:./data`, or `pglite:memory`) for a database without a server. The store reports failed
 * background work (a common search's count) on the console, as the site's default logger does.
 */
export async function openPostgresStore(databaseUrl: string): Promise<SiteStore> {
  if (databaseUrl.startsWith('pglite:')) {
    const place = databaseUrl.slice('pglite:'.length);
    return postgresStore({ pglite: await openPGlite(place === 'memory' ? undefined : place), migrate: true, logger: consoleLogger });
  }
  return postgresStore({ connectionString: databaseUrl, migrate: true, logger: consoleLogger });
}
