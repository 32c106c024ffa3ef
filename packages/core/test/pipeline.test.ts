import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  builtInNamespaces,
  createSite,
  defineNamespace,
  EDITABLE,
  READABLE,
  respond,
  StoreError,
  type Logger,
  type SiteRequest,
} from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';

const logged: Array<{ message: string; details?: Record<string, unknown> }> = [];
const logger: Logger = { error: (message, details) => logged.push({ message, details }), warn() {}, info() {} };

const shop = defineNamespace({
  namespace: 'shop/v1',
  routes: [
    {
      path: '/items/(?P<id>\\d+)',
      endpoints: [
        {
          methods: READABLE,
          args: {
            id: { type: 'integer', required: true },
            size: { description: 'Size', type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
            qty: { type: 'integer', minimum: 1, maximum: 10 },
            tags: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
            when: { type: 'string', format: 'date-time' },
            email: { schema: z.email(), description: 'Where to send the receipt' },
            note: { schema: z.string().min(3) },
          },
          handler: (request) => ({ id: request.get('id'), size: request.get('size'), qty: request.get('qty'), tags: request.get('tags') ?? [] }),
        },
        {
          methods: EDITABLE,
          args: { id: { type: 'integer', required: true } },
          permission: (request) => request.can('edit_posts'),
          handler: (request) => respond({ saved: request.get('id') }, 201, { 'X-Custom': 'yes' }),
        },
      ],
    },
    { path: '/boom', endpoints: [{ methods: READABLE, handler: () => { throw new Error('secret stack detail'); } }] },
    { path: '/down', endpoints: [{ methods: READABLE, handler: () => { throw new StoreError('unavailable', 'connection refused'); } }] },
    { path: '/teapot', endpoints: [{ methods: READABLE, handler: () => { throw new ApiError('teapot', 'I am a teapot.', 418, { brew: 'tea' }); } }] },
    { path: '/nothing', endpoints: [{ methods: READABLE, handler: () => null }] },
    {
      // rest_send_allow_header's rules: each method in its first place, the last verdict given for it standing;
      // a permission that throws or rejects denies; verdicts that wait are waited for in order.
      path: '/allow',
      endpoints: [
        { methods: ['GET'], handler: () => 'ok' },
        { methods: ['DELETE', 'PUT'], permission: async () => true, handler: () => null },
        { methods: ['POST'], permission: () => { throw new Error('denied by a throw'); }, handler: () => null },
        { methods: ['PUT'], permission: () => false, handler: () => null },
        { methods: ['PATCH', 'POST'], permission: (request) => Promise.resolve(request.get('patch') === 'yes'), handler: () => null },
        { methods: ['OPTIONS'], permission: () => Promise.reject(new Error('denied by a rejection')), handler: () => null },
        { methods: ['HEAD', 'DELETE'], permission: (request) => request.get('head') === 'yes', handler: () => null },
      ],
    },
  ],
});

const site = createSite({
  store: memoryStore(),
  namespaces: [...builtInNamespaces(), shop],
  settings: { url: 'https://shop.example' },
  logger,
});

async function get(path: string, extra: Partial<SiteRequest> = {}) {
  const [p, q] = path.split('?');
  const response = await site.handle({ method: 'GET', path: p!, query: q, headers: {}, ...extra });
  return { ...response, json: response.body ? JSON.parse(response.body.replace(/^\/\*\*\/[\w.]+\((.*)\)$/s, '$1')) : null, header: (n: string) => response.headers.find(([k]) => k.toLowerCase() === n.toLowerCase())?.[1] };
}

describe("an app's own namespace", () => {
  it('is routed, validated, coerced and indexed like the built-in ones', async () => {
    const ok = await get('/shop/v1/items/7?qty=3&tags=1,2 5');
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ id: 7, size: 'm', qty: 3, tags: [1, 2, 5] });
    const index = await get('/shop/v1');
    expect(Object.keys(index.json.routes)).toEqual(['/shop/v1', '/shop/v1/items/(?P<id>\\d+)', '/shop/v1/boom', '/shop/v1/down', '/shop/v1/teapot', '/shop/v1/nothing', '/shop/v1/allow']);
    expect(index.json.routes['/shop/v1/items/(?P<id>\\d+)'].endpoints[0].args.size).toEqual({ description: 'Size', type: 'string', enum: ['s', 'm', 'l'], default: 'm', required: false });
    expect(index.json.routes['/shop/v1/items/(?P<id>\\d+)'].endpoints[0].args.email).toEqual({ description: 'Where to send the receipt', required: false });
    const root = await get('/');
    expect(root.json.namespaces).toEqual([...builtInNamespaces().map((ns) => ns.namespace), 'shop/v1']);
  });

  it('words validation errors exactly as WordPress does', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['size=xl', 'size', { code: 'rest_not_in_enum', message: 'size is not one of s, m, and l.', data: null }],
      ['qty=0', 'qty', { code: 'rest_out_of_bounds', message: 'qty must be between 1 (inclusive) and 10 (inclusive)', data: null }],
      ['qty=2.5', 'qty', { code: 'rest_invalid_type', message: 'qty is not of type integer.', data: { param: 'qty' } }],
      ['tags=1,x', 'tags', { code: 'rest_invalid_type', message: 'tags[1] is not of type integer.', data: { param: 'tags[1]' } }],
      ['tags=3,3', 'tags', { code: 'rest_duplicate_items', message: 'tags has duplicate items.', data: null }],
      ['when=yesterday', 'when', { code: 'rest_invalid_date', message: 'Invalid date.', data: null }],
      ['email=nope', 'email', { code: 'rest_invalid_param', message: 'Invalid email address', data: null }],
      ['note=hi', 'note', { code: 'rest_too_short', message: 'note must be at least 3 characters long.', data: null }],
    ];
    for (const [query, param, detail] of cases) {
      const answer = await get(`/shop/v1/items/1?${query}`);
      expect([query, answer.status, answer.json.data.details[param]]).toEqual([query, 400, detail]);
      expect(answer.json.message).toBe(`Invalid parameter(s): ${param}`);
    }
  });

  it('answers an unexpected failure with a 500 that hides the details and logs them', async () => {
    logged.length = 0;
    const answer = await get('/shop/v1/boom');
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } });
    expect(answer.body).not.toContain('secret');
    expect(String(logged[0]?.details?.error)).toContain('secret stack detail');
  });

  it('answers 503 with Retry-After when the store is unavailable', async () => {
    const answer = await get('/shop/v1/down');
    expect(answer.status).toBe(503);
    expect(answer.json.code).toBe('rest_service_unavailable');
    expect(answer.header('Retry-After')).toBe('5');
  });

  it('lists in Allow the methods whose permission passes, in their first place, the last verdict for each standing', async () => {
    expect((await get('/shop/v1/allow')).header('Allow')).toBe('GET');
    expect((await get('/shop/v1/allow?patch=yes')).header('Allow')).toBe('GET, POST, PATCH');
    expect((await get('/shop/v1/allow?head=yes')).header('Allow')).toBe('GET, DELETE, HEAD');
    expect((await get('/shop/v1/allow?patch=yes&head=yes')).header('Allow')).toBe('GET, DELETE, POST, PATCH, HEAD');
    // Asked again, the same lists (they are kept per route and verdicts).
    expect((await get('/shop/v1/allow?patch=yes')).header('Allow')).toBe('GET, POST, PATCH');
  });

  it('renders ApiErrors with their own status and data, and null results as an empty body', async () => {
    const teapot = await get('/shop/v1/teapot');
    expect([teapot.status, teapot.json]).toEqual([418, { code: 'teapot', message: 'I am a teapot.', data: { status: 418, brew: 'tea' } }]);
    const nothing = await get('/shop/v1/nothing');
    expect([nothing.status, nothing.body]).toEqual([200, '']);
  });

  it('sends no-cache headers for an override that ends in a 4xx, not otherwise', async () => {
    const overridden = await get('/shop/v1/items/1', { method: 'POST', headers: { 'x-http-method-override': 'PUT' } });
    expect(overridden.status).toBe(401);
    expect(overridden.header('Cache-Control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    expect((await get('/shop/v1/items/1')).header('Cache-Control')).toBeUndefined();
  });
});

describe('reserved query parameters', () => {
  it('_fields keeps dotted paths and lets a parent win over its children', async () => {
    const answer = await get('/?_fields=name,routes./,_links.help');
    expect(Object.keys(answer.json)).toEqual(['name', 'routes', '_links']);
    expect(Object.keys(answer.json.routes)).toEqual(['/']);
    const parentWins = await get('/?_fields=routes,routes./');
    expect(Object.keys(parentWins.json.routes).length).toBeGreaterThan(1);
  });

  it('_fields holding a nested value names no field instead of failing (PHP reads it as "Array")', async () => {
    const answer = await get('/?_fields[][a]=1&_fields[]=name');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json)).toEqual(['name']);
  });

  it('_jsonp wraps the answer and refuses unsafe callback names', async () => {
    const ok = await get('/shop/v1/items/3?_jsonp=render.items');
    expect(ok.header('Content-Type')).toBe('application/javascript; charset=UTF-8');
    expect(ok.body).toBe('/**/render.items({"id":3,"size":"m","tags":[]})');
    const bad = await get('/shop/v1/items/3?_jsonp=alert(1)');
    expect([bad.status, bad.json]).toEqual([400, { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }]);
  });

  it('_pretty prints with four spaces as PHP does', async () => {
    expect((await get('/shop/v1/items/3?_pretty')).body).toBe('{\n    "id": 3,\n    "size": "m",\n    "tags": []\n}');
  });

  it('_envelope moves status and response headers into the body', async () => {
    const answer = await get('/shop/v1/items/4?_envelope', { method: 'POST', principal: { id: 1, login: 'a', roles: ['editor'] } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ body: { saved: 4 }, status: 201, headers: { 'X-Custom': 'yes', Allow: 'GET, POST, PUT, PATCH' } });
  });
});

describe('headers leaving the pipeline', () => {
  const headed = defineNamespace({
    namespace: 'headed/v1',
    routes: [
      { path: '/split', endpoints: [{ methods: READABLE, handler: () => respond({ ok: true }, 200, { 'X-Note': 'a\r\nSet-Cookie: admin=1' }) }] },
      { path: '/plain', endpoints: [{ methods: READABLE, handler: () => respond({ ok: true }, 200, { 'X-Note': 'fine' }) }] },
    ],
  });
  const headedSite = createSite({ store: memoryStore(), namespaces: [headed], settings: { url: 'https://shop.example' }, logger });

  it('are each checked: a value that would split the answer gets the critical-error answer, not sent', async () => {
    const answer = await headedSite.handle({ method: 'GET', path: '/headed/v1/split', headers: {} });
    expect(answer.status).toBe(500);
    expect(answer.headers.some(([name]) => name === 'Set-Cookie' || name === 'X-Note')).toBe(false);
    expect(JSON.parse(answer.body).code).toBe('internal_server_error');
  });

  it('share the standard headers between answers, frozen, so no answer can change another’s', async () => {
    const [first, second] = [await headedSite.handle({ method: 'GET', path: '/headed/v1/plain', headers: {} }), await headedSite.handle({ method: 'GET', path: '/headed/v1/plain', headers: {} })];
    const link = (answer: typeof first) => answer.headers.find(([name]) => name === 'Link')!;
    expect(link(first)[1]).toMatch(/^<https:\/\/shop\.example\/[\w-]*\/>; rel="https:\/\/api\.w\.org\/"$/);
    expect(link(first)).toBe(link(second));
    expect(() => {
      (link(first) as [string, string])[1] = 'changed';
    }).toThrow(TypeError);
    expect(first.headers.find(([name]) => name === 'X-Note')).toEqual(['X-Note', 'fine']);
  });
});
