import { describe, expect, it } from 'vitest';
import { NS, useRedirectionSite } from './harness.js';

/** Hits, last access, the redirect log, the 404 log, IP logging modes and expiry (reference §6). */
describe('hits and logs', () => {
  const t = useRedirectionSite();
  const settings = (body: Record<string, unknown>) => t.api('POST', `${NS}/setting`, body);
  const lastLog = async () => (await t.api('GET', `${NS}/log`)).body.items[0];

  it('decides the app\'s own pages at once once redirects are loaded, and still logs their 404s', async () => {
    const request = (url: string) => ({ method: 'GET', url, headers: { host: '127.0.0.1' }, remoteAddress: '127.0.0.1', secure: false });
    await t.redirect({ url: '/fast-old', action_data: { url: '/fast-new' } });
    // Loaded by a first request; from then on a URL no redirect matches needs no promise, one that matches does.
    expect((await t.visit('/fast-old')).status).toBe(301);
    expect(t.site.redirects.handleNow(request('/fast-nothing'))).toMatchObject({ action: 'continue' });
    expect(t.site.redirects.handleNow(request('/fast-old'))).toBeNull();
    expect(t.site.redirects.handleNow(request('/api/'))).toEqual({ action: 'nothing' });
    // The first look, from the URL alone: the app answers and its 404 is watched; a redirect needs a closer look.
    expect(t.site.redirects.passNow('/fast-nothing')).toBe('watch-404');
    expect(t.site.redirects.passNow('/fast-old')).toBeNull();
    expect(t.site.redirects.passNow('/FAST-OLD/')).toBeNull();
    expect(t.site.redirects.passNow('/api/')).toBe('pass');
    // A new redirect is seen at once: the loaded redirects are dropped, so the fast path waits for them again.
    await t.redirect({ url: '/fast-nothing', action_data: { url: '/fast-new' } });
    expect(t.site.redirects.handleNow(request('/fast-nothing'))).toBeNull();
    expect(t.site.redirects.passNow('/fast-nothing')).toBeNull();
    expect((await t.visit('/fast-nothing')).status).toBe(301);
    const missing = await t.visit('/fast-missing-page');
    expect(missing.status).toBe(404);
    await t.flush();
    const logged = (await t.api('GET', `${NS}/404`)).body.items.map((row: { url: string }) => row.url);
    expect(logged).toContain('/fast-missing-page');
  });

  it('counts a hit, sets the last access and logs the redirect', async () => {
    const r = await t.redirect({ url: '/hit-me', action_data: { url: '/target' }, action_code: 302, match_data: { source: { flag_query: 'ignore' } } });
    const answer = await t.visit('/hit-me?x=%20y', { headers: { 'user-agent': 'tester/2', referer: 'https://from.example/' } });
    expect(answer.status).toBe(302);
    expect(answer.header('x-redirect-by')).toBe('redirection');
    await t.flush();
    const list = await t.api('GET', `${NS}/redirect?filterBy[id]=${r.id}`);
    expect(list.body.items[0]).toMatchObject({ hits: 1, last_access: 'November 21, 2026' });
    expect(await lastLog()).toEqual({
      id: expect.any(Number),
      created: 'November 21, 2026',
      created_time: '4:41 pm',
      url: '/hit-me?x= y',
      agent: 'tester/2',
      referrer: 'https://from.example/',
      domain: 'http://127.0.0.1',
      ip: '',
      http_code: 302,
      request_method: 'GET',
      request_data: '',
      sent_to: '/target',
      redirection_id: r.id,
      redirect_by_slug: 'redirection',
      redirect_by: 'Redirection',
    });
  });

  it('logs no row for an excluded redirect, and counts no hit when hits are not tracked', async () => {
    const excluded = await t.redirect({ url: '/excluded', action_data: { url: '/t' }, match_data: { options: { log_exclude: true } } });
    const before = (await t.api('GET', `${NS}/log`)).body.total;
    await t.visit('/excluded');
    await settings({ track_hits: false });
    await t.visit('/excluded');
    await settings({ track_hits: true });
    await t.flush();
    expect((await t.api('GET', `${NS}/log`)).body.total).toBe(before);
    expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${excluded.id}`)).body.items[0].hits).toBe(1);
  });

  it('records no hit and no log row for error, nothing and random actions', async () => {
    const gone = await t.redirect({ url: '/gone-too', action_type: 'error', action_code: 410 });
    const before = (await t.api('GET', `${NS}/log`)).body.total;
    const answer = await t.visit('/gone-too');
    expect(answer.status).toBe(410);
    expect(answer.header('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
    await t.flush();
    expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${gone.id}`)).body.items[0].hits).toBe(0);
    expect((await t.api('GET', `${NS}/log`)).body.total).toBe(before);
  });

  it('logs the IP as the ip_logging setting says, through a trusted proxy header when configured', async () => {
    await t.redirect({ url: '/ip-log', action_data: { url: '/t' } });
    const ipOf = async (headers: Record<string, string> = {}) => {
      await t.visit('/ip-log', { headers });
      await t.flush();
      return (await lastLog()).ip;
    };
    expect(await ipOf()).toBe('');
    await settings({ ip_logging: 1 });
    expect(await ipOf()).toBe('127.0.0.1');
    await settings({ ip_logging: 2 });
    expect(await ipOf()).toBe('127.0.0.0');
    await settings({ ip_logging: 1, ip_headers: ['HTTP_X_FORWARDED_FOR'] });
    expect(await ipOf({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' })).toBe('203.0.113.9');
    await settings({ ip_proxy: ['10.9.9.9'] });
    expect(await ipOf({ 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
    await settings({ ip_logging: 0, ip_headers: [], ip_proxy: [] });
  });

  it('logs request headers (never cookies) with log_header', async () => {
    await settings({ log_header: true });
    await t.redirect({ url: '/with-headers', action_data: { url: '/t' } });
    await t.visit('/with-headers', { headers: { 'x-custom': 'yes', cookie: 'secret=1' } });
    await t.flush();
    const row = await lastLog();
    expect(row.request_data.headers).toMatchObject({ 'X-Custom': 'yes' });
    expect(JSON.stringify(row.request_data)).not.toContain('secret');
    await settings({ log_header: false });
  });

  it('logs a 404 the app answers, unless a redirect said "do nothing"', async () => {
    const before = (await t.api('GET', `${NS}/404`)).body.total;
    await t.visit('/missing-page?q=1');
    await t.redirect({ url: '/quiet', action_type: 'nothing' });
    await t.visit('/quiet');
    await t.flush();
    const list = await t.api('GET', `${NS}/404`);
    expect(list.body.total).toBe(before + 1);
    expect(list.body.items[0]).toMatchObject({ url: '/missing-page?q=1', http_code: 404, request_method: 'GET' });
    expect(Object.keys(list.body.items[0])).toEqual(['id', 'created', 'created_time', 'url', 'agent', 'referrer', 'domain', 'ip', 'http_code', 'request_method', 'request_data']);
  });

  it('does not log at all with expire -1', async () => {
    await settings({ expire_redirect: -1, expire_404: -1 });
    const logs = (await t.api('GET', `${NS}/log`)).body.total;
    const notFound = (await t.api('GET', `${NS}/404`)).body.total;
    await t.visit('/hit-me');
    await t.visit('/missing-again');
    await t.flush();
    expect((await t.api('GET', `${NS}/log`)).body.total).toBe(logs);
    expect((await t.api('GET', `${NS}/404`)).body.total).toBe(notFound);
    await settings({ expire_redirect: 7, expire_404: 7 });
  });

  it('expires rows older than the settings keep them', async () => {
    await settings({ expire_redirect: 1, expire_404: 1 });
    const total = (await t.api('GET', `${NS}/log`)).body.total;
    expect(total).toBeGreaterThan(0);
    t.clock.set(Date.parse('2026-11-23T00:00:00Z'));
    await t.visit('/hit-me');
    await t.flush();
    await t.site.redirects.expireLogs();
    const after = await t.api('GET', `${NS}/log`);
    expect(after.body.total).toBe(1);
    expect(after.body.items[0].created).toBe('November 23, 2026');
    expect((await t.api('GET', `${NS}/404`)).body.total).toBe(0);
  });
});

describe('custom headers', () => {
  const t = useRedirectionSite();

  it('sends site headers on every answer of the app, redirect headers on redirects', async () => {
    await t.api('POST', `${NS}/setting`, {
      headers: [
        { type: 'custom', headerName: 'x-site-wide', headerValue: 'on', location: 'site' },
        { type: 'custom', headerName: 'x-only-redirects', headerValue: 'yes', location: 'redirect' },
      ],
    });
    await t.redirect({ url: '/custom-headers', action_data: { url: '/t' } });
    const page = await t.visit('/newer-page');
    expect(page.header('x-site-wide')).toBe('on');
    expect(page.header('x-only-redirects')).toBeUndefined();
    const redirect = await t.visit('/custom-headers');
    expect([redirect.header('x-site-wide'), redirect.header('x-only-redirects')]).toEqual(['on', 'yes']);
  });
});

for (const adapter of ['express', 'fastify'] as const) {
  describe(`custom headers Node cannot send as written, through ${adapter}`, () => {
    const t = useRedirectionSite({ adapter });

    it('leaves out the characters Node cannot send in a header (control characters, beyond Latin-1) instead of failing', async () => {
      await t.api('POST', `${NS}/setting`, {
        headers: [
          { type: 'custom', headerName: 'x-price', headerValue: 'ab\u0001c \u20ac5 net', location: 'site' },
          { type: 'custom', headerName: 'x-only-redirects', headerValue: 'y\u007fes \u20ac', location: 'redirect' },
        ],
      });
      await t.redirect({ url: '/odd-headers', action_data: { url: '/t' } });
      // The first request after the settings changed is decided asynchronously, the next ones at once: both.
      for (let i = 0; i < 2; i++) {
        const redirect = await t.visit('/odd-headers');
        expect(redirect.status).toBe(301);
        expect([redirect.header('x-price'), redirect.header('x-only-redirects')]).toEqual(['abc 5 net', 'yes']);
        const page = await t.visit('/a-page-of-the-app');
        expect(page.status).toBe(404);
        expect(page.header('x-price')).toBe('abc 5 net');
      }
    });
  });
}
