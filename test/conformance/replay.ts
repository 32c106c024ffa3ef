import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInNamespaces, createSite, manualClock, silentLogger, type SiteStore } from '@siterest/core';
import { basicAuth, comparable, rawRequest, type RunningServer } from '@siterest/core/testing';
import { serveSiteWithExpress, serveSiteWithFastify } from '../support/serve-site.js';
import { loadCaptures, type Capture } from './captures.js';
import { normalizeEmails, SITE_ORIGIN, translateIndex, translatePath, translateString, translateValue } from './translate.js';

/** Captures of things siterest does not serve (yet), with the reason; every other calendar capture is replayed. */
const NOT_REPLAYED: Record<string, string> = {
  '005': 'the OpenAPI document is generated from the routes; packages/core/test/openapi compares it with this capture, deviations listed',
  '007': 'tec/v1 is not part of siterest',
  '072': 'of the calendar types\' wp/v2 routes siterest serves single posts only (GET and update), not the collection',
  '073': 'tec/v1 is not part of siterest',
  '074': 'tec/v1 is not part of siterest',
  '075': 'tec/v1 is not part of siterest',
  '076': 'tec/v1 is not part of siterest',
  '077': 'tec/v1 is not part of siterest',
  '078': 'tec/v1 is not part of siterest',
};

/**
 * Where siterest deliberately answers differently (docs/compatibility.md): each entry turns the captured answer
 * into siterest's, from what earlier captures showed of the same record.
 */
type Body = Record<string, any>;
const DEVIATIONS: Record<string, (expected: Body, seen: Map<number, Body>) => Body> = {
  // An event update keeps what it does not name: the publication date, the website and the organizers
  // (upstream resets them).
  '079': (expected, seen) => {
    const before = seen.get(expected.id)!;
    return { ...expected, date: before.date, date_utc: before.date_utc, website: before.website, organizer: before.organizer };
  },
};

/** Headers the captured WordPress theme sends with any page (not Redirection's): not part of a live redirect's answer. */
const THEME_HEADERS = /^(link|x-tec-)/i;

/** Captures whose random or host-specific values siterest cannot share: taken from the actual answer. */
const HOST_VALUES: Record<string, (expected: Body, actual: Body) => void> = {
  // A fresh token is random; `installed` is the server's own directory.
  '126': (expected, actual) => {
    expected.settings.token = actual.settings.token;
    expected.installed = actual.installed;
  },
};

const INDEXES = new Set(['001', '002', '004']);

/** Namespaces siterest serves that the captured site did not have: left out of the compared indexes. */
const NOT_CAPTURED = new Set(['contact-forms/v1', 'popups/v1', 'seo/v1', 'rest/v1']);

function withoutUncaptured(body: Body): Body {
  const out = { ...body };
  if (Array.isArray(out.namespaces)) out.namespaces = out.namespaces.filter((ns: string) => !NOT_CAPTURED.has(ns));
  if (out.routes) {
    out.routes = Object.fromEntries(Object.entries(out.routes as Record<string, { namespace: string }>).filter(([, route]) => !NOT_CAPTURED.has(route.namespace)));
  }
  return out;
}

/** Translation of a raw PHP JSON body, where every `/` is written `\/`. */
function translateRawJson(text: string): string {
  return translateString(text.replace(/\\\//g, '/')).replace(/\//g, '\\/');
}

export interface ReplayOptions {
  label: string;
  /** The adapter serving the API and the redirect middleware (Express by default). */
  adapter?: 'express' | 'fastify';
  createStore(firstIds: { post: number; term: number }): Promise<SiteStore> | SiteStore;
  destroyStore?(store: SiteStore): Promise<void>;
}

/**
 * Replays the captured WordPress exchanges in order against a fresh site — same site settings, the clock
 * set from each capture's Date header, WordPress's id sequences — and expects the translated answers.
 */
export function replayCaptures(options: ReplayOptions): void {
  const captures = loadCaptures().filter((c) => !(c.id in NOT_REPLAYED));

  describe(`WordPress captures replayed (${options.label}, ${options.adapter ?? 'express'})`, () => {
    let server: RunningServer;
    let store: SiteStore;
    let authorization = '';
    const clock = manualClock('2026-11-21T16:41:37Z');
    /** The latest answer seen for each record id, for the deviations. */
    const seen = new Map<number, Body>();

    beforeAll(async () => {
      // A fresh WordPress has posts 1–4 and the term "Uncategorized" (1); the captured site continued from there.
      store = await options.createStore({ post: 5, term: 2 });
      const site = createSite({
        store,
        // The captured site had no Regenerate Thumbnails plugin, so its indexes do not list that namespace.
        namespaces: builtInNamespaces().filter((ns) => ns.namespace !== 'regenerate-thumbnails/v1'),
        settings: { name: 'Reference Site', url: SITE_ORIGIN },
        clock,
        logger: silentLogger,
      });
      await site.createUser({ login: 'admin', email: 'admin@example.com', roles: ['administrator'] });
      authorization = basicAuth('admin', (await site.createApplicationPassword('admin', 'replay')).password);
      server = await (options.adapter === 'fastify' ? serveSiteWithFastify(site) : serveSiteWithExpress(site));
    });

    afterAll(async () => {
      await server?.close();
      await options.destroyStore?.(store);
    });

    for (const capture of captures) {
      it(`${capture.id} ${capture.name}`, async () => {
        clock.set(Date.parse(capture.response.date));
        // The captures' client announced itself so (the redirect and 404 logs show it).
        const headers: Record<string, string> = { 'User-Agent': 'capture-client/1' };
        if (capture.request.contentType) headers['Content-Type'] = capture.request.contentType;
        if (capture.request.auth) headers.Authorization = authorization;
        const live = !capture.request.path.startsWith('/wp-json') && !capture.request.path.startsWith('/?rest_route');
        const base = live ? server.url.replace(/\/api$/, '') : server.url;
        const response = comparable(
          await rawRequest(base + translatePath(capture.request.path), {
            method: capture.request.method,
            headers,
            body: capture.request.body,
          }),
        );
        if (live) expectLiveLike(response, capture);
        else expectLike(response, capture, seen);
      });
    }
  });
}

function expectLike(
  response: { status: number; headers: Array<[string, string]>; body: string },
  capture: Capture,
  seen: Map<number, Body>,
): void {
  const expectedHeaders = capture.response.headers.map(([name, value]): [string, string] => [name, translateString(value)]);
  const raw = capture.response.body;
  const translated = (INDEXES.has(capture.id) ? translateIndex(JSON.parse(raw)) : translateValue(JSON.parse(raw))) as Body;
  const deviation = DEVIATIONS[capture.id];
  const expected = deviation ? deviation(translated, seen) : translated;
  remember(expected, seen);
  const actual = INDEXES.has(capture.id) ? withoutUncaptured(JSON.parse(response.body)) : JSON.parse(response.body);
  HOST_VALUES[capture.id]?.(expected, actual);
  // REPLAY_DUMP=<dir> writes both sides of every exchange, for investigating a mismatch with a JSON diff tool.
  if (process.env.REPLAY_DUMP) {
    mkdirSync(process.env.REPLAY_DUMP, { recursive: true });
    writeFileSync(`${process.env.REPLAY_DUMP}/${capture.id}.expected.json`, JSON.stringify(normalizeEmails(expected), null, 1));
    writeFileSync(`${process.env.REPLAY_DUMP}/${capture.id}.actual.json`, JSON.stringify(normalizeEmails(actual), null, 1));
  }
  expect({ status: response.status, body: normalizeEmails(actual) }).toEqual({
    status: capture.response.status,
    body: normalizeEmails(expected),
  });
  // Key order is part of the wire format.
  expect(JSON.stringify(normalizeEmails(actual))).toBe(JSON.stringify(normalizeEmails(expected)));
  expect(response.headers).toEqual(expectedHeaders);
  // Byte for byte, where WordPress's output is deterministic.
  if (!INDEXES.has(capture.id) && !raw.includes('"email"') && !deviation && !HOST_VALUES[capture.id]) expect(response.body).toBe(translateRawJson(raw));
}

/**
 * A request to the site itself, answered by the redirect middleware: status and Redirection's headers as
 * captured (the body of an error is the app's page, and a 404 is the app's own answer).
 */
function expectLiveLike(response: { status: number; headers: Array<[string, string]>; body: string }, capture: Capture): void {
  expect(response.status).toBe(capture.response.status);
  if (capture.response.status === 404) return;
  const expected = capture.response.headers.filter(([name]) => !THEME_HEADERS.test(name));
  expect(response.headers).toEqual(expected);
  if (capture.response.status < 400) expect(response.body).toBe(capture.response.body);
}

/** Keeps the latest shape of every record a body carries (single objects and list items). */
function remember(body: Body, seen: Map<number, Body>): void {
  const items = Array.isArray(body.events) ? body.events : typeof body.id === 'number' && 'global_id' in body ? [body] : [];
  for (const item of items) seen.set(item.id, item);
}
