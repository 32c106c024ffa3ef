import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { filterDiscoveredHtml, lastIframe } from '../src/namespaces/oembed/filter.js';

/** The search lastIframe replaced: each `<iframe` from the end, the first `></iframe>` after it. */
function lastIframeByEachStart(html: string): string | null {
  for (let start = html.lastIndexOf('<iframe'); start !== -1; start = start > 0 ? html.lastIndexOf('<iframe', start - 1) : -1) {
    const end = html.indexOf('></iframe>', start);
    if (end !== -1) return html.slice(start, end + '></iframe>'.length);
  }
  return null;
}

describe('the iframe of a discovered provider', () => {
  it('is the last <iframe> a ></iframe> follows, as before', () => {
    const pieces = ['<iframe', ' src="x"', '>', '></iframe>', '</iframe>', 'a', '<', '<iframe></iframe>'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((chosen) => chosen.join('')), (html) => {
        expect(lastIframe(html)).toBe(lastIframeByEachStart(html));
      }),
      { numRuns: 3_000 },
    );
  });

  it('is found in linear time among a megabyte of iframes with content', () => {
    const html = '<iframe src="https://a.example/">x</iframe>'.repeat(25_000);
    expectWithin(100, () => {
      expect(lastIframe(html)).toBeNull();
      expect(lastIframe(`<iframe src="https://a.example/"></iframe>${html}`)).toBe('<iframe src="https://a.example/"></iframe>');
    });
    expectWithin(5_000, () => expect(filterDiscoveredHtml(html, 'abcdefghij')).toBe(false));
  });
});
