import { describe, expect, it } from 'vitest';
import { coreErrors, createSite, manualClock, silentLogger, type CreateSiteOptions, type SiteRequest } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';

/** A site whose app signs users in with a `sid` cookie, as an app with its own sessions would. */
async function cookieSite(extra: Partial<CreateSiteOptions> = {}) {
  const clock = manualClock('2026-11-21T16:41:37Z');
  const store = memoryStore();
  const sessions = new Map<string, number>();
  const site = createSite({
    store,
    clock,
    logger: silentLogger,
    authenticate: (request) => {
      const sid = /(?:^|;\s*)sid=([^;]+)/.exec(String(request.headers.cookie ?? ''))?.[1];
      const userId = sid === undefined ? undefined : sessions.get(sid);
      return userId === undefined ? null : { userId, session: sid };
    },
    ...extra,
  });
  const admin = await site.createUser({ login: 'admin', roles: ['administrator'] });
  sessions.set('s1', admin.id);
  sessions.set('s2', admin.id);
  const call = async (request: Partial<SiteRequest>) => {
    const response = await site.handle({ method: 'GET', path: '/', headers: {}, ...request });
    const header = (name: string) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    return { ...response, header, json: response.body ? JSON.parse(response.body) : null };
  };
  const signedIn = async (headers: Record<string, string>) => {
    // Application passwords are listed for signed-in users only: the root index tells who the caller is.
    const answer = await call({ path: '/cal/events/v1/events', query: 'status=draft', headers });
    return answer.status === 200;
  };
  return { site, clock, store, admin, call, signedIn };
}

describe('cookie sessions need a nonce (WordPress rest_cookie_check_errors)', () => {
  it('treats a session without a nonce as anonymous, and accepts the session\'s nonce for 12 to 24 hours', async () => {
    const { site, clock, admin, signedIn, call } = await cookieSite();
    expect(await signedIn({ cookie: 'sid=s1' })).toBe(false);
    const nonce = await site.createNonce(admin.id, { session: 's1' });
    expect(nonce).toMatch(/^[0-9a-f]{10}$/);
    expect(await signedIn({ cookie: 'sid=s1', 'x-wp-nonce': nonce })).toBe(true);
    clock.advance(12 * 3600 * 1000);
    expect(await signedIn({ cookie: 'sid=s1', 'x-wp-nonce': nonce })).toBe(true);
    clock.advance(12 * 3600 * 1000);
    const expired = await call({ headers: { cookie: 'sid=s1', 'x-wp-nonce': nonce } });
    expect(expired.status).toBe(403);
    expect(expired.json).toEqual(coreErrors.cookieInvalidNonce().toWire());
  });

  it('refuses another session\'s nonce, and one sent by a visitor without a session (as WordPress)', async () => {
    const { site, admin, call, signedIn } = await cookieSite();
    const other = await site.createNonce(admin.id, { session: 's2' });
    expect((await call({ headers: { cookie: 'sid=s1', 'x-wp-nonce': other } })).status).toBe(403);
    expect((await call({ headers: { 'x-wp-nonce': other } })).status).toBe(403);
    // A visitor's own nonce (user 0) is fine, and keeps the request anonymous.
    const visitor = await site.createNonce(0);
    expect((await call({ headers: { 'x-wp-nonce': visitor } })).status).toBe(200);
    expect(await signedIn({ 'x-wp-nonce': visitor })).toBe(false);
  });

  it('reads _wpnonce from the form body and the query string, and hostile values are just wrong nonces', async () => {
    const { site, admin, call } = await cookieSite();
    const nonce = await site.createNonce(admin.id, { session: 's1' });
    const bytes = Buffer.from(`name=From+a+form&_wpnonce=${nonce}`);
    const created = await call({
      method: 'POST',
      path: '/cal/events/v1/tags',
      headers: { cookie: 'sid=s1', 'content-type': 'application/x-www-form-urlencoded' },
      body: { kind: 'raw', contentType: 'application/x-www-form-urlencoded', bytes },
    });
    expect(created.status).toBe(201);
    expect(created.header('x-wp-nonce')).toMatch(/^[0-9a-f]{10}$/);
    expect((await call({ query: `_wpnonce=${nonce}`, headers: { cookie: 'sid=s1' } })).header('x-wp-nonce')).toBeDefined();
    for (const query of ['_wpnonce[]=x', '_wpnonce[__proto__]=1', `_wpnonce=${'f'.repeat(100_000)}`, '_wpnonce=']) {
      expect((await call({ query, headers: { cookie: 'sid=s1' } })).status).toBe(403);
    }
  });

  it('lets a hook say its credentials are a header a browser never sends by itself: no nonce needed', async () => {
    const store = memoryStore();
    const site = createSite({ store, logger: silentLogger, authenticate: (request) => (request.headers['x-api-key'] === 'k' ? { login: 'admin', credentials: 'header' } : null) });
    await site.createUser({ login: 'admin', roles: ['administrator'] });
    const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: 'status=draft', headers: { 'x-api-key': 'k' } });
    expect(answer.status).toBe(200);
  });

  it('verifies on one instance the nonces another issued (the key is kept in the store)', async () => {
    const { site, store, admin, clock } = await cookieSite();
    const twin = createSite({ store, clock, logger: silentLogger, authenticate: () => ({ userId: admin.id, session: 's1' }) });
    const nonce = await site.createNonce(admin.id, { session: 's1' });
    const answer = await twin.handle({ method: 'GET', path: '/cal/events/v1/events', query: 'status=draft', headers: { 'x-wp-nonce': nonce } });
    expect(answer.status).toBe(200);
  });
});

describe('CORS', () => {
  it('never grants credentials to a cookie session that came without a nonce', async () => {
    const { call } = await cookieSite();
    const cookieOnly = await call({ headers: { cookie: 'sid=s1', origin: 'https://evil.example' } });
    expect(cookieOnly.header('access-control-allow-origin')).toBe('https://evil.example');
    expect(cookieOnly.header('access-control-allow-credentials')).toBeUndefined();
    const anonymous = await call({ headers: { origin: 'https://evil.example' } });
    expect(anonymous.header('access-control-allow-credentials')).toBe('true');
  });

  it('limits cross-origin reads to the configured origins, or sends no CORS headers at all', async () => {
    const listed = await cookieSite({ cors: { origins: ['https://app.example'] } });
    const allowed = await listed.call({ headers: { origin: 'https://app.example' } });
    expect(allowed.header('access-control-allow-origin')).toBe('https://app.example');
    const refused = await listed.call({ headers: { origin: 'https://evil.example' } });
    expect(refused.header('access-control-allow-origin')).toBeUndefined();
    expect(refused.header('access-control-allow-credentials')).toBeUndefined();
    expect(refused.header('vary')).toBe('Origin');
    const tested = await cookieSite({ cors: { origins: (origin) => origin.endsWith('.example.org') } });
    expect((await tested.call({ headers: { origin: 'https://a.example.org' } })).header('access-control-allow-origin')).toBe('https://a.example.org');
    expect((await tested.call({ headers: { origin: 'https://example.org.evil' } })).header('access-control-allow-origin')).toBeUndefined();
    const off = await cookieSite({ cors: false });
    expect((await off.call({ headers: { origin: 'https://app.example' } })).header('access-control-allow-origin')).toBeUndefined();
  });
});
