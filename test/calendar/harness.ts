import { afterAll, beforeAll } from 'vitest';
import { createSite, manualClock, silentLogger, type ManualClock, type RoleName, type Site, type SiteStore } from '@siterest/core';
import { basicAuth, rawRequest, type RawResponse, type RunningServer } from '@siterest/core/testing';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { storeVariants, type StoreVariant } from '../support/stores.js';

type Role = RoleName | 'anonymous';

interface ApiAnswer {
  status: number;
  headers: RawResponse['headers'];
  body: any;
  raw: string;
  header(name: string): string | undefined;
}

export interface Calendar {
  site: Site;
  clock: ManualClock;
  server: RunningServer;
  users: Record<RoleName, { id: number; auth: string }>;
  call(role: Role, method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  get(path: string, role?: Role): Promise<ApiAnswer>;
}

export interface CalendarOptions {
  /** The store to run on (memory by default). */
  store?: StoreVariant;
  now?: string;
  settings?: Parameters<typeof createSite>[0]['settings'];
}

/**
 * A site with one user per WordPress role, served by Express on a random port; `call` sends JSON as a role.
 * Register it at the top of a describe block: it starts in beforeAll and stops in afterAll.
 */
export function useCalendar(options: CalendarOptions = {}): Calendar {
  const calendar = {} as Calendar;
  const variant = options.store ?? storeVariants()[0]!;
  let store: SiteStore | undefined;
  beforeAll(async () => {
    const clock = manualClock(options.now ?? '2026-11-21T16:41:37Z');
    store = await variant.create();
    const site = createSite({
      store,
      settings: { name: 'Calendar Test', url: 'http://127.0.0.1:8080', ...options.settings },
      clock,
      logger: silentLogger,
    });
    const users = {} as Calendar['users'];
    for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const) {
      const user = await site.createUser({ login: role, roles: [role] });
      users[role] = { id: user.id, auth: basicAuth(role, (await site.createApplicationPassword(role, 'tests')).password) };
    }
    const server = await serveWithExpress(site);
    const call = async (role: Role, method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
      const headers: Record<string, string> = {};
      if (role !== 'anonymous') headers.Authorization = users[role].auth;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await rawRequest(server.url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: response.status,
        headers: response.headers,
        raw: response.body,
        body: response.body ? JSON.parse(response.body) : null,
        header: (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
      };
    };
    Object.assign(calendar, { site, clock, server, users, call, get: (path: string, role: Role = 'anonymous') => call(role, 'GET', path) });
  });
  afterAll(async () => {
    await calendar.server?.close();
    if (store) await variant.destroy(store);
  });
  return calendar;
}

export const NS = '/cal/events/v1';
