import type { SiteStore } from '@siterest/core';

/** PostgreSQL when DATABASE_URL is set (the PostgreSQL store migrates on start). */
export async function openPostgresStore(databaseUrl: string): Promise<SiteStore> {
  void databaseUrl;
  throw new Error('DATABASE_URL is set, but this build has no PostgreSQL store yet.');
}
