import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createSite, localFileStorage, manualClock, silentLogger, type RoleName, type Site, type SiteStore } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { basicAuth, rawRequest, type RawRequestOptions, type RunningServer } from '@siterest/core/testing';
import { serveSiteWithExpress, serveSiteWithFastify } from '../support/serve-site.js';
import type { StoreSnapshot, StoreVariant } from '../support/stores.js';

export type Caller = RoleName | 'anonymous';
const ROLES: readonly RoleName[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

/** One route of the root index: its path pattern (WordPress regex syntax), its methods and the args they read. */
export interface IndexedRoute {
  pattern: string;
  methods: string[];
  args: string[];
}

export interface Answer {
  /** 0 when no well-formed HTTP answer came back. */
  status: number;
  headers: Array<[string, string]>;
  raw: string;
  ms: number;
}

export interface FuzzSite {
  site: Site;
  store: SiteStore;
  server: RunningServer;
  /** Every route the root index lists, read from `GET /api/` once the site is seeded. */
  routes: IndexedRoute[];
  /** The namespaces the root index lists. */
  namespaces: string[];
  /** Every arg name any endpoint declares. */
  argNames: string[];
  /** A request to the API root (path and query as sent, already encoded) as a caller, timed. */
  send(caller: Caller, target: string, options?: RawRequestOptions): Promise<Answer>;
  snapshot(): Promise<StoreSnapshot>;
}

/**
 * A demo site (every namespace populated: events, venues, organizers, terms, images, a contact form, a popup,
 * redirects) with one user per WordPress role, served at /api with the redirect middleware at the root, as an
 * app embeds it. Outbound requests (oEmbed, remote images) resolve no host, so the suite never leaves the machine.
 */
export function useFuzzSite(variant: StoreVariant, adapter: 'express' | 'fastify'): FuzzSite {
  const handle = {} as FuzzSite;
  let uploads = '';
  beforeAll(async () => {
    uploads = mkdtempSync(join(tmpdir(), 'siterest-fuzz-'));
    const store = await variant.create();
    const site = createSite({
      store,
      clock: manualClock('2026-11-21T16:41:37Z'),
      logger: silentLogger,
      settings: { name: 'Fuzz', url: 'http://127.0.0.1:8080' },
      files: localFileStorage({ directory: uploads, baseUrl: 'http://127.0.0.1:8080/uploads' }),
      media: { outbound: { resolve: async () => [], timeoutMs: 500 } },
    });
    const auth = {} as Record<RoleName, string>;
    await site.createUser({ login: 'admin', roles: ['administrator'] });
    for (const role of ROLES) {
      const login = role === 'administrator' ? 'admin' : role;
      if (role !== 'administrator') await site.createUser({ login, roles: [role] });
      auth[role] = basicAuth(login, (await site.createApplicationPassword(login, 'fuzz')).password);
    }
    await seedDemoSite(site);
    const server = await (adapter === 'fastify' ? serveSiteWithFastify(site) : serveSiteWithExpress(site));
    const send: FuzzSite['send'] = async (caller, target, options = {}) => {
      const headers = { ...options.headers };
      if (caller !== 'anonymous') headers.Authorization = auth[caller];
      const started = performance.now();
      try {
        const response = await rawRequest(server.url + target, { ...options, headers });
        return { status: response.status, headers: response.headers, raw: response.body, ms: performance.now() - started };
      } catch (error) {
        // A malformed answer or a dropped connection: status 0, which no property accepts.
        return { status: 0, headers: [], raw: `no HTTP answer: ${error instanceof Error ? error.message : String(error)}`, ms: performance.now() - started };
      }
    };
    const index = await send('administrator', '/');
    if (index.status !== 200) throw new Error(`the root index answered ${index.status}: ${index.raw.slice(0, 300)}`);
    const description = JSON.parse(index.raw);
    const routes = indexedRoutes(description);
    Object.assign(handle, {
      site,
      store,
      server,
      routes,
      namespaces: description.namespaces,
      argNames: [...new Set(routes.flatMap((r) => r.args))].sort(),
      send,
      snapshot: () => variant.snapshot(store),
    });
  });
  afterAll(async () => {
    await handle.server?.close();
    await handle.site?.redirects.close();
    if (handle.store) await variant.destroy(handle.store);
    if (uploads) rmSync(uploads, { recursive: true, force: true });
  });
  return handle;
}

function indexedRoutes(index: { routes: Record<string, { endpoints: Array<{ methods: string[]; args?: Record<string, unknown> }> }> }): IndexedRoute[] {
  return Object.entries(index.routes).map(([pattern, route]) => ({
    pattern,
    methods: [...new Set(route.endpoints.flatMap((e) => e.methods))],
    args: [...new Set(route.endpoints.flatMap((e) => Object.keys(e.args ?? {})))],
  }));
}
