import type { SiteStore } from '@siterest/core';
import { openPGlite, postgresStore } from '@siterest/store-postgres';

/**
 * PostgreSQL when DATABASE_URL is set, migrated on start: a server (`postgres://…`), or PGlite kept in a
 * directory (`pglite:./data`, or `pglite:memory`) for a database without a server.
 */
export async function openPostgresStore(databaseUrl: string): Promise<SiteStore> {
  if (databaseUrl.startsWith('pglite:')) {
    const place = databaseUrl.slice('pglite:'.length);
    return postgresStore({ pglite: await openPGlite(place === 'memory' ? undefined : place), migrate: true });
  }
  return postgresStore({ connectionString: databaseUrl, migrate: true });
}
