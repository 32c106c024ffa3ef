import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NS, useRedirectionSite } from './harness.js';

/**
 * Hostile input on every Redirection route: any JSON body, any query, any path to the site. Whatever arrives,
 * the answer is a WordPress-shaped answer with a status below 500, and the site keeps redirecting.
 */
const ROUTES: Array<[string, string]> = [
  ['GET', '/redirect'],
  ['POST', '/redirect'],
  ['POST', '/redirect/1'],
  ['GET', '/redirect/post'],
  ['POST', '/bulk/redirect/delete'],
  ['POST', '/bulk/redirect/enable'],
  ['POST', '/bulk/redirect/reset'],
  ['GET', '/group'],
  ['POST', '/group'],
  ['POST', '/group/1'],
  ['POST', '/bulk/group/disable'],
  ['GET', '/log'],
  ['POST', '/bulk/log/delete'],
  ['GET', '/404'],
  ['POST', '/bulk/404/delete'],
  ['GET', '/setting'],
  ['POST', '/setting'],
  ['GET', '/plugin'],
  ['POST', '/plugin'],
  ['POST', '/plugin/data'],
  ['GET', '/import/plugin'],
  ['POST', '/import/plugin'],
  ['POST', '/import/file/1'],
  ['GET', '/export/all/json'],
];

const KEYS = ['url', 'regex', 'match_data', 'match_type', 'action_type', 'action_code', 'action_data', 'group_id', 'title', 'position', 'hits', 'last_access', 'items', 'global', 'filterBy', 'orderby', 'direction', 'per_page', 'page', 'groupBy', 'name', 'moduleId', 'status', 'expire_redirect', 'headers', 'aliases', 'ip_proxy', 'flag_query', 'flag_case', '__proto__', 'constructor', 'toString'];
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.constantFrom('', '/', '^(a+)+$', '../../etc/passwd', '\u0000\r\nX-Injected: 1', '%E4%B8', 'url', 'error', 'pass', 'login', 'ip', 'page', 'exactorder', 'pass', '1,2,3', 'enabled'),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;
const body = fc.dictionary(fc.constantFrom(...KEYS), hostileValue, { maxKeys: 8 });

describe('hostile input on redirection/v1', () => {
  const t = useRedirectionSite();

  it('never answers 500 on any route, whatever the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), body, async ([method, path], payload) => {
        const answer = await t.api(method, NS + path, payload);
        expect(answer.status, `${method} ${path} ${JSON.stringify(payload)} → ${answer.raw.slice(0, 300)}`).toBeLessThan(500);
        if (answer.status >= 400) expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 300) },
    );
  });

  it('never answers 500 to any request path or query of the app, and keeps redirecting', async () => {
    await t.redirect({ url: '/still-works', action_data: { url: '/t' } });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.string({ maxLength: 100 }), async (path, query) => {
        const safe = `/${encodeURI(path).replace(/^\/+/, '').replace(/#/g, '%23')}`;
        const answer = await t.visit(`${safe}?${encodeURI(query).replace(/#/g, '%23')}`);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
    expect((await t.visit('/still-works')).status).toBe(301);
  });
});
