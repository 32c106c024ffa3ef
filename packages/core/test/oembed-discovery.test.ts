import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { discoveredEndpoint } from '../src/namespaces/oembed/proxy.js';

const TYPES: Record<string, 'json' | 'xml'> = { 'application/json+oembed': 'json', 'text/xml+oembed': 'xml', 'application/xml+oembed': 'xml' };

/** WP_oEmbed::discover as PHP reads it, with the attribute pattern tried from every character (small pages only). */
function discoverByPatterns(page: string): string | null {
  const headEnd = page.search(/<\/head>/i);
  const html = headEnd > 0 ? page.slice(0, headEnd) : page;
  if (!Object.keys(TYPES).some((type) => html.toLowerCase().includes(type))) return null;
  const found: Partial<Record<'json' | 'xml', string>> = {};
  for (const [, inside] of html.matchAll(/<link([^<>]+?)\/?>/gi)) {
    const attributes = new Map<string, string>();
    for (const match of inside!.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
      const name = match[1]!.toLowerCase();
      if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
    }
    const type = attributes.get('type');
    const format = type !== undefined && Object.hasOwn(TYPES, type) ? TYPES[type] : undefined;
    const href = attributes.get('href');
    if (format && href && !found[format]) {
      found[format] = href.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#0?39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
      if (format === 'json') break;
    }
  }
  return found.json ?? found.xml ?? null;
}

const PIECES = [
  '<link', '<LINK', ' type="application/json+oembed"', " type='text/xml+oembed'", ' type=application/json+oembed', ' href="http://a.example/o?x=1&amp;y=2"',
  " href='http://b.example/o'", ' href=http://c.example/o/', ' rel=alternate', '>', '/>', '<', '</head>', 'a', '-', ' ', '=', '"', "'", 'x-y', '__proto__=1', ' type=constructor', ' type=__proto__',
];

describe('oEmbed discovery reads a page in linear time', () => {
  it('finds what PHP finds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join('')), (page) => {
        expect(discoveredEndpoint(page)).toBe(discoverByPatterns(page));
      }),
      { numRuns: 5_000 },
    );
    expect(discoveredEndpoint('<head><link rel=alternate type=application/json+oembed href=http://c.example/o/></head>')).toBe('http://c.example/o');
    expect(discoveredEndpoint('<link type="text/xml+oembed" href="http://x/1"><link type="application/json+oembed" href="http://j/2">')).toBe('http://j/2');
  });

  const KB150 = 153_600;
  it.each([
    ['<link', 'before one `>`'],
    ['<link a=b ', 'before one `>`'],
    ['a-', 'inside one <link …>'],
    ['-', 'inside one <link …>'],
    ['a ', 'inside one <link …>'],
  ])('reads 150 KB of %j %s within 500 ms', (run, where) => {
    const body = run.repeat(Math.ceil(KB150 / run.length));
    const page = `application/json+oembed ${where.startsWith('inside') ? `<link type=application/json+oembed ${body}>` : `${body}>`}`;
    expectWithin(500, () => discoveredEndpoint(page));
  });
});
