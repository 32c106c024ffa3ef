import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  calendarNamespace,
  createSite,
  CREATABLE,
  defineNamespace,
  DELETABLE,
  EDITABLE,
  READABLE,
  silentLogger,
  type ArgSpec,
  type NamespaceDefinition,
  type RouteDefinition,
  type Site,
} from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { docRoute } from '../../src/namespaces/calendar/doc/route.js';
import { docs } from '../../src/namespaces/calendar/doc/responses.js';
import {
  buildOpenApiDocument,
  endpointOperations,
  openApiRoute,
  type OpenApiOperationDoc,
} from '../../src/registry/openapi.js';
import { parseMethods, patternTemplate } from '../../src/registry/registry.js';
import { translateValue } from '../../../../test/conformance/translate.js';

type Json = Record<string, any>;

const noop = () => ({});

const ORIGIN = 'http://127.0.0.1:8080';
const CAPTURE: Json = translateValue(
  JSON.parse(readFileSync(fileURLToPath(new URL('../../../../conformance/captures/005-tribe-events-v1-doc.json', import.meta.url)), 'utf8')),
) as Json;

/** Same values and same key order, everywhere. */
function expectIdentical(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

async function validate(doc: unknown): Promise<{ valid: boolean; errors?: unknown; version?: string }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version };
}

async function makeSite(namespaces: NamespaceDefinition[]): Promise<Site> {
  return createSite({ store: memoryStore(), namespaces, settings: { url: ORIGIN }, logger: silentLogger });
}

async function getJson(site: Site, path: string): Promise<{ status: number; headers: Array<[string, string]>; body: Json }> {
  const response = await site.handle({ method: 'GET', path, headers: {} });
  return { status: response.status, headers: response.headers, body: JSON.parse(response.body) as Json };
}

// ---------------------------------------------------------------------------------------------------------
// The calendar: every route the registry has, compared with the captured document of the same path.
// ---------------------------------------------------------------------------------------------------------

/** The docs of each calendar path, for the routes whose files do not attach them (yet). */
const DOCS_BY_PATH: Record<string, Record<string, OpenApiOperationDoc>> = {
  '/doc': docs.doc,
  '/events': docs.events,
  '/events/{id}': docs.event,
  '/events/by-slug/{slug}': docs.eventBySlug,
  '/venues': docs.venues,
  '/venues/{id}': docs.venue,
  '/venues/by-slug/{slug}': docs.venueBySlug,
  '/organizers': docs.organizers,
  '/organizers/{id}': docs.organizer,
  '/organizers/by-slug/{slug}': docs.organizerBySlug,
  '/categories': docs.categories,
  '/categories/{id}': docs.category,
  '/tags': docs.tags,
  '/tags/{id}': docs.tag,
};

/**
 * calendarNamespace() with the `/doc` route first (unless it is already wired) and the docs attached to every
 * endpoint that has none; endpoints that carry their own docs keep them.
 */
function documentedCalendar(): NamespaceDefinition {
  const ns = calendarNamespace();
  const routes: RouteDefinition[] = ns.routes.some((r) => r.path === '/doc') ? ns.routes : [docRoute(), ...ns.routes];
  return defineNamespace({
    ...ns,
    routes: routes.map((route) => {
      const template = patternTemplate(route.path);
      return {
        ...route,
        endpoints: route.endpoints.map((endpoint) => {
          if (endpoint.doc) return endpoint;
          const op = endpointOperations(parseMethods(endpoint.methods))[0]!;
          const doc = DOCS_BY_PATH[template]?.[op];
          if (!doc) return endpoint;
          return { ...endpoint, doc };
        }),
      };
    }),
  });
}

/**
 * Where siterest's document knowingly differs from TEC's, applied to the captured operation:
 * - an arg TEC documents `in: path` that is no variable of the path (the event `password`) is a query
 *   parameter here: OpenAPI requires path parameters to be variables of the path and required;
 * - `POST /events/by-slug/{slug}`: TEC's body lists `slug` (from the by-id route's args); here the body is
 *   derived from the route's own args, where `slug` is the path variable.
 */
function expectedOperation(path: string, method: string, captured: Json): Json {
  const op: Json = structuredClone(captured);
  const variables = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  for (const param of op.parameters ?? []) if (param.in === 'path' && !variables.includes(param.name)) param.in = 'query';
  if (path === '/events/by-slug/{slug}' && method === 'post') {
    delete op.requestBody.content['application/x-www-form-urlencoded'].schema.properties.slug;
  }
  return op;
}

/** Operations siterest serves that TEC's document leaves out (it documents creation under the single routes). */
const NOT_IN_CAPTURE: Record<string, OpenApiOperationDoc> = {
  'post /events': docs.events.post,
  'post /venues': docs.venues.post,
  'post /organizers': docs.organizers.post,
  'post /categories': docs.categories.post,
  'post /tags': docs.tags.post,
};

describe('GET /cal/events/v1/doc over the routes of calendarNamespace()', async () => {
  const site = await makeSite([documentedCalendar()]);
  const response = await getJson(site, '/cal/events/v1/doc');
  const doc = response.body;

  it('answers 200 JSON', () => {
    expect(response.status).toBe(200);
    expect(response.headers).toContainEqual(['Content-Type', 'application/json; charset=UTF-8']);
    expect(response.headers).toContainEqual(['Allow', 'GET']);
  });

  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.0');
  });

  it('has TEC top-level layout: openapi, info, components, servers, paths', () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(Object.keys(CAPTURE)).toEqual(Object.keys(doc));
    expect(doc.openapi).toBe('3.0.0');
  });

  it('has the captured info', () => {
    expectIdentical(doc.info, CAPTURE.info);
  });

  it('has the captured component schemas, key order included', () => {
    expectIdentical(doc.components, CAPTURE.components);
    expect(doc.components.schemas.CostDetails.properties).toHaveProperty(['currency_position ']);
  });

  it('names the real API root, port included, as its server (TEC drops the port: deviation)', () => {
    expect(doc.servers).toEqual([{ url: `${ORIGIN}/api/cal/events/v1/` }]);
    expect(CAPTURE.servers).toEqual([{ url: 'http://127.0.0.1/api/cal/events/v1/' }]);
  });

  it('lists only captured paths, in the captured order', () => {
    const captured = Object.keys(CAPTURE.paths);
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => !captured.includes(p))).toEqual([]);
    expect(paths).toEqual(captured.filter((p) => paths.includes(p)));
    // The routes that exist today, at least.
    expect(paths).toEqual(expect.arrayContaining(['/doc', '/categories', '/categories/{id}', '/tags', '/tags/{id}']));
  });

  it('documents every served path exactly as TEC does, but for the listed deviations', () => {
    // All operations at once, keyed "method path", so a failure shows every difference.
    const actual: Json = {};
    const expected: Json = {};
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const captured = CAPTURE.paths[path] as Json;
      for (const method of Object.keys(captured)) expect(item, `${method} ${path}`).toHaveProperty([method]);
      // TEC's get, post, delete order.
      expect(Object.keys(item)).toEqual(['get', 'post', 'delete'].filter((m) => m in item));
      for (const [method, operation] of Object.entries(item)) {
        const key = `${method} ${path}`;
        if (method in captured) {
          actual[key] = operation;
          expected[key] = expectedOperation(path, method, captured[method]);
        } else {
          const extra = NOT_IN_CAPTURE[key];
          expect(extra, `${key} is neither captured nor a known addition`).toBeDefined();
          expect(operation.responses).toEqual(extra!.responses);
          expect(operation.requestBody.content['application/x-www-form-urlencoded'].schema.type).toBe('object');
        }
      }
    }
    expect(Object.keys(actual)).toEqual(expect.arrayContaining(['get /doc', 'get /categories', 'post /categories/{id}', 'delete /tags/{id}']));
    expectIdentical(actual, expected);
  });

  it('documents the create operations TEC leaves out', () => {
    const create = doc.paths['/categories'].post;
    expect(create.parameters).toBeUndefined();
    expectIdentical(create.requestBody, {
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: {
              name: { description: 'The event category name', type: 'string' },
              description: { description: 'The event category description', type: 'string' },
              slug: { description: 'The event category slug', type: 'string' },
              parent: { description: 'The event category slug', type: 'integer' },
            },
            required: ['name'],
          },
        },
      },
    });
    expectIdentical(create.responses, {
      '201': {
        description: 'Returns the data of the created event category',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Term' } } },
      },
      '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
      '403': { description: 'The user is not authorized to create event categories' },
    });
  });

  it('serves every path of the capture (once the event, venue and organizer routes exist)', (ctx) => {
    const missing = Object.keys(CAPTURE.paths).filter((p) => !(p in doc.paths));
    if (missing.length && !('/events' in doc.paths)) ctx.skip();
    expect(missing).toEqual([]);
  });

  it('follows the API root the request used', async () => {
    const other = await site.handle({ method: 'GET', path: '/cal/events/v1/doc', headers: {}, basePath: '/rest' });
    expect(JSON.parse(other.body).servers).toEqual([{ url: `${ORIGIN}/rest/cal/events/v1/` }]);
  });

  it('is listed in the namespace index as a GET route without args', async () => {
    const index = await getJson(site, '/cal/events/v1');
    expect(index.body.routes['/cal/events/v1/doc']).toEqual({
      namespace: 'cal/events/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: [] }],
      _links: { self: [{ href: `${ORIGIN}/api/cal/events/v1/doc` }] },
    });
  });
});

/**
 * TEC's routes exactly as the captured namespace index declares them (004: methods, args, in order), with the
 * docs attached as a route file would: the whole document, all fourteen paths, whatever the route files of
 * this tree already hold. `password`, which TEC declares `in: path` for its Swagger output only, is declared
 * `in: query` as siterest's event routes should.
 */
function capturedCalendar(): NamespaceDefinition {
  const index = translateValue(
    JSON.parse(readFileSync(fileURLToPath(new URL('../../../../conformance/captures/004-tribe-events-v1-namespace.json', import.meta.url)), 'utf8')),
  ) as Json;
  const routes: RouteDefinition[] = [];
  for (const [pattern, route] of Object.entries(index.routes as Record<string, Json>)) {
    const path = pattern.slice('/cal/events/v1'.length);
    if (!path) continue;
    if (path === '/doc') {
      routes.push(docRoute());
      continue;
    }
    const template = patternTemplate(path);
    routes.push({
      path,
      endpoints: (route.endpoints as Json[]).map((endpoint) => {
        const methods = endpoint.methods as string[];
        const args: Record<string, ArgSpec> = {};
        for (const [name, spec] of Object.entries((Array.isArray(endpoint.args) ? {} : endpoint.args) as Record<string, Json>)) {
          args[name] = { ...spec, ...(name === 'password' ? { in: 'query' } : {}) } as ArgSpec;
        }
        const op = endpointOperations(methods)[0]!;
        const doc = DOCS_BY_PATH[template]?.[op];
        return { methods, args, handler: noop, ...(doc ? { doc } : {}) };
      }),
    });
  }
  return defineNamespace({ namespace: 'cal/events/v1', routes });
}

describe('the document of the captured TEC routes', async () => {
  const site = await makeSite([capturedCalendar()]);
  const doc = (await getJson(site, '/cal/events/v1/doc')).body;

  it('is valid', async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
  });

  it('is the captured document but for the listed deviations', () => {
    const expected: Json = structuredClone(CAPTURE);
    expected.servers = [{ url: `${ORIGIN}/api/cal/events/v1/` }];
    for (const [path, item] of Object.entries(expected.paths as Record<string, Json>)) {
      for (const method of Object.keys(item)) item[method] = expectedOperation(path, method, item[method]);
      const create = NOT_IN_CAPTURE[`post ${path}`];
      if (create) expected.paths[path] = { get: item.get, post: doc.paths[path]?.post, delete: item.delete };
    }
    expectIdentical(doc, JSON.parse(JSON.stringify(expected)));
    for (const [key, extra] of Object.entries(NOT_IN_CAPTURE)) {
      const [method, path] = key.split(' ') as [string, string];
      expect(doc.paths[path][method].responses).toEqual(extra.responses);
    }
  });

  it('documents the event creation from its args', () => {
    const create = doc.paths['/events'].post;
    expect(create.parameters).toBeUndefined();
    const schema = create.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(schema.required).toEqual(['title', 'start_date', 'end_date']);
    expectIdentical(schema.properties, CAPTURE.paths['/events/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties);
  });
});

describe('the calendar document without docs on the route files', async () => {
  const ns = calendarNamespace();
  const site = await makeSite([defineNamespace({ ...ns, routes: [docRoute(), ...ns.routes.filter((r) => r.path !== '/doc')] })]);
  const doc = (await getJson(site, '/cal/events/v1/doc')).body;

  it('is still valid, with default responses where the routes give none', async () => {
    expect((await validate(doc)).valid).toBe(true);
    for (const item of Object.values(doc.paths as Record<string, Json>)) {
      for (const operation of Object.values(item)) expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    }
  });

  it('derives the term parameters exactly as TEC documents them', () => {
    for (const path of ['/categories', '/tags', '/categories/{id}', '/tags/{id}']) {
      for (const method of ['get', 'delete']) {
        if (!(method in CAPTURE.paths[path])) continue;
        expectIdentical(doc.paths[path][method].parameters, CAPTURE.paths[path][method].parameters);
      }
    }
    expectIdentical(doc.paths['/tags/{id}'].post.requestBody, CAPTURE.paths['/tags/{id}'].post.requestBody);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Any namespace an app defines.
// ---------------------------------------------------------------------------------------------------------


function shopNamespace(openapi?: Record<string, unknown>): NamespaceDefinition {
  return defineNamespace({
    namespace: 'shop/v2',
    ...(openapi ? { openapi } : {}),
    routes: [
      openApiRoute({ path: '/openapi' }),
      {
        path: '/products',
        endpoints: [
          {
            methods: READABLE,
            args: {
              page: { type: 'integer', default: 1, description: 'Page' },
              tags: { items: { type: 'string' }, description: 'Tag slugs' },
              status: { type: 'string', enum: ['draft', 'live'] },
              in_stock: { default: false },
              near: { format: 'double' },
              any: { type: ['string', 'integer'] },
              ids: { type: ['array', 'null'] },
            },
            handler: noop,
            doc: {
              summary: 'List products',
              responses: { '200': { description: 'The products' } },
              parameters: [{ name: 'tags', style: 'form', explode: false }, { name: 'X-Trace', in: 'header', schema: { type: 'string' } }],
            },
          },
          {
            methods: CREATABLE,
            args: {
              name: { type: 'string', required: true, description: 'Name' },
              price: { type: 'number' },
              variants: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string', required: true } } } },
              dry_run: { type: 'boolean', in: 'query' },
              colour: { schema: z.enum(['red', 'blue']).optional().describe('Colour') },
            },
            handler: noop,
            doc: { responses: { '201': { description: 'Created' } } },
          },
        ],
      },
      {
        path: '/products/(?P<id>\\d+)',
        endpoints: [
          { methods: READABLE, args: { id: { type: 'integer', description: 'Product id' } }, handler: noop },
          { methods: EDITABLE, args: { id: { type: 'integer' }, name: { type: 'string' } }, handler: noop },
          {
            methods: DELETABLE,
            args: { id: { type: 'integer' }, force: { type: 'boolean' }, reason: { type: 'string', in: 'body' } },
            handler: noop,
          },
        ],
      },
      {
        path: '/products/(?P<id>\\d+)/reviews/(?P<review>[a-z0-9-]+)',
        endpoints: [{ methods: READABLE, args: { id: { type: 'integer' } }, handler: noop }],
      },
      {
        path: '/internal',
        endpoints: [{ methods: READABLE, handler: noop, showInIndex: false }],
      },
      {
        path: '/ping',
        endpoints: [{ methods: 'PUT', handler: noop }, { methods: 'GET, POST', handler: noop }],
      },
    ],
  });
}

describe('an app namespace', async () => {
  const site = await makeSite([
    shopNamespace({ info: { title: 'Shop', version: '2.0.0' }, tags: [{ name: 'products' }] }),
    calendarNamespace(),
  ]);
  const response = await getJson(site, '/shop/v2/openapi');
  const doc = response.body;

  it('answers a valid OpenAPI 3.0 document', async () => {
    expect(response.status).toBe(200);
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.version).toBe('3.0');
  });

  it('takes info and other extras from the namespace definition', () => {
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'servers', 'paths', 'tags']);
    expect(doc.info).toEqual({ title: 'Shop', version: '2.0.0' });
    expect(doc.servers).toEqual([{ url: `${ORIGIN}/api/shop/v2/` }]);
    expect(doc.tags).toEqual([{ name: 'products' }]);
  });

  it('has one path per route of the namespace only, hidden endpoints left out', () => {
    expect(Object.keys(doc.paths)).toEqual(['/openapi', '/products', '/products/{id}', '/products/{id}/reviews/{review}', '/ping']);
    expect(doc.paths['/openapi']).toEqual({ get: { responses: { '200': { description: 'OK' } } } });
  });

  it('derives query parameters and their types', () => {
    const list = doc.paths['/products'].get;
    expect(Object.keys(list)).toEqual(['summary', 'parameters', 'responses']);
    expectIdentical(list.parameters, [
      { in: 'query', schema: { type: 'integer' }, description: 'Page', required: false, name: 'page' },
      { in: 'query', schema: { type: 'array', items: { type: 'string' } }, description: 'Tag slugs', required: false, name: 'tags', style: 'form', explode: false },
      { in: 'query', schema: { type: 'string', enum: ['draft', 'live'] }, required: false, name: 'status' },
      { in: 'query', schema: { type: 'boolean' }, required: false, name: 'in_stock' },
      { in: 'query', schema: { type: 'number' }, required: false, name: 'near' },
      { in: 'query', schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, required: false, name: 'any' },
      { in: 'query', schema: { type: 'array', items: {}, nullable: true }, required: false, name: 'ids' },
      { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
    ]);
  });

  it('documents a creation with a form body, query args kept as parameters', () => {
    const create = doc.paths['/products'].post;
    expectIdentical(create, {
      parameters: [{ in: 'query', schema: { type: 'boolean' }, required: false, name: 'dry_run' }],
      requestBody: {
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                name: { description: 'Name', type: 'string' },
                price: { type: 'number' },
                variants: {
                  type: 'array',
                  items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
                },
                colour: { description: 'Colour', type: 'string', enum: ['red', 'blue'] },
              },
              required: ['name'],
            },
          },
        },
      },
      responses: { '201': { description: 'Created' } },
    });
  });

  it('documents path variables as required path parameters, declared or not', () => {
    const item = doc.paths['/products/{id}'];
    expect(Object.keys(item)).toEqual(['get', 'post', 'delete']);
    expectIdentical(item.get.parameters, [
      { in: 'path', schema: { type: 'integer' }, description: 'Product id', required: true, name: 'id' },
    ]);
    expectIdentical(item.post.parameters, [{ in: 'path', schema: { type: 'integer' }, required: true, name: 'id' }]);
    expect(Object.keys(item.post.requestBody.content['application/x-www-form-urlencoded'].schema.properties)).toEqual(['name']);
    expectIdentical(item.delete.parameters, [
      { in: 'path', schema: { type: 'integer' }, required: true, name: 'id' },
      { in: 'query', schema: { type: 'boolean' }, required: false, name: 'force' },
    ]);
    expect(item.delete.requestBody.content['application/x-www-form-urlencoded'].schema.properties).toEqual({ reason: { type: 'string' } });
    expectIdentical(doc.paths['/products/{id}/reviews/{review}'].get.parameters, [
      { in: 'path', schema: { type: 'integer' }, required: true, name: 'id' },
      { in: 'path', schema: { type: 'string' }, required: true, name: 'review' },
    ]);
  });

  it('names operations as TEC does: one per method group, the first endpoint winning', () => {
    expect(Object.keys(doc.paths['/ping'])).toEqual(['get', 'put', 'post']);
  });

  it('does not mix namespaces', async () => {
    const cal = buildOpenApiDocument(site.registry, 'cal/events/v1', `${ORIGIN}/api/`);
    expect(Object.keys(cal.paths as Json)).not.toContain('/products');
    expect(cal.info).toEqual({ version: '1.0.0', title: 'cal/events/v1' });
  });
});

describe('buildOpenApiDocument', async () => {
  const site = await makeSite([shopNamespace()]);

  it('defaults info to the namespace and accepts explicit extras', () => {
    const plain = buildOpenApiDocument(site.registry, 'shop/v2', 'https://example.com/api');
    expect(plain.info).toEqual({ version: '1.0.0', title: 'shop/v2' });
    expect(plain.servers).toEqual([{ url: 'https://example.com/api/shop/v2/' }]);
    expect('components' in plain).toBe(false);
    const custom = buildOpenApiDocument(site.registry, 'shop/v2', 'https://example.com/api/', {
      components: { schemas: { Product: { type: 'object' } } },
      servers: [{ url: 'https://shop.example.com/' }],
    });
    expect(Object.keys(custom)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(custom.servers).toEqual([{ url: 'https://shop.example.com/' }]);
  });

  it('gives an unknown namespace an empty document', async () => {
    const empty = buildOpenApiDocument(site.registry, 'nope/v1', 'https://example.com/api/');
    expect(empty.paths).toEqual({});
    expect((await validate(empty)).valid).toBe(true);
  });
});

