import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type Site, type SiteResponse, type SiteStore } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { storeVariants } from '../support/stores.js';

/**
 * Answers kept under their URL (sent-answers.ts) against the whole pipeline: for any list request a client may
 * send — paging, filters, hostile values, `_fields`, `_envelope`, `_jsonp`, `_pretty`, `rest_route` — the answer a
 * site gives again, and the one it keeps as sent, are byte for byte what a site without any cache answers.
 */
const NOW = '2026-11-21T16:41:37Z';
const BASE = '/api';

const param = fc.oneof(
  fc.record({ page: fc.constantFrom('1', '2', '3', '0', '-1', 'x', '99') }),
  fc.record({ per_page: fc.constantFrom('1', '5', '50', '51', 'abc', '') }),
  fc.record({ categories: fc.constantFrom('jazz', 'workshops', 'nope', '1', '1,2', '') }),
  fc.record({ tags: fc.constantFrom('free', 'family', '999') }),
  fc.record({ search: fc.constantFrom('jazz', 'night market', '%', '"quoted words"', 'x'.repeat(300)) }),
  fc.record({ start_date: fc.constantFrom('2026-11-01', 'now', 'tomorrow', '2027-01-01 10:00:00', 'garbage') }),
  fc.record({ end_date: fc.constantFrom('2027-12-31', '+1 month', '') }),
  fc.record({ featured: fc.constantFrom('true', 'false', '1', 'maybe') }),
  fc.record({ status: fc.constantFrom('publish', 'draft', 'publish,private') }),
  fc.record({ _fields: fc.constantFrom('id', 'events.title,total', 'total', '') }),
  fc.record({ _envelope: fc.constant('1') }),
  fc.record({ _jsonp: fc.constantFrom('cb', 'bad()') }),
  fc.record({ _pretty: fc.constant('1') }),
  fc.record({ context: fc.constantFrom('view', 'edit', 'embed') }),
  fc.record({ order: fc.constantFrom('asc', 'desc') }),
);

const request = fc.record({
  path: fc.constantFrom('/cal/events/v1/events', '/cal/events/v1/venues', '/cal/events/v1/organizers', '/cal/events/v1/events/', '/'),
  params: fc.array(param, { maxLength: 4 }),
});

function queryOf(path: string, params: Array<Record<string, string>>): string {
  const pairs = params.flatMap((p) => Object.entries(p)).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  // At the API root the route is named by `rest_route`, as WordPress allows.
  if (path === '/') pairs.unshift(`rest_route=${encodeURIComponent('/cal/events/v1/events')}`);
  return pairs.join('&');
}

function wire(response: SiteResponse): unknown {
  return { status: response.status, headers: response.headers, body: response.body };
}

for (const variant of storeVariants()) describe(`answers as sent: ${variant.label}`, () => {
  let store: SiteStore;
  let cached: Site;
  let uncached: Site;

  beforeAll(async () => {
    store = await variant.create();
    const settings = { name: 'Sent', url: 'http://127.0.0.1:8080' };
    cached = createSite({ store, settings, clock: manualClock(NOW), logger: silentLogger });
    uncached = createSite({ store, settings, cache: false, clock: manualClock(NOW), logger: silentLogger });
    await cached.createUser({ login: 'admin', roles: ['administrator'] });
    await seedDemoSite(cached);
  });

  afterAll(async () => {
    if (store) await variant.destroy(store);
  });

  it('are byte for byte what the whole pipeline answers without any cache', async () => {
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ path, params }) => {
        const query = queryOf(path, params);
        const asked = { method: 'GET', path, query, headers: {}, basePath: BASE };
        const expected = wire(await uncached.handle(asked));
        expect(wire(await cached.handle(asked))).toEqual(expected);
        expect(wire(await cached.handle(asked))).toEqual(expected);
        const sent = await cached.sentAnswer('GET', query ? `${path}?${query}` : path, {}, BASE);
        if (sent) {
          kept++;
          expect(wire(sent)).toEqual(expected);
          expect(Buffer.from(sent.bodyBytes!).toString('utf8')).toBe(sent.body);
        }
      }),
      { numRuns: 100 },
    );
    // Most requests (all but errors, JSONP and pretty-printed ones) were kept: the property checked them.
    expect(kept).toBeGreaterThan(20);
  });
});
