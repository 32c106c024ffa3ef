import { describe, expect, it } from 'vitest';
import { texturize } from '../../src/namespaces/calendar/format/texturize.js';

/* Expected values follow WordPress's own wptexturize unit tests and the algorithm in formatting.php. */

describe('texturize: quotes and apostrophes', () => {
  it.each([
    [`'cause today's effort makes it worth tomorrow's "holiday" ...`, '&#8217;cause today&#8217;s effort makes it worth tomorrow&#8217;s &#8220;holiday&#8221; &#8230;'],
    ['"Quoted String"', '&#8220;Quoted String&#8221;'],
    ['He said "hi" and left.', 'He said &#8220;hi&#8221; and left.'],
    ["He said 'hi'.", 'He said &#8216;hi&#8217;.'],
    ["test's", 'test&#8217;s'],
    ["'test's", '&#8216;test&#8217;s'],
    ["'test's'", '&#8216;test&#8217;s&#8217;'],
    ["'string's'", '&#8216;string&#8217;s&#8217;'],
    ["Bob's Party", 'Bob&#8217;s Party'],
    ['(\'parenthesised\')', '(&#8216;parenthesised&#8217;)'],
    ['``double``', '&#8220;double&#8220;'],
    ["''closing''", '&#8221;closing&#8221;'],
  ])('%s', (input, expected) => {
    expect(texturize(input)).toBe(expected);
  });

  it("turns 'n' into an opening and a closing quote (what the algorithm gives)", () => {
    expect(texturize("rock 'n' roll")).toBe('rock &#8216;n&#8217; roll');
  });

  it('uses apostrophes for decades and abbreviated years', () => {
    expect(texturize("the '90s")).toBe('the &#8217;90s');
    expect(texturize("Class of '99")).toBe('Class of &#8217;99');
    expect(texturize("Class of '99's")).toBe('Class of &#8217;99&#8217;s');
    expect(texturize("'Class of '99'")).toBe('&#8216;Class of &#8217;99&#8217;');
    expect(texturize('"Class of \'99"')).toBe('&#8220;Class of &#8217;99&#8221;');
    expect(texturize("{'Class of '99'}")).toBe('{&#8216;Class of &#8217;99&#8217;}');
    // Never '9, '999 or '99%.
    expect(texturize("a '9 b")).toBe('a &#8216;9 b');
    expect(texturize("'99%")).toBe('&#8216;99%');
  });

  it('uses the cockney list', () => {
    expect(texturize("'til 'em 'twas")).toBe('&#8217;til &#8217;em &#8217;twas');
  });

  it('writes primes after digits', () => {
    expect(texturize("9'")).toBe('9&#8242;');
    expect(texturize('9"')).toBe('9&#8243;');
    expect(texturize("a 9' b")).toBe('a 9&#8242; b');
    expect(texturize('a 12" pizza')).toBe('a 12&#8243; pizza');
  });

  it('quotes numbers', () => {
    expect(texturize("'0.42'")).toBe('&#8216;0.42&#8217;');
    expect(texturize('"42"')).toBe('&#8220;42&#8221;');
  });
});

describe('texturize: dashes, ellipses, symbols', () => {
  it.each([
    ['Hey there--man', 'Hey there&#8211;man'],
    ['Hey there---man', 'Hey there&#8212;man'],
    ['Hey there - man', 'Hey there &#8211; man'],
    ['Hey there -- man', 'Hey there &#8212; man'],
    ['xn--bcher-kva.ch', 'xn--bcher-kva.ch'],
    ['well-known', 'well-known'],
    ['wait...', 'wait&#8230;'],
    ['Brand (tm)', 'Brand &#8482;'],
    ['Brand(tm)', 'Brand(tm)'],
    ['(c) 2024 (r)', '(c) 2024 (r)'],
    ['2x3', '2&#215;3'],
    ['14x17', '14&#215;17'],
    ['1.5x2,5', '1.5&#215;2,5'],
    ['0x9999', '0x9999'],
    ['0.5x2', '0.5&#215;2'],
    ['AT&T', 'AT&#038;T'],
    ['a &amp; b &#8217; &#x2019;', 'a &amp; b &#8217; &#x2019;'],
  ])('%s', (input, expected) => {
    expect(texturize(input)).toBe(expected);
  });
});

describe('texturize: what it leaves alone', () => {
  it('does not touch tags or attributes', () => {
    expect(texturize(`<a href="it's--here" title='x'>it's</a>`)).toBe(`<a href="it's--here" title='x'>it&#8217;s</a>`);
    // Each run of text between tags is texturized on its own (WordPress lists the case with a quote right after
    // </a> among its known failures): the lone trailing quote opens.
    expect(texturize('Here is "<a href="http://example.com">a link</a>"')).toBe(
      'Here is &#8220;<a href="http://example.com">a link</a>&#8220;',
    );
  });

  it('still encodes lone ampersands inside tags', () => {
    expect(texturize('<a href="/?a=1&b=2">x</a>')).toBe('<a href="/?a=1&#038;b=2">x</a>');
  });

  it.each(['code', 'pre', 'kbd', 'style', 'script', 'tt'])('skips <%s> contents', (tag) => {
    expect(texturize(`<${tag}>"it's" -- ...</${tag}> it's`)).toBe(`<${tag}>"it's" -- ...</${tag}> it&#8217;s`);
  });

  it('skips nested and attributed <pre>', () => {
    expect(texturize(`<pre class="x">"a" <b>'b'</b></pre>"c"`)).toBe(`<pre class="x">"a" <b>'b'</b></pre>&#8220;c&#8221;`);
  });

  it('skips HTML comments', () => {
    expect(texturize(`<!-- it's "x" --> it's`)).toBe(`<!-- it's "x" --> it&#8217;s`);
  });

  it('treats registered shortcodes as delimiters but texturizes what they enclose', () => {
    expect(texturize(`[caption id="x" align='left']it's[/caption]`)).toBe(`[caption id="x" align='left']it&#8217;s[/caption]`);
  });

  it('texturizes unregistered "shortcodes" like any text', () => {
    // After "=" a quote neither opens nor is an apostrophe; the closing-quote rules take it.
    expect(texturize(`[foo bar='x']`)).toBe(`[foo bar=&#8217;x&#8217;]`);
  });

  it('skips the contents of a registered [code] shortcode', () => {
    expect(texturize(`[code]"x"[/code] "y"`, { shortcodeTags: ['code'] })).toBe(`[code]"x"[/code] &#8220;y&#8221;`);
  });

  it('returns empty input unchanged', () => {
    expect(texturize('')).toBe('');
  });
});
