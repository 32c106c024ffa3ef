import { describe, expect, it } from 'vitest';
import { texturize } from '../../src/namespaces/calendar/format/texturize.js';

/*
 * Input/output pairs from WordPress's own wptexturize test suite (tests/phpunit/tests/formatting, "baseline
 * patterns" data providers), which the PHP implementation passes. Cases WordPress itself comments out as known
 * failures are not included. The WordPress test site registers the core shortcodes (gallery, caption, audio…).
 */

const NBSP = '\u00A0';

const cases: Record<string, Array<[string, string]>> = {
  dashes: [
    ['Hey -- boo?', 'Hey &#8212; boo?'],
    ['<a href="http://xx--xx">Hey -- boo?</a>', '<a href="http://xx--xx">Hey &#8212; boo?</a>'],
  ],
  disable: [
    ['<pre>---&</pre>', '<pre>---&</pre>'],
    ['<pre><code></code>--&</pre>', '<pre><code></code>--&</pre>'],
    ['<code>---&</code>', '<code>---&</code>'],
    ['<kbd>---&</kbd>', '<kbd>---&</kbd>'],
    ['<style>---&</style>', '<style>---&</style>'],
    ['<script>---&</script>', '<script>---&</script>'],
    ['<tt>---&</tt>', '<tt>---&</tt>'],
    ['<code>href="baba"</code> "baba"', '<code>href="baba"</code> &#8220;baba&#8221;'],
    [
      '<code>curl -s <a href="http://x/">baba</a> | grep sfive | cut -d "\\"" -f 10 &gt; topmp3.txt</code>',
      '<code>curl -s <a href="http://x/">baba</a> | grep sfive | cut -d "\\"" -f 10 &gt; topmp3.txt</code>',
    ],
    ['<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>', '<pre>"baba"<code>"baba"<pre></pre></code>"baba"</pre>'],
    ['<pre></code>"baba"</pre>', '<pre></code>"baba"</pre>'],
  ],
  brackets: [
    ['("test")', '(&#8220;test&#8221;)'],
    ["('test')", '(&#8216;test&#8217;)'],
    ["('twas)", '(&#8217;twas)'],
    ['A dog ("Hubertus") was sent out.', 'A dog (&#8220;Hubertus&#8221;) was sent out.'],
  ],
  basicQuotes: [
    ["test's", 'test&#8217;s'],
    ["'quoted'", '&#8216;quoted&#8217;'],
    ['"quoted"', '&#8220;quoted&#8221;'],
    ["space before 'quoted' space after", 'space before &#8216;quoted&#8217; space after'],
    ['space before "quoted" space after', 'space before &#8220;quoted&#8221; space after'],
    ["('quoted')", '(&#8216;quoted&#8217;)'],
    ['{"quoted"}', '{&#8220;quoted&#8221;}'],
    ["'qu(ot)ed'", '&#8216;qu(ot)ed&#8217;'],
    ['"qu{ot}ed"', '&#8220;qu{ot}ed&#8221;'],
    [" 'test's quoted' ", ' &#8216;test&#8217;s quoted&#8217; '],
    [' "test\'s quoted" ', ' &#8220;test&#8217;s quoted&#8221; '],
    [
      "That means every moment you're working on something without it being in the public it's actually dying.",
      'That means every moment you&#8217;re working on something without it being in the public it&#8217;s actually dying.',
    ],
    ['Here is "<a href="http://example.com">a test with a link</a>" and a space.', 'Here is &#8220;<a href="http://example.com">a test with a link</a>&#8221; and a space.'],
    ['Here is "<a href="http://example.com">a test with a link</a> and some text quoted"', 'Here is &#8220;<a href="http://example.com">a test with a link</a> and some text quoted&#8221;'],
    ['A test with a finishing number, "like 23".', 'A test with a finishing number, &#8220;like 23&#8221;.'],
    ['A test with a number, "like 62", is nice to have.', 'A test with a number, &#8220;like 62&#8221;, is nice to have.'],
    ["'<strong>", '&#8216;<strong>'],
    ['14x24', '14&#215;24'],
  ],
  numbersAndPrimes: [
    ["'Class of '99' ", '&#8216;Class of &#8217;99&#8217; '],
    ["'Class of '99'.", '&#8216;Class of &#8217;99&#8217;.'],
    ["'Class of '99', she said", '&#8216;Class of &#8217;99&#8217;, she said'],
    ["'Class of '99's'", '&#8216;Class of &#8217;99&#8217;s&#8217;'],
    ["'Class of '99&#8217;s'", '&#8216;Class of &#8217;99&#8217;s&#8217;'],
    ['"Class of 99"', '&#8220;Class of 99&#8221;'],
    [' "Class of \'99", she said', ' &#8220;Class of &#8217;99&#8221;, she said'],
    ['}"Class of \'99"{', '}&#8221;Class of &#8217;99&#8243;{'],
    ['"a 9\' b"', '&#8220;a 9&#8242; b&#8221;'],
    ["'a 9\" b'", '&#8216;a 9&#8243; b&#8217;'],
    ['"12345"', '&#8220;12345&#8221;'],
    ["'12345'", '&#8216;12345&#8217;'],
    ['"a 9\' plus a \'9\', maybe a 9\' \'9\'"', '&#8220;a 9&#8242; plus a &#8216;9&#8217;, maybe a 9&#8242; &#8216;9&#8217;&#8221;'],
    ["<p>'99<br />'123'<br />'tis<br />'s'</p>", '<p>&#8217;99<br />&#8216;123&#8217;<br />&#8217;tis<br />&#8216;s&#8217;</p>'],
    ["WordPress 3.5's release date", 'WordPress 3.5&#8217;s release date'],
    ["according to our source, '33 students scored less than 50' on the test.", 'according to our source, &#8217;33 students scored less than 50&#8242; on the test.'],
    ["word 99'word", 'word 99&#8217;word'],
    ['word99"word', 'word99&#8243;word'],
  ],
  comments: [
    ['<!--[if !IE]>--><!--<![endif]-->', '<!--[if !IE]>--><!--<![endif]-->'],
    ['<!--[if !IE]>"a 9\' plus a \'9\', maybe a 9\' \'9\' "<![endif]-->', '<!--[if !IE]>"a 9\' plus a \'9\', maybe a 9\' \'9\' "<![endif]-->'],
    ['&nbsp;"Testing"', '&nbsp;&#8220;Testing&#8221;'],
  ],
  spaces: [
    [' - ', ' &#8211; '],
    ['&nbsp;-&nbsp;', '&nbsp;&#8211;&nbsp;'],
    [`${NBSP}-${NBSP}`, `${NBSP}&#8211;${NBSP}`],
    [' --&nbsp;', ' &#8212;&nbsp;'],
    [`${NBSP}-- `, `${NBSP}&#8212; `],
    ['- -', '&#8211; &#8211;'],
    ['-- --', '&#8212; &#8212;'],
    [' --', ' &#8212;'],
    [`stop. ${NBSP}"A quote after 2 spaces."`, `stop. ${NBSP}&#8220;A quote after 2 spaces.&#8221;`],
    ["stop.&nbsp;&nbsp;'A quote after 2 spaces.'", 'stop.&nbsp;&nbsp;&#8216;A quote after 2 spaces.&#8217;'],
    ["Contraction: \u03A0's", 'Contraction: \u03A0&#8217;s'],
  ],
  openingSingle: [
    ["word ('word word", 'word (&#8216;word word'],
    ["word <'word word", "word <'word word"],
    ["word &lt;'word word", 'word &lt;&#8216;word word'],
    ['word "\'word word', 'word &#8220;&#8216;word word'],
    ['word"\'word word', 'word&#8221;&#8216;word word'],
    ["word ' word word", 'word &#8216; word word'],
    ["word<' word word", "word<' word word"],
  ],
  contractions: [
    ["word'[ word", "word'[ word"],
    ["word'&lt; word", "word'&lt; word"],
    ["word'< word", 'word&#8217;< word'],
  ],
  doubleQuotes: [
    ['word -"word word', 'word -&#8220;word word'],
    ['word<"word word', 'word<"word word'],
    ['word "99 word', 'word &#8220;99 word'],
    ['word word"> word', 'word word&#8221;> word'],
    ['word word"&gt; word', 'word word&#8221;&gt; word'],
    ['word"word"word', 'word&#8221;word&#8221;word'],
    ['test sentence." word', 'test sentence.&#8221; word'],
  ],
  closingSingle: [
    ["word word'.word", 'word word&#8217;.word'],
    ["word word'- word", 'word word&#8217;- word'],
    ["word word'&gt; word", 'word word&#8217;&gt; word'],
    ["test sentence.' word", 'test sentence.&#8217; word'],
  ],
  multiplication: [
    ['-123x1=-123', '-123&#215;1=-123'],
    ['-123x-1', '-123x-1'],
    ['0.675x1=0.675', '0.675&#215;1=0.675'],
    ['9 x 9', '9 x 9'],
    ['0x70', '0x70'],
    ['3x2x1x0', '3x2x1x0'],
  ],
  ampersand: [
    ['word &nbsp; word', 'word &nbsp; word'],
    ['word &#xabc; word', 'word &#xabc; word'],
    ['word &#X394; word', 'word &#X394; word'],
    ['word &# word', 'word &#038;# word'],
    ['word &44; word', 'word &44; word'],
    ['word &&amp; word', 'word &#038;&amp; word'],
    ['word &!amp; word', 'word &#038;!amp; word'],
    ['word &', 'word &#038;'],
  ],
  staticAndDashes: [
    ['word --- word', 'word &#8212; word'],
    ['word xn&#8211; word', 'word xn&#8211; word'],
    ['wordxn--word', 'wordxn--word'],
    ['word `` word', 'word &#8220; word'],
    ["word''word", 'word&#8221;word'],
    ['word (tm)word', 'word &#8482;word'],
    ['word(tm)word', 'word(tm)word'],
  ],
  quotedNumbers: [
    ['word "42.00"word', 'word &#8220;42.00&#8221;word'],
    ["word '42.00'word", 'word &#8216;42.00&#8217;word'],
    ['word "4,242.00" word', 'word &#8220;4,242.00&#8221; word'],
    ["word '99'samsonite", 'word &#8217;99&#8217;samsonite'],
  ],
  quotesAndDashes: [
    ['word---"quote"', 'word&#8212;&#8220;quote&#8221;'],
    ["word--'quote'", 'word&#8211;&#8216;quote&#8217;'],
    ['"quote"-word', '&#8220;quote&#8221;-word'],
    ["'quote'---word", '&#8216;quote&#8217;&#8212;word'],
  ],
  tagAvoidance: [
    ['[ ... ]', '[ &#8230; ]'],
    ['[ is it wise to <a title="allow user content ] here? hmm"> maybe </a> ]', '[ is it wise to <a title="allow user content ] here? hmm"> maybe </a> ]'],
    ['[caption - is it wise to <a title="allow user content ] here? hmm"> maybe </a> ]', '[caption &#8211; is it wise to <a title="allow user content ] here? hmm"> maybe </a> ]'],
    ['[ photos by <a href="http://example.com/?a[]=1&a[]=2"> this guy & that guy </a> ]', '[ photos by <a href="http://example.com/?a[]=1&#038;a[]=2"> this guy &#038; that guy </a> ]'],
    ['& <script>&&</script>', '&#038; <script>&&</script>'],
    ['[gallery ...]', '[gallery ...]'],
    ['[[gallery ...]', '[[gallery ...]'],
    ['[gallery ...]]', '[gallery ...]]'],
    ['[/gallery ...]', '[/gallery ...]'],
    ['[[gallery]]...[[/gallery]]', '[[gallery]]&#8230;[[/gallery]]'],
    ['[[[gallery]]]...[[[/gallery]]]', '[[[gallery]]]&#8230;[[[/gallery]]]'],
    ['[gallery ...', '[gallery &#8230;'],
    ['[gallery <br ... /> ...]', '[gallery <br ... /> ...]'],
    ['<br [gallery ...] ... />', '<br [gallery ...] ... />'],
    ['<br [gallery ...] ... /', '<br [gallery ...] ... /'],
    ['<br ... />...<br ... />', '<br ... />&#8230;<br ... />'],
    ['[gallery ...]...[gallery ...]', '[gallery ...]&#8230;[gallery ...]'],
    ['[[gallery <br ... /> ...]]', '[[gallery <br ... /> ...]]'],
    ['[[gallery ...]...[/gallery]]', '[[gallery ...]&#8230;[/gallery]]'],
    ['<!-- ... -- > ...', '<!-- ... -- > ...'],
    ['<!-- ...', '<!-- ...'],
    ['a<!-->b', 'a<!-->b'],
    ['a<!--->b', 'a<!--->b'],
    ['a<!-- c --->b', 'a<!-- c --->b'],
    ['a<!-- <!-- c --> -->b<!-- close -->', 'a<!-- <!-- c --> &#8211;>b<!-- close -->'],
    ['...<!-- ... -->...', '&#8230;<!-- ... -->&#8230;'],
    ['word <img src="http://example.com/wp-content/uploads/2014/06/image-300x216.gif" /> word', 'word <img src="http://example.com/wp-content/uploads/2014/06/image-300x216.gif" /> word'],
    ['[ do texturize "[quote]" here ]', '[ do texturize &#8220;[quote]&#8221; here ]'],
    ['[ regex catches this <a href="[quote]">here</a> ]', '[ regex catches this <a href="[quote]">here</a> ]'],
    [
      '[Let\'s get crazy<input>[caption code="<a href=\'?a[]=100\'>hello</a>"]</input>world]',
      '[Let&#8217;s get crazy<input>[caption code=&#8221;<a href=\'?a[]=100\'>hello</a>&#8220;]</input>world]',
    ],
    ['<> ... < ... > ... <>', '<> &#8230; < ... > &#8230; <>'],
  ],
  yearAbbr: [
    ["word '99' word", 'word &#8217;99&#8217; word'],
    ["word '99.' word", 'word &#8217;99.&#8217; word'],
    ["word '99.9 word", 'word &#8216;99.9 word'],
    ["in '4 years, 3 months,' Obama cut the deficit", 'in &#8216;4 years, 3 months,&#8217; Obama cut the deficit'],
    ["testing's '4' through 'quotes'", 'testing&#8217;s &#8216;4&#8217; through &#8216;quotes&#8217;'],
  ],
  elementStack: [
    ['<span>hello</code>---</span>', '<span>hello</code>&#8212;</span>'],
    ['<code>hello</code>---</span>', '<code>hello</code>&#8212;</span>'],
    ['<span>hello<code>---</span>', '<span>hello<code>---</span>'],
    ['<code>hello</span>---</span>', '<code>hello</span>---</span>'],
    ['<code>hello</code>world<span>---</span>', '<code>hello</code>world<span>&#8212;</span>'],
  ],
};

describe('texturize matches WordPress test-suite cases', () => {
  for (const [group, pairs] of Object.entries(cases)) {
    it.each(pairs)(`${group}: %s`, (input, expected) => {
      expect(texturize(input)).toBe(expected);
    });
  }
});

describe('texturize with an extra no-texturize shortcode (WordPress: audio)', () => {
  it.each([
    ['[a]a--b[audio]---[/audio]a--b[/a]', '[a]a&#8211;b[audio]---[/audio]a&#8211;b[/a]'],
    ['[code ...]...[/code]', '[code &#8230;]&#8230;[/code]'],
    ['[...]...[/...]', '[&#8230;]&#8230;[/&#8230;]'],
    ['[randomthing param="test"]', '[randomthing param=&#8221;test&#8221;]'],
    ['[[audio]...[/audio]...', '[[audio]&#8230;[/audio]&#8230;'],
  ])('%s', (input, expected) => {
    expect(texturize(input, { noTexturizeShortcodes: ['code', 'audio'] })).toBe(expected);
  });
});
