import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparable, contractSite, rawRequest, type RawRequestOptions, type RunningServer } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithExpress } from '../packages/adapter-express/test/serve.js';
import { serveWithFastify } from '../packages/adapter-fastify/test/serve.js';

type Step = { path: string; auth?: boolean } & RawRequestOptions;

const json = { 'Content-Type': 'application/json' };
const steps: Step[] = [
  { path: '/' },
  { path: '' },
  { path: '/cal/events/v1' },
  { path: '/cal/events/v1/categories', method: 'POST', auth: true, headers: json, body: '{"name":"Music","description":"Concerts & gigs"}' },
  { path: '/cal/events/v1/categories', method: 'POST', auth: true, headers: json, body: '{"name":"Music"}' },
  { path: '/cal/events/v1/categories', method: 'POST', auth: true, headers: json, body: '{"name":"Jazz","parent":2}' },
  { path: '/cal/events/v1/tags', method: 'POST', auth: true, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=Outdoor' },
  { path: '/cal/events/v1/categories?hide_empty=0' },
  { path: '/cal/events/v1/categories?hide_empty=0&per_page=1&page=2' },
  { path: '/cal/events/v1/categories/1' },
  { path: '/cal/events/v1/categories/999' },
  { path: '/cal/events/v1/categories/1', method: 'PATCH', auth: true, headers: json, body: '{"description":"Loud"}' },
  { path: '/cal/events/v1/categories', method: 'POST', auth: true, headers: json, body: '{"name":' },
  { path: '/cal/events/v1/categories', method: 'POST', headers: json, body: '{"name":"Anon"}' },
  { path: '/cal/events/v1/categories', method: 'POST', auth: true, headers: json, body: JSON.stringify({ name: 'x'.repeat(70_000) }) },
  { path: '/cal/events/v1/categories', method: 'HEAD' },
  { path: '/cal/events/v1/categories/1', method: 'OPTIONS' },
  { path: '/', headers: { Origin: 'https://app.example' } },
  { path: '/?rest_route=/cal/events/v1/tags&hide_empty=false' },
  { path: '/cal/events/v1/tags/3?_envelope', method: 'DELETE', auth: true },
  { path: '/no/such/route' },
  { path: '/cal/events/v1/no/such/route' },
  { path: '/cal/events/v1/categories/1?_method=DELETE', auth: true },
  { path: '/', headers: { Cookie: 'sid=admin-session', 'X-WP-Nonce': '0123456789' } },
  { path: '/', headers: { Cookie: 'sid=admin-session', Origin: 'https://evil.example' } },
  { path: '/rest/v1' },
  { path: '/rest/v1/articles?posts_per_page=-1&category=music' },
  { path: '/rest/v1/articles?posts_per_page=abc' },
  { path: '/rest/v1/articles/999' },
  { path: '/rest/v1/videos?offset=0&length=2', method: 'HEAD' },
  { path: '/rest/v1/events' },
  { path: '/seo/v1/statistics', auth: true },
  { path: '/seo/v1/statistics' },
  { path: '/seo/v1/configurator', method: 'POST', auth: true, headers: json, body: '{"siteType":"blog","environment_type":"nope"}' },
  { path: '/seo/v1/reindex_posts', auth: true },
  { path: '/seo/v1/checker', auth: true },
];

describe('Express and Fastify answer alike', () => {
  const servers: Record<string, { server: RunningServer; admin: string }> = {};

  beforeAll(async () => {
    for (const [name, serve] of [['express', serveWithExpress], ['fastify', serveWithFastify]] as const) {
      const { site, admin } = await contractSite(memoryStore());
      servers[name] = { server: await serve(site, { unmatched: 'rest_no_route' }), admin };
    }
  });

  afterAll(async () => {
    for (const { server } of Object.values(servers)) await server.close();
  });

  it('gives identical status, headers and bodies for the same requests', async () => {
    for (const step of steps) {
      const [express, fastify] = await Promise.all(
        (['express', 'fastify'] as const).map(async (name) => {
          const { server, admin } = servers[name]!;
          const headers = { ...(step.headers ?? {}), ...(step.auth ? { Authorization: admin } : {}) };
          return comparable(await rawRequest(server.url + step.path, { ...step, headers }));
        }),
      );
      expect({ step: `${step.method ?? 'GET'} ${step.path}`, ...fastify }).toEqual({ step: `${step.method ?? 'GET'} ${step.path}`, ...express });
    }
  });
});
