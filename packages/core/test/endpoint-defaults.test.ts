import { describe, expect, it } from 'vitest';
import { builtInNamespaces, createSite, defineNamespace, manualClock, READABLE, silentLogger } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { ApiRequest } from '../src/http/api-request.js';
import { endpointDefaults } from '../src/registry/registry.js';

describe('endpoint defaults', () => {
  it('follow the clock and the settings, worked out once per second and shared read-only', async () => {
    const clock = manualClock('2026-11-21T16:41:37.200Z');
    const site = createSite({ store: memoryStore(), clock, logger: silentLogger, settings: { timezone_string: 'America/New_York' } });
    await site.ready();
    const endpoint = site.registry.match('/cal/events/v1/events', 'GET')!.endpoint;
    const first = endpointDefaults(endpoint, site);
    expect(first.start_date).toBe('2026-11-20 18:59:00');
    expect(first.end_date).toBe('2028-11-21 16:41:37');
    expect(first.page).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    clock.advance(700);
    expect(endpointDefaults(endpoint, site)).toBe(first);
    clock.advance(100);
    const next = endpointDefaults(endpoint, site);
    expect(next).not.toBe(first);
    expect(next.end_date).toBe('2028-11-21 16:41:38');
    await site.updateSettings({ posts_per_page: 7 });
    expect(endpointDefaults(endpoint, site).per_page).toBe('7');
    // An endpoint with fixed defaults only hands out the same frozen object.
    const fixed = site.registry.match('/cal/events/v1/categories', 'GET')!.endpoint;
    expect(endpointDefaults(fixed, site)).toBe(endpointDefaults(fixed, site));
  });

  it('are frozen all the way down: a handler cannot change a default list for the requests after it', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger });
    await site.ready();
    const endpoint = site.registry.match('/regenerate-thumbnails/v1/regenerate/5', 'POST')!.endpoint;
    const defaults = endpointDefaults(endpoint, site);
    const postTypes = defaults.update_usages_in_posts_post_type as unknown[];
    expect(postTypes).toEqual([]);
    expect(Object.isFrozen(postTypes)).toBe(true);
    expect(() => postTypes.push('page')).toThrow(TypeError);
    expect(endpointDefaults(endpoint, site).update_usages_in_posts_post_type).toEqual([]);
    // The arg's own description of its default (what the index shows) is the same frozen list.
    expect(Object.isFrozen(endpoint.args.update_usages_in_posts_post_ids!.default)).toBe(true);
  });

  it("freeze an embedder's own route's defaults too, but leave a buffer as it is (its bytes cannot be frozen)", async () => {
    const mine = defineNamespace({
      namespace: 'my-app/v1',
      routes: [
        {
          path: '/things',
          endpoints: [
            {
              methods: READABLE,
              args: { tags: { type: 'array', default: [['a']] }, seed: { default: Buffer.from('seed') } },
              handler: (request) => ({ tags: request.get('tags'), seed: String(request.get('seed')) }),
            },
          ],
        },
      ],
    });
    const site = createSite({ store: memoryStore(), logger: silentLogger, namespaces: [...builtInNamespaces(), mine] });
    await site.ready();
    const defaults = endpointDefaults(site.registry.match('/my-app/v1/things', 'GET')!.endpoint, site);
    expect(Object.isFrozen((defaults.tags as unknown[][])[0])).toBe(true);
    expect(Object.isFrozen(defaults.seed)).toBe(false);
    const answer = await site.handle({ method: 'GET', path: '/my-app/v1/things', query: '', headers: {} });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ tags: [['a']], seed: 'seed' });
  });

  it('are never written by set(): a param only the defaults hold is set on the request', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger });
    await site.ready();
    const endpoint = site.registry.match('/cal/events/v1/events', 'GET')!.endpoint;
    const defaults = endpointDefaults(endpoint, site);
    const request = new ApiRequest({ site, method: 'GET', rawMethod: 'GET', path: '/cal/events/v1/events', headers: {}, query: {}, json: null, form: {}, files: [], principal: null, apiRoot: 'http://x/api/', jsonContentType: false });
    request.setDefaults(defaults);
    expect(request.get('page')).toBe(1);
    request.set('page', 3);
    expect(request.get('page')).toBe(3);
    expect(defaults.page).toBe(1);
    expect(request.queryParams().page).toBe(3);
  });
});
