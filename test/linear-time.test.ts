import { describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type SiteResponse } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { basicAuth } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

/**
 * Every argument of every route of the root index, given a long run of one character between two letters, as an
 * administrator (who reaches every route and argument): each answer comes in linear time. Patterns such as
 * `\s*,\s*` or `[ \t…]+$` are retried from every character of a run that the character they expect does not
 * follow, and took seconds (150,000 spaces: 20 s) before they were replaced; the fuzz suite draws such runs too,
 * but not for every argument.
 */
const RUN = 100_000;
const CHARACTERS = [' ', '\n', '+', '<', '&', '-', '.', '(', '[', ',', 'a', '%', '\\'];
/** A quadratic transform takes seconds at this length; a linear one, milliseconds (room left for a busy machine). */
const SLOWEST_MS = 2_000;

describe('every route and argument in linear time', () => {
  it(`answers ${RUN.toLocaleString('en')}-character runs of ${CHARACTERS.length} characters in every argument within ${SLOWEST_MS} ms`, { timeout: 600_000 }, async () => {
    const site = createSite({ store: memoryStore(), settings: { name: 'Linear', url: 'http://example.test' }, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
    await site.ready();
    await site.createUser({ login: 'admin', email: 'admin@example.org', roles: ['administrator'] });
    await seedDemoSite(site);
    const authorization = basicAuth('admin', (await site.createApplicationPassword('admin', 'linear')).password);
    const call = (method: string, path: string, query: string, body?: unknown): Promise<SiteResponse> =>
      site.handle({
        method,
        path,
        query,
        headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
        basePath: '/api',
        body: body === undefined ? undefined : { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify(body)) },
      });
    const index = JSON.parse((await call('GET', '/', '')).body) as { routes: Record<string, { endpoints: Array<{ methods: string[]; args?: Record<string, unknown> }> }> };
    const slow: string[] = [];
    let asked = 0;
    for (const [route, { endpoints }] of Object.entries(index.routes)) {
      // Path variables: an id of the demo data, or a word.
      const path = route.replace(/\(\?P<id>[^)]*\)/g, '1').replace(/\(\?P<\w+>[^)]*\)/g, 'x');
      if (path.includes('(')) continue;
      for (const { methods, args } of endpoints) {
        for (const method of methods) {
          if (method === 'DELETE') continue;
          for (const arg of Object.keys(args ?? {})) {
            for (const character of CHARACTERS) {
              const value = `x${character.repeat(RUN)}x`;
              const started = performance.now();
              const answer = method === 'GET' ? await call('GET', path, `${encodeURIComponent(arg)}=${encodeURIComponent(value)}`) : await call(method, path, '', { [arg]: value });
              const ms = performance.now() - started;
              asked++;
              if (ms > SLOWEST_MS || answer.status >= 500) slow.push(`${method} ${path} ${arg}=${JSON.stringify(character)}×${RUN}: ${answer.status} in ${Math.round(ms)} ms`);
            }
          }
        }
      }
    }
    expect(asked).toBeGreaterThan(1_000);
    expect(slow).toEqual([]);
  });
});
