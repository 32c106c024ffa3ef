import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clockStartingAt, createSite, localFileStorage, smtpTransport, type Site, type SiteStore } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { memoryStore } from '@siterest/store-memory';
import type { ExampleConfig } from './config.js';

const PASSWORD_NAME = 'siterest example server';

export interface ExampleSite {
  site: Site;
  apiUrl: string;
  login: string;
  /** The admin's application password when it was generated on this start (shown once). */
  generatedPassword: string | null;
}

async function openStore(config: ExampleConfig): Promise<SiteStore> {
  if (!config.DATABASE_URL) return memoryStore();
  const { openPostgresStore } = await import('./postgres.js');
  return openPostgresStore(config.DATABASE_URL);
}

/** The demo site both example servers embed: store, clock, admin user, credentials and demo data. */
export async function createExampleSite(config: ExampleConfig): Promise<ExampleSite> {
  // Uploads live in a folder the server publishes at <site url>/uploads (the URL follows the address it listens on).
  const directory = config.SITEREST_UPLOADS ? resolve(config.SITEREST_UPLOADS) : join(tmpdir(), 'siterest-demo-uploads');
  const site: Site = createSite({
    store: await openStore(config),
    settings: { name: config.SITEREST_SITE_NAME ?? 'siterest demo' },
    clock: config.SITEREST_NOW ? clockStartingAt(config.SITEREST_NOW) : undefined,
    // Contact form mail goes out through this relay; without it, mail is kept in the store's outbox.
    mail: config.SITEREST_SMTP_URL ? smtpTransport(config.SITEREST_SMTP_URL) : undefined,
    files: localFileStorage({ directory, baseUrl: () => `${site.settings.home}/uploads` }),
  });
  await site.ready();
  const admin =
    (await site.store.users.findByLogin('admin')) ??
    (await site.createUser({ login: 'admin', email: 'admin@example.com', displayName: 'admin', roles: ['administrator'] }));
  await site.revokeApplicationPasswords(admin.id, PASSWORD_NAME);
  const { password } = await site.createApplicationPassword(admin.id, PASSWORD_NAME, {
    password: config.SITEREST_ADMIN_PASSWORD,
  });
  // A database that already holds a calendar is not seeded again.
  const empty = (await site.store.events.list({ statuses: 'any', orderBy: 'start', offset: 0, limit: 1 })).total === 0;
  if (config.SITEREST_SEED === 'demo' && empty) await seedDemoSite(site);
  return {
    site,
    apiUrl: `${site.settings.home}/api/`,
    login: 'admin',
    generatedPassword: config.SITEREST_ADMIN_PASSWORD ? null : password,
  };
}

/** Once listening, the site learns its own address (links in responses are absolute). */
export async function announceAddress(example: ExampleSite, host: string, port: number): Promise<void> {
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  await example.site.updateSettings({ url, home: url });
  example.apiUrl = `${url}/api/`;
}

/** What the server prints on start: where it is and how to sign in (a generated secret is shown once). */
export function banner(framework: string, example: ExampleSite): string {
  const credentials = example.generatedPassword
    ? `application password (generated, shown once): ${example.generatedPassword}`
    : 'application password: the value of SITEREST_ADMIN_PASSWORD';
  return [
    `siterest demo (${framework}) listening on ${example.apiUrl}`,
    `sign in with HTTP Basic: user "${example.login}", ${credentials}`,
    `try: curl ${example.apiUrl}cal/events/v1/categories`,
    `redirects: curl -i ${example.apiUrl.replace(/api\/$/, '')}old-page`,
  ].join('\n');
}
