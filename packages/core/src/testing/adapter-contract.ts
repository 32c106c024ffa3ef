import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { builtInNamespaces } from '../namespaces/index.js';
import { ApiResponse } from '../http/api-response.js';
import { defineNamespace, defineRoute, READABLE } from '../registry/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStorage } from '../media/file-storage.js';
import { createSite, type Site } from '../site.js';
import { manualClock } from '../clock.js';
import { silentLogger } from '../site-context.js';
import type { SiteStore } from '../store/repositories.js';
import type { SiteResponse } from '../http/request.js';
import { basicAuth, header, headerNames, rawRequest, type RawResponse } from './http-client.js';
import { newEvent } from './fixtures.js';

export interface RunningServer {
  /** Absolute URL of the API root, without a trailing slash (e.g. `http://127.0.0.1:4321/api`). */
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** The adapter's `unmatched` option (`'next'` when absent). */
  unmatched?: 'next' | 'rest_no_route';
}

export interface AdapterHarness {
  /**
   * Starts a real HTTP server (port 0) embedding the site at `/api`, inside an app of the framework that also has
   * routes of its own: `GET /api/app/before` registered before siterest and `GET /api/app/after` after it, which
   * answer the text `app: before` / `app: after`, and a not-found handler that answers 404 `app: not found`.
   */
  serve(site: Site, options?: ServeOptions): Promise<RunningServer>;
  createStore(): SiteStore | Promise<SiteStore>;
  /** Whether the app parses JSON bodies before siterest sees them (malformed JSON is then the app's to answer). */
  appParsesJson?: boolean;
}

/** The contract site's sessions: the `sid` cookie names one, the authenticate hook finds its user. */
export interface ContractSessions {
  /** `Cookie` header values of a signed-in administrator and subscriber. */
  admin: string;
  reader: string;
  /** A nonce for that session, as the app would put it in its pages. */
  nonce(who: 'admin' | 'reader'): Promise<string>;
}

function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of text.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The site every adapter test runs against: fixed clock, a small body limit, two users with application
 * passwords, and a cookie-session `authenticate` hook as a host app with its own sign-in would have.
 */
export async function contractSite(store: SiteStore): Promise<{ site: Site; admin: string; subscriber: string; sessions: ContractSessions }> {
  const sessions = new Map<string, number>();
  const site = createSite({
    store,
    settings: { name: 'Contract Site', url: 'http://127.0.0.1:8080' },
    clock: manualClock('2026-11-21T16:41:37Z'),
    bodyLimit: 64 * 1024,
    logger: silentLogger,
    authenticate: (request) => {
      const sid = cookieValue(request.headers.cookie, 'sid');
      const userId = sid === undefined ? undefined : sessions.get(sid);
      return userId === undefined ? null : { userId, session: sid };
    },
    files: localFileStorage({ directory: mkdtempSync(join(tmpdir(), 'siterest-contract-')), baseUrl: 'http://127.0.0.1:8080/uploads' }),
  });
  const adminUser = await site.createUser({ login: 'admin', roles: ['administrator'] });
  const readerUser = await site.createUser({ login: 'reader', roles: ['subscriber'] });
  const admin = basicAuth('admin', (await site.createApplicationPassword('admin', 'contract')).password);
  const subscriber = basicAuth('reader', (await site.createApplicationPassword('reader', 'contract')).password);
  sessions.set('admin-session', adminUser.id);
  sessions.set('reader-session', readerUser.id);
  return {
    site,
    admin,
    subscriber,
    sessions: {
      admin: 'sid=admin-session',
      reader: 'sid=reader-session',
      nonce: (who) =>
        who === 'admin'
          ? site.createNonce(adminUser.id, { session: 'admin-session' })
          : site.createNonce(readerUser.id, { session: 'reader-session' }),
    },
  };
}

const BASE_HEADERS = [
  'content-type',
  'x-robots-tag',
  'link',
  'x-content-type-options',
  'access-control-expose-headers',
  'access-control-allow-headers',
];

function json(response: RawResponse): any {
  return JSON.parse(response.body);
}

/**
 * What every adapter must do over real sockets. Both adapters run this suite, and a cross-adapter test
 * checks they answer byte for byte alike.
 */
export function adapterContractSuite(name: string, harness: AdapterHarness): void {
  describe(`adapter contract: ${name}`, () => {
    let server: RunningServer;
    let site: Site;
    let admin: string;
    let subscriber: string;
    let sessions: ContractSessions;
    const api = (path: string) => `${server.url}${path}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      rawRequest(api(path), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: admin, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    beforeAll(async () => {
      const made = await contractSite(await harness.createStore());
      site = made.site;
      admin = made.admin;
      subscriber = made.subscriber;
      sessions = made.sessions;
      server = await harness.serve(made.site);
    });

    afterAll(async () => {
      await server?.close();
    });

    it('answers a repeated anonymous list request from the answer it sent, byte for byte, and asks the pipeline whenever a header could change it', async () => {
      const store = await harness.createStore();
      // Without an authenticate hook (the contract site has one): only then are answers kept under their URL.
      const open = createSite({ store, settings: { name: 'Open Site', url: 'http://127.0.0.1:8080' }, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
      await store.events.create(newEvent({ title: 'Sent once', startDate: '2027-01-05 10:00:00', startDateUtc: '2027-01-05 10:00:00' }));
      let handled = 0;
      // `answer` is what `handle` runs too: an adapter may call either.
      const answer = open.answer.bind(open);
      open.answer = (...args) => {
        handled++;
        return answer(...args);
      };
      const running = await harness.serve(open);
      try {
        const url = `${running.url}/cal/events/v1/events?per_page=3`;
        const withoutDate = (response: RawResponse) => response.headers.filter(([name]) => name.toLowerCase() !== 'date');
        const first = await rawRequest(url);
        expect(first.status).toBe(200);
        expect(json(first).events[0].title).toBe('Sent once');
        const again = await rawRequest(url);
        expect(again.body).toBe(first.body);
        expect(withoutDate(again)).toEqual(withoutDate(first));
        // Answered from the kept answer: the pipeline ran once.
        expect(handled).toBe(1);
        const fromOrigin = await rawRequest(url, { headers: { Origin: 'https://elsewhere.example' } });
        expect(fromOrigin.body).toBe(first.body);
        expect(header(fromOrigin, 'access-control-allow-origin')).toBe('https://elsewhere.example');
        expect(handled).toBe(2);
        await store.events.create(newEvent({ title: 'Added later', startDate: '2027-01-04 10:00:00', startDateUtc: '2027-01-04 10:00:00' }));
        expect(json(await rawRequest(url)).events[0].title).toBe('Added later');
      } finally {
        await running.close();
      }
    });

    it('writes an uncached list in the pieces it was put together from, byte for byte the whole answer, with its length', async () => {
      const store = await harness.createStore();
      // Without the answer cache: each list is put together from the kept JSON of its events (fragment-cache.ts).
      const uncached = createSite({ store, cache: false, settings: { name: 'Uncached Site', url: 'http://127.0.0.1:8080' }, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
      for (let day = 1; day <= 4; day++) {
        const date = `2027-02-0${day} 19:30:00`;
        await store.events.create(newEvent({ title: `Soirée n°${day} — “jazz”`, startDate: date, startDateUtc: date }));
      }
      const answers: SiteResponse[] = [];
      // `answer` is what `handle` runs too: an adapter may call either.
      const answer = uncached.answer.bind(uncached);
      const handle = uncached.handle.bind(uncached);
      uncached.answer = (...args) => {
        const given = answer(...args);
        if (given instanceof Promise) return given.then((settled) => (answers.push(settled), settled));
        answers.push(given);
        return given;
      };
      const running = await harness.serve(uncached);
      try {
        for (const query of ['per_page=3', 'per_page=3&page=2', 'per_page=3&page=9']) {
          const url = `${running.url}/cal/events/v1/events?${query}`;
          const sent = await rawRequest(url);
          const answer = answers.at(-1)!;
          const expected = await handle({ method: 'GET', path: '/cal/events/v1/events', query, headers: {}, basePath: '/api' });
          expect(sent.status).toBe(expected.status);
          expect(sent.body).toBe(expected.body);
          expect(Number(header(sent, 'content-length'))).toBe(Buffer.byteLength(expected.body));
          if (expected.status === 200) {
            // Pieces (the list's opening, each event, the closing), never joined for sending.
            expect(answer.bodyParts?.length).toBe(json(sent).events.length + 2);
            // All bytes: a piece of text makes Node write the pieces by its slower path for strings.
            expect(answer.bodyParts!.filter((part) => typeof part === 'string')).toEqual([]);
            expect(answer.bodyParts!.map((part) => (typeof part === 'string' ? part : Buffer.from(part).toString('utf8'))).join('')).toBe(expected.body);
            const head = await rawRequest(url, { method: 'HEAD' });
            expect(head.body).toBe('');
            expect(header(head, 'content-length')).toBe(header(sent, 'content-length'));
          }
        }
        expect(json(await rawRequest(`${running.url}/cal/events/v1/events?per_page=3`)).events[0].title).toBe('Soir\u00e9e n\u00b01 \u2014 \u201cjazz\u201d');
      } finally {
        await running.close();
      }
    });

    it('serves the root index with the standard headers, with or without the trailing slash', async () => {
      const withSlash = await rawRequest(api('/'));
      const without = await rawRequest(api(''));
      expect(withSlash.status).toBe(200);
      expect(headerNames(withSlash).slice(0, 6)).toEqual(BASE_HEADERS);
      expect(header(withSlash, 'content-type')).toBe('application/json; charset=UTF-8');
      expect(header(withSlash, 'link')).toBe('<http://127.0.0.1:8080/api/>; rel="https://api.w.org/"');
      expect(header(withSlash, 'allow')).toBe('GET');
      expect(header(withSlash, 'vary')).toBe('Origin');
      expect(json(withSlash)).toMatchObject({ name: 'Contract Site', namespaces: builtInNamespaces().map((n) => n.namespace) });
      expect(without.body).toBe(withSlash.body);
      expect(withSlash.body).toContain('"url":"http:\\/\\/127.0.0.1:8080"');
    });

    it('answers the ?rest_route= form at the API root', async () => {
      const viaQuery = await rawRequest(api('/?rest_route=/cal/events/v1/categories&hide_empty=0'));
      const direct = await rawRequest(api('/cal/events/v1/categories?hide_empty=0'));
      expect(viaQuery.status).toBe(200);
      expect(viaQuery.body).toBe(direct.body);
    });

    it('creates from JSON, urlencoded and multipart bodies', async () => {
      const created = await post('/cal/events/v1/categories', { name: 'Music', description: 'Concerts & gigs' });
      expect(created.status).toBe(201);
      expect(header(created, 'location')).toBe(`http://127.0.0.1:8080/api/wp/v2/cal_events_cat/${json(created).id}`);
      expect(json(created)).toMatchObject({ name: 'Music', slug: 'music', description: 'Concerts &amp; gigs' });

      const form = await rawRequest(api('/cal/events/v1/tags'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: admin },
        body: 'name=Free+entry&slug=free',
      });
      expect(form.status).toBe(201);
      expect(json(form)).toMatchObject({ name: 'Free entry', slug: 'free', taxonomy: 'post_tag' });

      const boundary = '----siterest';
      const multipart = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="name"',
        '',
        'Outdoor',
        `--${boundary}`,
        'Content-Disposition: form-data; name="description"',
        '',
        'Fresh air',
        `--${boundary}--`,
        '',
      ].join('\r\n');
      const mp = await rawRequest(api('/cal/events/v1/tags'), {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, Authorization: admin },
        body: multipart,
      });
      expect(mp.status).toBe(201);
      expect(json(mp)).toMatchObject({ name: 'Outdoor', description: 'Fresh air' });
    });

    it('escapes like PHP: slashes and non-ASCII characters', async () => {
      const created = await post('/cal/events/v1/categories', { name: 'Café' });
      expect(created.status).toBe(201);
      expect(created.body).toContain('"name":"Caf\\u00e9"');
      expect(json(created).slug).toBe('cafe');
    });

    it('rejects malformed JSON after matching the route (or leaves it to the app\'s JSON parser)', async () => {
      const bad = await post('/cal/events/v1/categories', '{"name": ');
      if (harness.appParsesJson) {
        // The app's parser read the body first and answered as the app does; nothing was created.
        expect(bad.status).toBe(400);
        expect(bad.body).not.toContain('rest_invalid_json');
        return;
      }
      expect(bad.status).toBe(400);
      expect(json(bad)).toEqual({
        code: 'rest_invalid_json',
        message: 'Invalid JSON body passed.',
        data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
      });
      const noRoute = await post('/cal/events/v1/nowhere', '{"name": ');
      expect(json(noRoute).code).toBe('rest_no_route');
    });

    it('refuses lone surrogates and JSON nested past 512 levels with rest_invalid_json, whoever parsed the body', async () => {
      const deep = `{"name":"Deep","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      for (const [body, code] of [[deep, 1], ['{"name":"a\\ud800"}', 10]] as const) {
        const answer = await post('/cal/events/v1/tags', body);
        expect([answer.status, json(answer).code, json(answer).data.json_error_code]).toEqual([400, 'rest_invalid_json', code]);
      }
    });

    it('answers headers over 16 KB with a 431 in the JSON envelope (the app server set up as documented)', async () => {
      const answer = await rawRequest(api('/'), { headers: { 'X-Padding': 'x'.repeat(20_000) } });
      expect([answer.status, header(answer, 'content-type')]).toEqual([431, 'application/json; charset=UTF-8']);
      expect(json(answer)).toEqual({
        code: 'rest_request_headers_too_large',
        message: 'The request headers are larger than the server accepts.',
        data: { status: 431 },
      });
      // A HEAD answer has no body: a client would read one as the start of a broken next answer.
      const head = await rawRequest(api('/'), { method: 'HEAD', headers: { 'X-Padding': 'x'.repeat(20_000) } });
      expect([head.status, head.body.length]).toEqual([431, 0]);
    });

    it('answers unknown routes and methods with rest_no_route', async () => {
      const unknown = await rawRequest(api('/cal/events/v1/nope'));
      expect(unknown.status).toBe(404);
      expect(json(unknown)).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      expect(header(unknown, 'allow')).toBeUndefined();
      const wrongMethod = await rawRequest(api('/cal/events/v1/categories'), { method: 'PUT', headers: { Authorization: admin } });
      expect(wrongMethod.status).toBe(404);
      const nonNumeric = await rawRequest(api('/cal/events/v1/categories/abc'));
      expect(json(nonNumeric).code).toBe('rest_no_route');
      // Methods no route declares and the framework does not route by default still reach WordPress's 404.
      for (const method of ['SEARCH', 'PROPFIND', 'PURGE', 'LINK']) {
        const odd = await rawRequest(api('/cal/events/v1/categories'), { method });
        expect(odd.status, method).toBe(404);
        expect(json(odd), method).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      }
    });

    it('answers paths with broken percent-escapes like any other path', async () => {
      for (const slug of ['%', '%zz', '%E4%B8']) {
        const broken = await rawRequest(api(`/cal/events/v1/events/by-slug/${slug}`));
        expect(broken.status, slug).toBe(400);
        expect(json(broken), slug).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { slug: 'Invalid parameter.' } } });
      }
      const unknown = await rawRequest(api('/cal/events/v1/ev%ents'));
      expect(json(unknown)).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    });

    it('reports wrong types and missing params the WordPress way', async () => {
      const badType = await rawRequest(api('/cal/events/v1/categories?per_page=abc'));
      expect(badType.status).toBe(400);
      expect(json(badType)).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'Invalid parameter.' }, details: [] },
      });
      const missing = await post('/cal/events/v1/categories', { description: 'no name' });
      expect(missing.status).toBe(400);
      expect(json(missing)).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): name',
        data: { status: 400, params: ['name'] },
      });
      const badBool = await rawRequest(api('/cal/events/v1/categories?hide_empty=maybe'));
      expect(json(badBool).data.details.hide_empty).toEqual({
        code: 'rest_invalid_type',
        message: 'hide_empty is not of type boolean.',
        data: { param: 'hide_empty' },
      });
    });

    it('answers over-large bodies with a 413 in the error envelope, declared or chunked', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(100 * 1024) });
      for (const chunked of [false, true]) {
        const response = await rawRequest(api('/cal/events/v1/categories'), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: admin },
          body: big,
          chunked,
        });
        expect(response.status).toBe(413);
        // An app that parses JSON first applies its own limit and answers in its own way.
        if (harness.appParsesJson) continue;
        expect(json(response)).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
        expect(header(response, 'content-type')).toBe('application/json; charset=UTF-8');
      }
    });

    it('separates anonymous (401), signed-in without rights (403) and wrong credentials (401)', async () => {
      const anonymous = await rawRequest(api('/cal/events/v1/categories'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"Anon"}',
      });
      expect(anonymous.status).toBe(401);
      expect(json(anonymous).code).toBe('rest_forbidden');
      const reader = await post('/cal/events/v1/categories', { name: 'Reader' }, { Authorization: subscriber });
      expect(reader.status).toBe(403);
      expect(header(reader, 'cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
      const wrong = await rawRequest(api('/'), { headers: { Authorization: 'Basic ' + Buffer.from('admin:nope').toString('base64') } });
      expect(wrong.status).toBe(401);
      expect(json(wrong).code).toBe('incorrect_password');
      const unknownUser = await rawRequest(api('/'), { headers: { Authorization: 'Basic ' + Buffer.from('ghost:x').toString('base64') } });
      expect(json(unknownUser).code).toBe('invalid_username');
    });

    it('answers HEAD with headers only and OPTIONS with the route description', async () => {
      const head = await rawRequest(api('/cal/events/v1/categories'), { method: 'HEAD' });
      const get = await rawRequest(api('/cal/events/v1/categories'));
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(header(head, 'x-tec-total')).toBeDefined();
      expect(Number(header(head, 'content-length'))).toBe(Buffer.byteLength(get.body));
      expect(Number(header(head, 'content-length'))).toBeGreaterThan(0);
      const options = await rawRequest(api('/cal/events/v1/categories'), { method: 'OPTIONS' });
      expect(options.status).toBe(200);
      expect(header(options, 'allow')).toBe('GET');
      expect(json(options)).toMatchObject({ namespace: 'cal/events/v1', methods: ['GET', 'POST'] });
      const nothing = await rawRequest(api('/cal/events/v1/nothing/here'), { method: 'OPTIONS' });
      expect(nothing.status).toBe(200);
      expect(nothing.body).toBe('[]');
    });

    it('sends CORS headers for an Origin', async () => {
      const response = await rawRequest(api('/'), { headers: { Origin: 'https://app.example' } });
      expect(header(response, 'access-control-allow-origin')).toBe('https://app.example');
      expect(header(response, 'access-control-allow-methods')).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
      expect(header(response, 'access-control-allow-credentials')).toBe('true');
      expect(header(response, 'vary')).toBe('Origin');
    });

    it('honours _method and X-HTTP-Method-Override, _envelope and _fields', async () => {
      const created = json(await post('/cal/events/v1/tags', { name: 'Temporary' }));
      const viaQuery = await rawRequest(api(`/cal/events/v1/tags/${created.id}?_method=DELETE`), {
        method: 'POST',
        headers: { Authorization: admin },
      });
      expect(viaQuery.status).toBe(200);
      expect(json(viaQuery).id).toBe(created.id);
      const gone = await rawRequest(api(`/cal/events/v1/tags/${created.id}`), {
        method: 'POST',
        headers: { Authorization: admin, 'X-HTTP-Method-Override': 'DELETE' },
      });
      expect(gone.status).toBe(400);
      // Only a POST can be overridden: a GET (links and images send those cross-site) never becomes a write.
      const kept = json(await post('/cal/events/v1/tags', { name: 'Kept' }));
      const overrides: Array<{ query: string; headers: Record<string, string> }> = [
        { query: '?_method=DELETE', headers: {} },
        { query: '', headers: { 'X-HTTP-Method-Override': 'DELETE' } },
      ];
      for (const override of overrides) {
        const read = await rawRequest(api(`/cal/events/v1/tags/${kept.id}${override.query}`), { headers: { Authorization: admin, ...override.headers } });
        expect(read.status).toBe(200);
        expect(json(read)).toMatchObject({ id: kept.id, name: 'Kept' });
      }
      expect((await rawRequest(api(`/cal/events/v1/tags/${kept.id}`))).status).toBe(200);
      const enveloped = await rawRequest(api('/cal/events/v1/nope?_envelope'));
      expect(enveloped.status).toBe(200);
      expect(json(enveloped)).toEqual({
        body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } },
        status: 404,
        headers: [],
      });
      const fields = await rawRequest(api('/?_fields=name,url'));
      expect(json(fields)).toEqual({ name: 'Contract Site', url: 'http://127.0.0.1:8080' });
    });

    it('streams a raw image upload past the body limit, and reads a multipart one', async () => {
      // Noise does not compress: the PNG is larger than the site's 64 KiB body limit.
      const pixels = randomBytes(300 * 300 * 3);
      const png = await sharp(pixels, { raw: { width: 300, height: 300, channels: 3 } }).png().toBuffer();
      expect(png.length).toBeGreaterThan(64 * 1024);
      const raw = await rawRequest(api('/wp/v2/media'), {
        method: 'POST',
        headers: { Authorization: admin, 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="noise.png"' },
        body: png,
        chunked: true,
      });
      expect(raw.status).toBe(201);
      expect(json(raw).media_details).toMatchObject({ width: 300, height: 300, file: '2026/11/noise.png' });
      const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } }).jpeg().toBuffer();
      const boundary = 'contract-boundary';
      const form = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBlue\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blue.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        small,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const multipart = await rawRequest(api('/wp/v2/media'), {
        method: 'POST',
        headers: { Authorization: admin, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: form,
      });
      expect(multipart.status).toBe(201);
      expect(json(multipart)).toMatchObject({ title: { raw: 'Blue' }, mime_type: 'image/jpeg', media_details: { width: 40, height: 30 } });
      const refused = await rawRequest(api('/wp/v2/media'), {
        method: 'POST',
        headers: { Authorization: subscriber, 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="x.png"' },
        body: png,
      });
      expect([refused.status, json(refused).code]).toEqual([403, 'rest_cannot_create']);
    });

    it('reads PHP-style array query params', async () => {
      const a = json(await post('/cal/events/v1/categories', { name: 'Alpha' }));
      const b = json(await post('/cal/events/v1/categories', { name: 'Beta' }));
      const response = await rawRequest(api(`/cal/events/v1/categories?hide_empty=0&include[]=${a.id}&include[]=${b.id}`));
      expect(json(response).categories.map((t: { id: number }) => t.id)).toEqual([a.id, b.id]);
    });

    describe('what the app around siterest keeps', () => {
      it('passes requests outside siterest\'s namespaces on to the app\'s routes and its 404', async () => {
        const before = await rawRequest(api('/app/before'));
        expect([before.status, before.body]).toEqual([200, 'app: before']);
        const after = await rawRequest(api('/app/after'));
        expect([after.status, after.body]).toEqual([200, 'app: after']);
        const missing = await rawRequest(api('/app/missing'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
        expect([missing.status, missing.body]).toEqual([404, 'app: not found']);
        // Inside a namespace an unknown route is still WordPress's.
        expect(json(await rawRequest(api('/cal/events/v1/app/after'))).code).toBe('rest_no_route');
      });

      it('keeps WordPress\'s 404 for the whole mount when asked', async () => {
        const strict = await harness.serve(site, { unmatched: 'rest_no_route' });
        try {
          const missing = await rawRequest(`${strict.url}/app/missing`);
          expect(missing.status).toBe(404);
          expect(json(missing).code).toBe('rest_no_route');
          expect((await rawRequest(`${strict.url}/app/before`)).body).toBe('app: before');
        } finally {
          await strict.close();
        }
      });
    });

    describe('cookie sessions (the authenticate hook) and nonces', () => {
      const EVIL = 'https://evil.example';
      const event = (title: string, status = 'publish') => ({
        title,
        status,
        start_date: '2026-12-01 10:00:00',
        end_date: '2026-12-01 11:00:00',
      });
      const eventsTitled = async (title: string) =>
        (await site.store.events.list({ statuses: 'any', orderBy: 'start', offset: 0, limit: 1000 })).items.filter((e) => e.title === title);

      it('a cross-site form POST with the session cookie and no nonce creates nothing', async () => {
        const attack = await rawRequest(api('/cal/events/v1/events'), {
          method: 'POST',
          headers: { Cookie: sessions.admin, Origin: EVIL, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'title=Forged+event&start_date=2026-12-01+10:00:00&end_date=2026-12-01+11:00:00&status=publish',
        });
        expect(attack.status).toBe(401);
        expect(header(attack, 'access-control-allow-credentials')).toBeUndefined();
        expect(await eventsTitled('Forged event')).toEqual([]);
        // The same form with the session's nonce is the app's own page: it works.
        const own = await rawRequest(api('/cal/events/v1/events'), {
          method: 'POST',
          headers: { Cookie: sessions.admin, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `title=Own+event&start_date=2026-12-01+10:00:00&end_date=2026-12-01+11:00:00&_wpnonce=${await sessions.nonce('admin')}`,
        });
        expect(own.status).toBe(201);
      });

      it('a credentialed cross-site read without a nonce sees no drafts and gets no credentials grant', async () => {
        const draft = json(await post('/cal/events/v1/events', event('Secret draft', 'draft')));
        for (const path of [`/cal/events/v1/events/${draft.id}`, '/cal/events/v1/events?status=draft&start_date=2026-01-01']) {
          const read = await rawRequest(api(path), { headers: { Cookie: sessions.admin, Origin: EVIL } });
          expect(read.body).not.toContain('Secret draft');
          expect(header(read, 'access-control-allow-credentials')).toBeUndefined();
          expect(read.status).toBeGreaterThanOrEqual(400);
        }
        const withNonce = await rawRequest(api(`/cal/events/v1/events/${draft.id}`), {
          headers: { Cookie: sessions.admin, 'X-WP-Nonce': await sessions.nonce('admin') },
        });
        expect(withNonce.status).toBe(200);
        expect(json(withNonce).title).toBe('Secret draft');
      });

      it('GET …?_method=DELETE with the session cookie trashes nothing', async () => {
        const target = json(await post('/cal/events/v1/events', event('Keep me')));
        const nonce = await sessions.nonce('admin');
        for (const query of ['?_method=DELETE', `?_method=DELETE&_wpnonce=${nonce}`]) {
          const attack = await rawRequest(api(`/cal/events/v1/events/${target.id}${query}`), { headers: { Cookie: sessions.admin } });
          expect(attack.status).toBe(200);
          expect(json(attack).status).toBe('publish');
        }
        const [after] = await eventsTitled('Keep me');
        expect(after).toMatchObject({ id: target.id, status: 'publish' });
      });

      it('refuses a wrong nonce with rest_cookie_invalid_nonce, accepts and renews a right one', async () => {
        const wrong = await rawRequest(api('/'), { headers: { Cookie: sessions.admin, 'X-WP-Nonce': '0123456789' } });
        expect(wrong.status).toBe(403);
        expect(json(wrong)).toEqual({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } });
        expect(header(wrong, 'cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
        // Another session's nonce is a wrong one too.
        const stolen = await rawRequest(api('/'), { headers: { Cookie: sessions.admin, 'X-WP-Nonce': await sessions.nonce('reader') } });
        expect(json(stolen).code).toBe('rest_cookie_invalid_nonce');

        const nonce = await sessions.nonce('reader');
        const signedIn = await rawRequest(api('/cal/events/v1/tags'), {
          method: 'POST',
          headers: { Cookie: sessions.reader, 'X-WP-Nonce': nonce, 'Content-Type': 'application/json', Origin: 'https://app.example' },
          body: '{"name":"By a subscriber"}',
        });
        expect(signedIn.status).toBe(403); // signed in (not 401), but a subscriber may not create tags
        expect(header(signedIn, 'x-wp-nonce')).toMatch(/^[0-9a-f]{10}$/);
        expect(header(signedIn, 'access-control-allow-credentials')).toBe('true');
      });
    });

    describe('answers that fail after the handler', () => {
      let server: RunningServer;
      // Routes whose answers break only after the pipeline's handler ran: in serializing, rendering, or in a
      // header no HTTP server may send.
      const faults = defineNamespace({
        namespace: 'faults/v1',
        routes: [
          defineRoute('/bigint', [{ methods: READABLE, handler: () => ({ n: 1n }) }]),
          defineRoute('/header', [{ methods: READABLE, handler: () => new ApiResponse({ ok: true }, 200, [['X-Broken', 'a\r\nSet-Cookie: x=1']]) }]),
          defineRoute('/render', [{ methods: READABLE, handler: () => ({ ok: true }), render: () => { throw new Error('/srv/app/secret.ts:1 render failed'); } }]),
        ],
      });

      beforeAll(async () => {
        const site = createSite({
          store: await harness.createStore(),
          settings: { name: 'Faults', url: 'http://127.0.0.1:8080' },
          logger: silentLogger,
          namespaces: [faults],
        });
        server = await harness.serve(site);
      });

      afterAll(async () => {
        await server?.close();
      });

      it('answers the JSON error envelope, never the framework\'s error page or raw message', async () => {
        for (const path of ['/faults/v1/bigint', '/faults/v1/header', '/faults/v1/render']) {
          const answer = await rawRequest(`${server.url}${path}`);
          expect([path, answer.status, header(answer, 'content-type')]).toEqual([path, 500, 'application/json; charset=UTF-8']);
          expect(json(answer)).toEqual({ code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
          expect(header(answer, 'x-broken')).toBeUndefined();
          expect(header(answer, 'set-cookie')).toBeUndefined();
        }
      });
    });
  });
}
