import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RedirectMatcher } from '../src/namespaces/redirection/runtime/matcher.js';
import { matchUrl } from '../src/namespaces/redirection/url/path.js';
import type { RedirectRecord } from '../src/store/redirection.js';

/*
 * The redirect middleware's first look (`plainMiss`) skips `candidates` for URLs it calls certainly no redirect's.
 * It must never say so of a URL `candidates` would give a redirect for: a false "miss" is a redirect not made.
 */

const SITE_FLAGS = { flag_case: true, flag_trailing: true, flag_query: 'exact', flag_regex: false } as const;

function record(id: number, url: string, regex: boolean): RedirectRecord {
  return {
    id,
    url,
    matchUrl: regex ? 'regex' : matchUrl(url),
    matchData: null,
    regex,
    position: id,
    groupId: 1,
    status: 'enabled',
    actionType: 'url',
    actionCode: 301,
    actionData: { url: '/target' },
    matchType: 'url',
    title: null,
    hits: 0,
    lastAccess: 0,
  };
}

// A small alphabet, so that random URLs and sources meet often; with the characters that end the plain path.
const segment = fc.stringMatching(/^[abAB0-9._~:@,;()!*'$+=é%\\-]{0,6}$/);
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
const query = fc.option(fc.stringMatching(/^[ab0-9=&%+ ]{0,8}$/), { nil: undefined });
const url = fc.tuple(path, query, fc.boolean()).map(([p, q, slash]) => `${p}${slash ? '/' : ''}${q === undefined ? '' : `?${q}`}`);
const source = fc.oneof(
  url.map((u) => ({ url: u, regex: false })),
  fc.tuple(segment, segment).map(([a, b]) => ({ url: `^/${a.replace(/[()\\]/g, '')}/(\\d+)/${b.replace(/[^a-z0-9]/gi, '')}`, regex: true })),
  segment.map((s) => ({ url: `${s.replace(/[^a-z0-9]/gi, '')}abc`, regex: true })),
);

describe('the redirect pre-filter', () => {
  it('never calls a URL no redirect\'s when candidates() would try one', () => {
    fc.assert(
      fc.property(fc.array(source, { maxLength: 30 }), fc.array(url, { minLength: 1, maxLength: 20 }), (sources, urls) => {
        const matcher = new RedirectMatcher(
          sources.map((s, i) => record(i + 1, s.url, s.regex)),
          SITE_FLAGS,
        );
        // The URLs of the redirects themselves are asked too: they are the ones that must not be missed.
        for (const u of [...urls, ...sources.filter((s) => !s.regex).map((s) => s.url)]) {
          if (matcher.plainMiss(u)) expect(matcher.candidates(u), u).toHaveLength(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('answers at once for the plain URLs of a site that match nothing, and looks closer at the others', () => {
    const matcher = new RedirectMatcher(
      [record(1, '/Old/Page', false), record(2, '/with?query=1', false), record(3, '^/archive-7/(\\d+)$', true)],
      SITE_FLAGS,
    );
    expect(matcher.plainMiss('/blog/2026/11/a-post?utm_source=x')).toBe(true);
    expect(matcher.plainMiss('/old/page/')).toBe(false);
    expect(matcher.plainMiss('/OLD/PAGE?x=1')).toBe(false);
    expect(matcher.plainMiss('/ARCHIVE-7/12')).toBe(false);
    // Not plain: decoded, cleaned or keyed another way first.
    expect(matcher.plainMiss('/a%20b')).toBe(false);
    expect(matcher.plainMiss('/caf\u00e9')).toBe(false);
    expect(matcher.plainMiss('/a!b')).toBe(false);
    expect(matcher.plainMiss('')).toBe(false);
  });
});
