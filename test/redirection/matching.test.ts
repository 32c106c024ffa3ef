import { describe, expect, it } from 'vitest';
import { NS, useRedirectionSite } from './harness.js';

/**
 * How requests are matched and answered (Redirection's reference §5): each row creates its redirects under a
 * path of its own, sends requests to the app and checks the answers. Flags, query modes, match types and
 * action types each have rows.
 */
interface Visit {
  path: string;
  headers?: Record<string, string>;
  status: number;
  location?: string;
}

interface Case {
  name: string;
  redirects: (p: string) => Array<Record<string, unknown>>;
  visits: (p: string) => Visit[];
}

const flags = (source: Record<string, unknown>) => ({ match_data: { source: { flag_query: 'exact', flag_case: false, flag_trailing: false, flag_regex: false, ...source } } });
const to = (url: string) => ({ action_data: { url } });

const CASES: Case[] = [
  {
    name: 'a plain source redirects with its code and target',
    redirects: (p) => [{ url: `${p}/old`, ...to('/new'), action_code: 301 }],
    visits: (p) => [{ path: `${p}/old`, status: 301, location: '/new' }, { path: `${p}/other`, status: 404 }],
  },
  {
    name: 'flag_case on: any case matches',
    redirects: (p) => [{ url: `${p}/Case`, ...to('/t'), ...flags({ flag_case: true }) }],
    visits: (p) => [{ path: `${p}/CASE`, status: 301 }, { path: `${p}/case`, status: 301 }],
  },
  {
    name: 'flag_case off: only the same case matches',
    redirects: (p) => [{ url: `${p}/Case`, ...to('/t'), ...flags({ flag_case: false }) }],
    visits: (p) => [{ path: `${p}/Case`, status: 301 }, { path: `${p}/case`, status: 404 }],
  },
  {
    name: 'flag_trailing on: a trailing slash is ignored',
    redirects: (p) => [{ url: `${p}/trail`, ...to('/t'), ...flags({ flag_trailing: true }) }],
    visits: (p) => [{ path: `${p}/trail/`, status: 301 }, { path: `${p}/trail`, status: 301 }],
  },
  {
    name: 'flag_trailing off: a trailing slash is part of the path',
    redirects: (p) => [{ url: `${p}/trail`, ...to('/t'), ...flags({ flag_trailing: false }) }],
    visits: (p) => [{ path: `${p}/trail/`, status: 404 }, { path: `${p}/trail`, status: 301 }],
  },
  {
    name: 'query exact: the same parameters in any order, no others',
    redirects: (p) => [{ url: `${p}/q?a=1&b=2`, ...to('/t'), ...flags({ flag_query: 'exact' }) }],
    visits: (p) => [
      { path: `${p}/q?b=2&a=1`, status: 301 },
      { path: `${p}/q?a=1&b=2&c=3`, status: 404 },
      { path: `${p}/q?a=1`, status: 404 },
      { path: `${p}/q?a=1&b=3`, status: 404 },
    ],
  },
  {
    name: 'query exactorder: the same parameters in the same order',
    redirects: (p) => [{ url: `${p}/q?a=1&b=2`, ...to('/t'), ...flags({ flag_query: 'exactorder' }) }],
    visits: (p) => [{ path: `${p}/q?a=1&b=2`, status: 301 }, { path: `${p}/q?b=2&a=1`, status: 404 }],
  },
  {
    name: 'query ignore: other parameters allowed and not passed on',
    redirects: (p) => [{ url: `${p}/q`, ...to('/t'), ...flags({ flag_query: 'ignore' }) }],
    visits: (p) => [{ path: `${p}/q?x=1`, status: 301, location: '/t' }],
  },
  {
    name: 'query pass: other parameters passed on, the target keeps its own',
    redirects: (p) => [{ url: `${p}/q`, ...to('/t?keep=1'), ...flags({ flag_query: 'pass' }) }],
    visits: (p) => [
      { path: `${p}/q?thing=Yes&keep=2`, status: 301, location: '/t?keep=1&thing=Yes' },
      { path: `${p}/q`, status: 301, location: '/t?keep=1' },
    ],
  },
  {
    name: 'regex with $1 substitution',
    redirects: (p) => [{ url: `^${p}/blog/(\\d+)/(.*)$`, ...to('/posts/$2?id=$1'), regex: true, action_code: 302 }],
    visits: (p) => [{ path: `${p}/blog/12/hello-world`, status: 302, location: '/posts/hello-world?id=12' }, { path: `${p}/blog/x/y`, status: 404 }],
  },
  {
    name: 'regex without anchors replaces only the matched span',
    redirects: (p) => [{ url: `${p}/source(.*)`, ...to(`${p}/target$1`), regex: true }],
    visits: (p) => [{ path: `${p}/source45`, status: 301, location: `${p}/target45` }],
  },
  {
    name: 'a regex that does not compile never matches; the next redirect does',
    redirects: (p) => [
      { url: `^${p}/bad(`, ...to('/never'), regex: true, position: 1 },
      { url: `${p}/bad(`, ...to('/plain'), position: 2 },
    ],
    visits: (p) => [{ path: `${p}/bad(`, status: 301, location: '/plain' }],
  },
  {
    name: 'a pattern built to backtrack forever answers at once',
    redirects: (p) => [{ url: `^${p}/(a+)+$`, ...to('/evil'), regex: true }],
    visits: (p) => [{ path: `${p}/${'a'.repeat(5000)}!`, status: 404 }, { path: `${p}/aaaa`, status: 301 }],
  },
  {
    name: 'position order decides, ties by id',
    redirects: (p) => [
      { url: `${p}/pos`, ...to('/third'), position: 5 },
      { url: `^${p}/po.*`, ...to('/first'), regex: true, position: 1 },
      { url: `${p}/pos`, ...to('/second'), position: 1 },
    ],
    visits: (p) => [{ path: `${p}/pos`, status: 301, location: '/first' }],
  },
  {
    name: 'login: the logged-in and logged-out targets',
    redirects: (p) => [{ url: `${p}/members`, match_type: 'login', action_data: { logged_in: '/in', logged_out: '/out' } }],
    visits: (p) => [
      { path: `${p}/members`, status: 301, location: '/out' },
      { path: `${p}/members`, headers: { 'x-test-user': 'editor' }, status: 301, location: '/in' },
    ],
  },
  {
    name: 'role: a role or capability of the signed-in user',
    redirects: (p) => [{ url: `${p}/staff`, match_type: 'role', action_data: { role: 'edit_others_posts', url_from: '/staff-area', url_notfrom: '' } }],
    visits: (p) => [
      { path: `${p}/staff`, headers: { 'x-test-user': 'editor' }, status: 301, location: '/staff-area' },
      { path: `${p}/staff`, headers: { 'x-test-user': 'subscriber' }, status: 404 },
      { path: `${p}/staff`, status: 404 },
    ],
  },
  {
    name: 'referrer: equal, or a case-insensitive regex',
    redirects: (p) => [
      { url: `${p}/ref`, match_type: 'referrer', action_data: { regex: true, referrer: 'search\\.example', url_from: '/from-search', url_notfrom: '/elsewhere' } },
    ],
    visits: (p) => [
      { path: `${p}/ref`, headers: { referer: 'https://SEARCH.example/q' }, status: 301, location: '/from-search' },
      { path: `${p}/ref`, status: 301, location: '/elsewhere' },
    ],
  },
  {
    name: 'agent: the User-Agent equal',
    redirects: (p) => [{ url: `${p}/agent`, match_type: 'agent', action_data: { regex: false, agent: 'Bot/1', url_from: '/bots', url_notfrom: '' } }],
    visits: (p) => [{ path: `${p}/agent`, headers: { 'user-agent': 'Bot/1' }, status: 301, location: '/bots' }, { path: `${p}/agent`, headers: { 'user-agent': 'Bot/2' }, status: 404 }],
  },
  {
    name: 'cookie: a cookie with that value',
    redirects: (p) => [{ url: `${p}/cookie`, match_type: 'cookie', action_data: { regex: false, name: 'beta', value: 'yes', url_from: '/beta', url_notfrom: '' } }],
    visits: (p) => [{ path: `${p}/cookie`, headers: { cookie: 'a=1; beta=yes' }, status: 301, location: '/beta' }, { path: `${p}/cookie`, headers: { cookie: 'beta=no' }, status: 404 }],
  },
  {
    name: 'header: a request header with that value',
    redirects: (p) => [{ url: `${p}/header`, match_type: 'header', action_data: { regex: false, name: 'X-Flag', value: 'on', url_from: '/flagged', url_notfrom: '' } }],
    visits: (p) => [{ path: `${p}/header`, headers: { 'x-flag': 'on' }, status: 301, location: '/flagged' }, { path: `${p}/header`, status: 404 }],
  },
  {
    name: 'server: the host the request was made to',
    redirects: (p) => [{ url: `${p}/server`, match_type: 'server', action_data: { server: 'old.example', url_from: '/moved', url_notfrom: '' } }],
    visits: (p) => [{ path: `${p}/server`, headers: { host: 'old.example' }, status: 301, location: '/moved' }, { path: `${p}/server`, status: 404 }],
  },
  {
    name: 'ip: the client address (matched on the real address whatever the logging mode)',
    redirects: (p) => [{ url: `${p}/ip`, match_type: 'ip', action_data: { ip: ['127.0.0.1', 'bad', '::1'], url_from: '/local', url_notfrom: '/remote' } }],
    visits: (p) => [{ path: `${p}/ip`, status: 301, location: '/local' }],
  },
  {
    name: 'language: a listed language in Accept-Language',
    redirects: (p) => [{ url: `${p}/lang`, match_type: 'language', action_data: { language: 'fr, de', url_from: '/fr', url_notfrom: '/en' } }],
    visits: (p) => [
      { path: `${p}/lang`, headers: { 'accept-language': 'de;q=0.8,en' }, status: 301, location: '/fr' },
      { path: `${p}/lang`, headers: { 'accept-language': 'es' }, status: 301, location: '/en' },
    ],
  },
  {
    name: 'custom: the host app predicate named by the filter',
    redirects: (p) => [{ url: `${p}/custom`, match_type: 'custom', action_data: { filter: 'is_tuesday', url_from: '/tuesday', url_notfrom: '' } }],
    visits: (p) => [{ path: `${p}/custom`, headers: { 'x-day': 'tuesday' }, status: 301, location: '/tuesday' }, { path: `${p}/custom`, status: 404 }],
  },
  {
    name: 'page: only when the app answers 404',
    redirects: (p) => [
      { url: `${p}/page`, match_type: 'page', action_data: { url: '/not-found-page' } },
      { url: '/newer-page', match_type: 'page', action_data: { url: '/never' } },
    ],
    visits: (p) => [{ path: `${p}/page`, status: 301, location: '/not-found-page' }, { path: '/newer-page', status: 200 }],
  },
  {
    name: 'error action: the status, no-cache headers and X-Redirect-By',
    redirects: (p) => [{ url: `${p}/gone`, action_type: 'error', action_code: 410 }],
    visits: (p) => [{ path: `${p}/gone`, status: 410 }],
  },
  {
    name: 'pass action: the local target is served in place of the request',
    redirects: (p) => [{ url: `${p}/alias`, action_type: 'pass', ...to('/newer-page') }],
    visits: (p) => [{ path: `${p}/alias`, status: 200 }],
  },
  {
    name: 'nothing action: the app answers',
    redirects: (p) => [{ url: `${p}/ignore`, action_type: 'nothing' }],
    visits: (p) => [{ path: `${p}/ignore`, status: 404 }],
  },
];

for (const adapter of ['express', 'fastify'] as const) {
  describe(`redirect matching (${adapter})`, () => {
    const t = useRedirectionSite({
      adapter,
      site: {
        redirects: {
          principal: async (request) => {
            const login = request.headers['x-test-user'];
            return typeof login === 'string' ? { id: 2, login, roles: [login] } : null;
          },
          custom: (filter, request) => filter === 'is_tuesday' && request.headers['x-day'] === 'tuesday',
        },
      },
    });

    CASES.forEach((c, i) => {
      it(c.name, async () => {
        const p = `/case${i}`;
        for (const body of c.redirects(p)) await t.redirect(body);
        for (const visit of c.visits(p)) {
          const answer = await t.visit(visit.path, { headers: visit.headers });
          expect({ path: visit.path, status: answer.status }).toEqual({ path: visit.path, status: visit.status });
          if (visit.location !== undefined) expect(answer.header('location')).toBe(visit.location);
          if (visit.status >= 300 && visit.status !== 404 && visit.status < 500) expect(answer.header('x-redirect-by')).toBe('redirection');
        }
      });
    });

    it('answers a pass-through with the target page', async () => {
      await t.redirect({ url: '/alias-body', action_type: 'pass', action_data: { url: '/members/home' } });
      const answer = await t.visit('/alias-body');
      expect(answer.raw).toBe('page /members/home');
    });

    it('never redirects the REST API, and never logs its 404s', async () => {
      await t.redirect({ url: '/api/redirection/v1/nowhere', ...to('/t') });
      await t.flush();
      const before = (await t.api('GET', `${NS}/404`)).body.total;
      expect((await t.visit('/api/redirection/v1/nowhere')).status).toBe(404);
      await t.flush();
      expect((await t.api('GET', `${NS}/404`)).body.total).toBe(before);
    });
  });
}

describe('regex safety', () => {
  it('treats patterns that would compile to a huge program as not compiling, and answers fast', async () => {
    const { compilePattern } = await import('../../packages/core/src/namespaces/redirection/regex.js');
    expect(compilePattern('(a*)*'.repeat(300), true)).toBeNull();
    expect(compilePattern('[\\s\\S]{1000}', true)).toBeNull();
    expect(compilePattern('(?=lookahead)', true)).toBeNull();
    const ok = compilePattern('^/(\\d{4})/(\\d{2})/(.*)$', true)!;
    expect(ok.replace('/2024/05/post', '/archive/$1-$2/${3}')).toBe('/archive/2024-05/post');
    const evil = compilePattern('(a*)*'.repeat(20) + '.', false)!;
    const started = performance.now();
    expect(evil.test('a'.repeat(1999) + '!')).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(evil.test('a'.repeat(5000))).toBe(false);
  });

  it('finds the texts every match must contain (the pre-filter)', async () => {
    const { requiredLiterals } = await import('../../packages/core/src/namespaces/redirection/regex.js');
    expect(requiredLiterals('^/blog/(\\d+)/(.*)$')).toEqual(['/blog/']);
    expect(requiredLiterals('^/Shop/items?/x\\.html$')).toEqual(['/shop/item', '/x.html']);
    expect(requiredLiterals('^/(a|b)/same$')).toEqual(['/same']);
    expect(requiredLiterals('^/a|/b$')).toEqual([]);
    expect(requiredLiterals('[/]abc+def')).toEqual(['abc', 'def']);
  });
});
