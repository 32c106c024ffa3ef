import { describe, expect, it } from 'vitest';
import { phpTrim } from '../../src/http/php.js';
import { escHtml, escJs, escUrl } from '../../src/namespaces/calendar/format/escape.js';
import { stripAllTags, tecExcerpt, trimWords } from '../../src/namespaces/calendar/format/excerpt.js';
import { capWhitespaceRuns, MAX_WHITESPACE_RUN, wpautop } from '../../src/namespaces/calendar/format/render.js';

describe('escJs (esc_js)', () => {
  it('escapes HTML, writes newlines as \\n and drops \\r', () => {
    expect(escJs('<p>Jazz!</p>\n')).toBe('&lt;p&gt;Jazz!&lt;/p&gt;\\n');
    expect(escJs('a\r\nb')).toBe('a\\nb');
  });
  it('encodes double quotes, slashes single quotes, strips then re-slashes backslashes', () => {
    expect(escJs(`He said "hi" & it's ok`)).toBe(`He said &quot;hi&quot; &amp; it\\'s ok`);
    expect(escJs('&#39;x&#039;')).toBe("\\'x\\'");
    expect(escJs('C:\\path')).toBe('C:path');
    expect(escJs('a\\\\b')).toBe('a\\\\b');
  });
  it('keeps valid entities', () => {
    expect(escJs('Bob&#8217;s &amp; co')).toBe('Bob&#8217;s &amp; co');
  });
});

describe('escHtml / escUrl / phpTrim', () => {
  it('escHtml escapes quotes too', () => {
    expect(escHtml(`<a href="x">'y' & z</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#039;y&#039; &amp; z&lt;/a&gt;');
  });
  it('escUrl cleans and escapes for display, raw for the database', () => {
    expect(escUrl('http://example.com/a b?x=1&y=2')).toBe('http://example.com/a%20b?x=1&#038;y=2');
    expect(escUrl('http://example.com/?x=1&y=2', 'db')).toBe('http://example.com/?x=1&y=2');
    expect(escUrl('example.com')).toBe('http://example.com');
    expect(escUrl('')).toBe('');
    expect(escUrl('http://example.com/<script>')).toBe('http://example.com/script');
  });
  it('phpTrim leaves no-break spaces', () => {
    expect(phpTrim(' \t\u00A0x\u00A0\n')).toBe('\u00A0x\u00A0');
    expect(phpTrim('\0\x0B\r x \r\0')).toBe('x');
    expect(phpTrim(' \n ')).toBe('');
  });
  it('phpTrim is linear in a long run of spaces inside the text (a regex anchored at the end was quadratic)', () => {
    const text = `a${' '.repeat(200_000)}b `;
    const started = performance.now();
    expect(phpTrim(text)).toBe(text.slice(0, -1));
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('tecExcerpt (tribe_events_get_the_excerpt)', () => {
  it('uses the explicit excerpt as is (no word trimming), with autop', () => {
    expect(tecExcerpt({ excerpt: 'Jazz!', content: 'ignored' })).toBe('<p>Jazz!</p>\n');
  });
  it('falls back to the content, keeping only a few inline tags', () => {
    expect(tecExcerpt({ excerpt: '', content: '<p>An evening of <strong>jazz</strong>.</p>' })).toBe('<p>An evening of jazz.</p>\n');
    expect(tecExcerpt({ excerpt: '<p>Hi <em class="x">there</em> <img src="a.png"></p>', content: '' })).toBe('<p>Hi <em class="x">there</em> </p>\n');
  });
  it('treats an excerpt of "0" as no excerpt (PHP empty())', () => {
    expect(tecExcerpt({ excerpt: '0', content: 'Body' })).toBe('<p>Body</p>\n');
  });
  it('removes shortcodes', () => {
    expect(tecExcerpt({ excerpt: 'See [gallery ids="1,2"] here', content: '' })).toBe('<p>See  here</p>\n');
  });
  it('is empty for empty posts', () => {
    expect(tecExcerpt({ excerpt: '', content: '' })).toBe('');
  });
});

describe('trimWords / stripAllTags', () => {
  it('cuts after the word limit and appends the more string', () => {
    expect(trimWords('a b  c\nd', 3)).toBe('a b c [&hellip;]');
    expect(trimWords('a b c', 3)).toBe('a b c');
  });
  it('drops script and style with their content', () => {
    expect(stripAllTags('<p>x<script>alert(1)</script><style>p{}</style> y</p> <!-- c -->')).toBe('x y');
  });
});

describe('capWhitespaceRuns (before wpautop)', () => {
  it('cuts runs of whitespace without a newline to 256 characters and leaves every other text as it is', () => {
    const long = ' '.repeat(MAX_WHITESPACE_RUN);
    expect(capWhitespaceRuns(`a${long}b`)).toBe(`a${long}b`);
    expect(capWhitespaceRuns(`a${long}  \t\u00a0b${' '.repeat(300)}`)).toBe(`a${long}b${' '.repeat(MAX_WHITESPACE_RUN)}`);
    expect(capWhitespaceRuns(`${' '.repeat(300)}\n${' '.repeat(300)}x`)).toBe(`${long}\n${long}x`);
    expect(capWhitespaceRuns('\n'.repeat(1000))).toBe('\n'.repeat(1000));
  });

  it('keeps wpautop linear on a long run of spaces', () => {
    const started = performance.now();
    expect(wpautop(`a${' '.repeat(200_000)}b`)).toBe(`<p>a${' '.repeat(MAX_WHITESPACE_RUN)}b</p>\n`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
