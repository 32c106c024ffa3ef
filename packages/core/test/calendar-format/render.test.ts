import { describe, expect, it } from 'vitest';
import {
  capitalPDangit,
  convertChars,
  doBlocks,
  renderContent,
  renderExcerpt,
  renderTitle,
  wpautop,
} from '../../src/namespaces/calendar/format/render.js';
import { captureJson, captureRequestBody } from './captures.js';

describe('render: the captured create requests come back as recorded', () => {
  const events = ['021-event-create-full', '022-event-create-all-day', '023-event-create-multiday', '024-event-create-past', '025-event-create-inline-venue-organizer', '026-event-create-draft'];
  it.each(events)('%s: title, description, excerpt', (name) => {
    const body = captureRequestBody(name)!;
    const wire = captureJson(name);
    expect(renderTitle(body.title)).toBe(wire.title);
    expect(renderContent(body.description)).toBe(wire.description);
    expect(renderExcerpt(body.excerpt ?? '')).toBe(wire.excerpt);
  });

  it('079: an updated title', () => {
    expect(renderTitle(captureRequestBody('079-event-update')!.title)).toBe(captureJson('079-event-update').title);
  });

  it.each([
    ['016-venue-create', 'venue'],
    ['017-venue-create-minimal', 'venue'],
    ['019-organizer-create', 'organizer'],
    ['020-organizer-create-minimal', 'organizer'],
  ])('%s: name and description (absent when empty)', (name, key) => {
    const body = captureRequestBody(name)!;
    const wire = captureJson(name);
    expect(renderTitle(body[key])).toBe(wire[key]);
    const description = renderContent(body.description ?? '');
    expect(description === '' ? undefined : description).toBe(wire.description);
  });
});

describe('renderContent', () => {
  it('wraps text in paragraphs and keeps existing ones', () => {
    expect(renderContent('Bring gloves.')).toBe('<p>Bring gloves.</p>');
    expect(renderContent('<p>An evening of <strong>jazz</strong>.</p>')).toBe('<p>An evening of <strong>jazz</strong>.</p>');
  });

  it('texturizes, adds line breaks, encodes lone ampersands', () => {
    expect(renderContent("It's on -- rain or shine\nBring food & drinks.\n\nSecond paragraph...")).toBe(
      '<p>It&#8217;s on &#8212; rain or shine<br />\nBring food &#038; drinks.</p>\n<p>Second paragraph&#8230;</p>',
    );
  });

  it('corrects the capitalisation of WordPress', () => {
    expect(renderContent('Made with Wordpress')).toBe('<p>Made with WordPress</p>');
  });

  it('renders block content without wpautop', () => {
    const content = '<!-- wp:paragraph -->\n<p>Hello</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:separator -->\n<hr class="wp-block-separator"/>\n<!-- /wp:separator -->';
    expect(renderContent(content)).toBe('<p>Hello</p>\n\n\n\n<hr class="wp-block-separator"/>');
  });

  it('is empty for empty content', () => {
    expect(renderContent('')).toBe('');
    expect(renderContent('  \n ')).toBe('');
  });
});

describe('renderTitle', () => {
  it('texturizes and encodes ampersands, trims', () => {
    expect(renderTitle("  Bob's Rock & Roll -- Live...  ")).toBe('Bob&#8217;s Rock &#038; Roll &#8212; Live&#8230;');
    expect(renderTitle('Tom &amp; Jerry')).toBe('Tom &amp; Jerry');
    expect(renderTitle('Wordpress Meetup')).toBe('WordPress Meetup');
  });
});

describe('renderExcerpt', () => {
  it('is empty without an excerpt', () => {
    expect(renderExcerpt('')).toBe('');
  });
  it('is a paragraph otherwise', () => {
    expect(renderExcerpt('Jazz!')).toBe('<p>Jazz!</p>');
    expect(renderExcerpt("Don't miss it & more")).toBe('<p>Don&#8217;t miss it &#038; more</p>');
  });
});

describe('wpautop (PHP behaviour)', () => {
  it('adds a trailing newline like PHP', () => {
    expect(wpautop('Jazz!')).toBe('<p>Jazz!</p>\n');
  });
  it('starts a new paragraph after a self-closing <hr>', () => {
    expect(wpautop('one<hr />two')).toBe('<p>one</p>\n<hr />\n<p>two</p>\n');
  });
  it('leaves <pre> alone', () => {
    expect(wpautop('a\n\n<pre>x\n\ny<hr />z</pre>')).toBe('<p>a</p>\n<pre>x\n\ny<hr />z</pre>\n');
  });
});

describe('helpers', () => {
  it('convertChars encodes lone ampersands only', () => {
    expect(convertChars('a & b &amp; c &#38; d')).toBe('a &#038; b &amp; c &#38; d');
  });
  it('capitalPDangit only after a space, quote, > or (', () => {
    expect(capitalPDangit('(Wordpress) >Wordpress &#8220;Wordpress xWordpress')).toBe('(WordPress) >WordPress &#8220;WordPress xWordpress');
  });
  it('doBlocks drops block delimiters', () => {
    expect(doBlocks('<!-- wp:heading {"level":3} --><h3>T</h3><!-- /wp:heading -->')).toBe('<h3>T</h3>');
    expect(doBlocks('no blocks <!-- comment -->')).toBe('no blocks <!-- comment -->');
  });
});
