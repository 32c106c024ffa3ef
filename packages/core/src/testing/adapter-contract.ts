import { builtInNamespaces } from '../namespaces/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, type Site } from '../site.js';
import { manualClock } from '../clock.js';
import { silentLogger } from '../site-context.js';
import type { SiteStore } from '../store/repositories.js';
import { basicAuth, header, headerNames, rawRequest, type RawResponse } from './http-client.js';

export interface RunningServer {
  /** Absolute URL of the API root, without a trailing slash (e.g. `http://127.0.0.1:4321/api`). */
  url: string;
  close(): Promise<void>;
}

export interface AdapterHarness {
  /** Starts a real HTTP server (port 0) embedding the site at `/api`. */
  serve(site: Site): Promise<RunningServer>;
  createStore(): SiteStore | Promise<SiteStore>;
}

/** The site every adapter test runs against: fixed clock, a small body limit, three users. */
export async function contractSite(store: SiteStore): Promise<{ site: Site; admin: string; subscriber: string }> {
  const site = createSite({
    store,
    settings: { name: 'Contract Site', url: 'http://127.0.0.1:8080' },
    clock: manualClock('2026-11-21T16:41:37Z'),
    bodyLimit: 64 * 1024,
    logger: silentLogger,
  });
  await site.createUser({ login: 'admin', roles: ['administrator'] });
  await site.createUser({ login: 'reader', roles: ['subscriber'] });
  const admin = basicAuth('admin', (await site.createApplicationPassword('admin', 'contract')).password);
  const subscriber = basicAuth('reader', (await site.createApplicationPassword('reader', 'contract')).password);
  return { site, admin, subscriber };
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
    let admin: string;
    let subscriber: string;
    const api = (path: string) => `${server.url}${path}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      rawRequest(api(path), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: admin, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    beforeAll(async () => {
      const made = await contractSite(await harness.createStore());
      admin = made.admin;
      subscriber = made.subscriber;
      server = await harness.serve(made.site);
    });

    afterAll(async () => {
      await server?.close();
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
      expect(json(withSlash)).toMatchObject({ name: 'Contract Site', namespaces: builtInNamespaces().map((ns) => ns.namespace) });
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

    it('rejects malformed JSON after matching the route', async () => {
      const bad = await post('/cal/events/v1/categories', '{"name": ');
      expect(bad.status).toBe(400);
      expect(json(bad)).toEqual({
        code: 'rest_invalid_json',
        message: 'Invalid JSON body passed.',
        data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
      });
      const noRoute = await post('/cal/events/v1/nowhere', '{"name": ');
      expect(json(noRoute).code).toBe('rest_no_route');
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
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(header(head, 'x-tec-total')).toBeDefined();
      const options = await rawRequest(api('/cal/events/v1/categories'), { method: 'OPTIONS' });
      expect(options.status).toBe(200);
      expect(header(options, 'allow')).toBe('GET');
      expect(json(options)).toMatchObject({ namespace: 'cal/events/v1', methods: ['GET', 'POST'] });
      const nothing = await rawRequest(api('/nothing/here'), { method: 'OPTIONS' });
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

    it('reads PHP-style array query params', async () => {
      const a = json(await post('/cal/events/v1/categories', { name: 'Alpha' }));
      const b = json(await post('/cal/events/v1/categories', { name: 'Beta' }));
      const response = await rawRequest(api(`/cal/events/v1/categories?hide_empty=0&include[]=${a.id}&include[]=${b.id}`));
      expect(json(response).categories.map((t: { id: number }) => t.id)).toEqual([a.id, b.id]);
    });
  });
}
