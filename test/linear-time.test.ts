import { beforeAll, describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type Site, type SiteResponse } from '@siterest/core';
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
  let site: Site;
  let call: (method: string, path: string, query: string, body?: unknown) => Promise<SiteResponse>;
  let routes: Array<[path: string, endpoints: Array<{ methods: string[]; args?: Record<string, unknown> }>]>;

  beforeAll(async () => {
    site = createSite({ store: memoryStore(), settings: { name: 'Linear', url: 'http://example.test' }, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
    await site.ready();
    await site.createUser({ login: 'admin', email: 'admin@example.org', roles: ['administrator'] });
    await seedDemoSite(site);
    const authorization = basicAuth('admin', (await site.createApplicationPassword('admin', 'linear')).password);
    call = (method, path, query, body) =>
      site.handle({
        method,
        path,
        query,
        headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
        basePath: '/api',
        body: body === undefined ? undefined : { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify(body)) },
      });
    const index = JSON.parse((await call('GET', '/', '')).body) as { routes: Record<string, { endpoints: Array<{ methods: string[]; args?: Record<string, unknown> }> }> };
    // Path variables: an id of the demo data, or a word.
    routes = Object.entries(index.routes)
      .map(([route, { endpoints }]) => [route.replace(/\(\?P<id>[^)]*\)/g, '1').replace(/\(\?P<\w+>[^)]*\)/g, 'x'), endpoints] as [string, typeof endpoints])
      .filter(([path]) => !path.includes('('));
  });

  it(`answers ${RUN.toLocaleString('en')}-character runs of ${CHARACTERS.length} characters in every argument within ${SLOWEST_MS} ms`, { timeout: 600_000 }, async () => {
    const slow: string[] = [];
    let asked = 0;
    for (const [path, endpoints] of routes) {
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

  it('answers paths that go on with long runs below every route within the same time', { timeout: 300_000 }, async () => {
    const slow: string[] = [];
    for (const [route] of routes) {
      for (const run of ['/', 'a', '%2F', '.', '%20', '%', '\\']) {
        // A run of slashes that does not end the path: `/\/+$/` was retried from each of them (30,000: 1.7 s).
        for (const path of [`${route}/${run.repeat(RUN / run.length)}x`, `${route}${run.repeat(RUN / run.length)}`]) {
          const started = performance.now();
          const answer = await call('GET', path, '');
          const ms = performance.now() - started;
          if (ms > SLOWEST_MS || answer.status >= 500) slow.push(`${route} + ${JSON.stringify(run)}×${RUN / run.length}: ${answer.status} in ${Math.round(ms)} ms`);
        }
      }
    }
    expect(slow).toEqual([]);
  });

  /**
   * Stored text is rendered when it is read (the_content's filters, the excerpt): made of one markup opening repeated
   * with no closing, it took the render's patterns seconds (200,000 `[`: 12 s a read) before they were replaced by
   * the scans of text/markup-scans.ts, and wpautop's own patterns as long (100,000 characters of `<p><li`: 3 s) before
   * its input was bounded (format/autop-input.ts). Written once by an editor, it would have held the server on every
   * public read.
   */
  it('renders stored text made of long runs of markup openings within the same time', { timeout: 300_000 }, async () => {
    const slow: string[] = [];
    const records: Array<[path: string, base: Record<string, unknown>, fields: string[]]> = [
      ['/cal/events/v1/events', { title: 'Runs', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' }, ['description', 'excerpt', 'title']],
      ['/cal/events/v1/venues', { venue: 'Runs' }, ['description']],
      ['/cal/events/v1/organizers', { organizer: 'Runs' }, ['description']],
    ];
    const runs: Array<[before: string, opening: string]> = ['[', '<', '<hr><pre', '<!-- wp:a {', '<p><li', '<math', '</div ', '<svg', '<pre</pre>'].map((opening) => ['', opening]);
    // After a `<source>`, autop also reads from every `[audio` or `[video` to the next `>` or `]`, and its patterns
    // that begin with `\s*` (after an `<option>` too) from every character of a run of line breaks, which pairs of
    // `<br />` become.
    runs.push(['<source>', '[audio'], ['<option>', ' \n'], ['</object>', '<br /> ']);
    for (const [before, opening] of runs) {
      const value = `x${before}${opening.repeat(Math.ceil(200_000 / opening.length))}x`;
      for (const [path, base, fields] of records) {
        for (const field of fields) {
          const timed = async (label: string, answer: () => Promise<SiteResponse>) => {
            const started = performance.now();
            const { status, body } = await answer();
            const ms = performance.now() - started;
            if (ms > SLOWEST_MS || status >= 300) slow.push(`${label} ${path} ${field}=${JSON.stringify(before)}+${JSON.stringify(opening)}×…: ${status} in ${Math.round(ms)} ms`);
            return body;
          };
          const created = JSON.parse(await timed('POST', () => call('POST', path, '', { ...base, [field]: value }))) as { id: number };
          await timed('GET', () => call('GET', `${path}/${created.id}`, ''));
          await timed('GET list', () => call('GET', path, 'per_page=50'));
          await call('DELETE', `${path}/${created.id}`, 'force=true');
        }
      }
    }
    expect(slow).toEqual([]);
  });

  /**
   * HTML that nests at every element: the filters' parser (htmlparser2, under sanitize-html) paid the depth at every
   * element it opened, and 300,000 characters of `<a>` took 4.6 s, kses at an author's write and again in the render
   * of what any caller reads. The parser is now given HTML nested within a bound (text/html-filter.ts).
   */
  it('writes as an author and renders HTML nested at every element within the same time', { timeout: 300_000 }, async () => {
    await site.createUser({ login: 'nesting-author', email: 'nesting@example.org', roles: ['author'] });
    const author = basicAuth('nesting-author', (await site.createApplicationPassword('nesting-author', 'linear')).password);
    const asAuthor = (method: string, path: string, query: string, body?: unknown) =>
      site.handle({
        method,
        path,
        query,
        headers: { authorization: author, 'content-type': 'application/json' },
        basePath: '/api',
        body: body === undefined ? undefined : { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify(body)) },
      });
    const slow: string[] = [];
    const timed = async (label: string, answer: () => Promise<SiteResponse>) => {
      const started = performance.now();
      const { status, body } = await answer();
      const ms = performance.now() - started;
      if (ms > SLOWEST_MS || status >= 300) slow.push(`${label}: ${status} in ${Math.round(ms)} ms`);
      return body;
    };
    for (const opening of ['<a>', '<svg>', '<span title="x">', '<div><svg></div>']) {
      const value = opening.repeat(Math.ceil(300_000 / opening.length));
      for (const [who, write] of [['author', asAuthor], ['administrator', call]] as const) {
        const event = { title: 'Nesting', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', description: value, excerpt: value };
        const label = `${who} ${JSON.stringify(opening)}×…`;
        const created = JSON.parse(await timed(`POST event as ${label}`, () => write('POST', '/cal/events/v1/events', '', event))) as { id: number };
        await timed(`GET event of ${label}`, () => call('GET', `/cal/events/v1/events/${created.id}`, ''));
        await timed(`GET events with ${label}`, () => call('GET', '/cal/events/v1/events', 'per_page=50'));
        await call('DELETE', `/cal/events/v1/events/${created.id}`, 'force=true');
        await timed(`POST venue as ${label}`, () => write('POST', '/cal/events/v1/venues', '', { venue: 'Nesting', description: value }));
        await timed(`POST organizer as ${label}`, () => write('POST', '/cal/events/v1/organizers', '', { organizer: 'Nesting', description: value }));
      }
    }
    expect(slow).toEqual([]);
  });
});
