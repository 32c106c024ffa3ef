import { afterAll, beforeAll } from 'vitest';
import { createSite, manualClock, silentLogger, type CreateSiteOptions, type ManualClock, type Site, type SiteStore } from '@siterest/core';
import { basicAuth, rawRequest, type RawResponse, type RawRequestOptions, type RunningServer } from '@siterest/core/testing';
import { storeVariants, type StoreVariant } from '../support/stores.js';
import { serveSiteWithExpress, serveSiteWithFastify } from '../support/serve-site.js';

export const NS = '/redirection/v1';

interface Answer {
  status: number;
  body: any;
  raw: string;
  headers: RawResponse['headers'];
  header(name: string): string | undefined;
}

export interface RedirectionSite {
  site: Site;
  store: SiteStore;
  clock: ManualClock;
  server: RunningServer;
  /** The site root (the app), without a trailing slash. */
  root: string;
  auth: Record<'administrator' | 'editor' | 'subscriber', string>;
  /** A JSON call to the API as a role ('anonymous' for none). */
  api(method: string, path: string, body?: unknown, role?: 'administrator' | 'editor' | 'subscriber' | 'anonymous'): Promise<Answer>;
  /** A request to the app itself. */
  visit(path: string, options?: RawRequestOptions): Promise<Answer>;
  /** Creates a redirect (admin) and returns it. */
  redirect(body: Record<string, unknown>): Promise<any>;
  /** Stores queued hits and log rows. */
  flush(): Promise<void>;
}

export interface HarnessOptions {
  store?: StoreVariant;
  adapter?: 'express' | 'fastify';
  site?: Partial<CreateSiteOptions>;
}

function answer(response: RawResponse): Answer {
  let body: unknown = null;
  try {
    body = response.body ? JSON.parse(response.body) : null;
  } catch {
    body = response.body;
  }
  return {
    status: response.status,
    body,
    raw: response.body,
    headers: response.headers,
    header: (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
  };
}

/** A site with an admin, an editor and a subscriber, served with the redirect middleware at the root. */
export function useRedirectionSite(options: HarnessOptions = {}): RedirectionSite {
  const handle = {} as RedirectionSite;
  const variant = options.store ?? storeVariants()[0]!;
  beforeAll(async () => {
    const store = await variant.create();
    const clock = manualClock('2026-11-21T16:41:37Z');
    const site = createSite({ store, clock, logger: silentLogger, settings: { name: 'Redirect Test', url: 'http://127.0.0.1:8080' }, ...options.site });
    const auth = {} as RedirectionSite['auth'];
    for (const role of ['administrator', 'editor', 'subscriber'] as const) {
      await site.createUser({ login: role, roles: [role] });
      auth[role] = basicAuth(role, (await site.createApplicationPassword(role, 'tests')).password);
    }
    const server = await (options.adapter === 'fastify' ? serveSiteWithFastify(site) : serveSiteWithExpress(site));
    const root = server.url.replace(/\/api$/, '');
    const api: RedirectionSite['api'] = async (method, path, body, role = 'administrator') => {
      const headers: Record<string, string> = {};
      if (role !== 'anonymous') headers.Authorization = auth[role];
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return answer(await rawRequest(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    };
    Object.assign(handle, {
      site,
      store,
      clock,
      server,
      root,
      auth,
      api,
      visit: async (path: string, request: RawRequestOptions = {}) => answer(await rawRequest(root + path, request)),
      redirect: async (body: Record<string, unknown>) => {
        const created = await api('POST', `${NS}/redirect`, { match_type: 'url', action_type: 'url', action_code: 301, group_id: 1, ...body });
        if (created.status !== 200) throw new Error(`redirect not created: ${created.raw}`);
        return created.body.items.reduce((a: any, b: any) => (b.id > a.id ? b : a));
      },
      flush: () => site.redirects.flush(),
    });
  });
  afterAll(async () => {
    await handle.server?.close();
    await handle.site?.redirects.close();
    if (handle.store) await variant.destroy(handle.store);
  });
  return handle;
}

