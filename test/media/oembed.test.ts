import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OembedProvider } from '@siterest/core';
import { storeVariants } from '../support/stores.js';
import { makeImage, useMediaSite } from './harness.js';

const OE = '/oembed/1.0';

/** A local oEmbed provider: a sanctioned-style endpoint, a page announcing a discovered one, an XML-only one. */
let provider: Server;
let base = '';
const hits: Record<string, number> = {};
const providers: OembedProvider[] = [];

beforeAll(async () => {
  provider = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits[url.pathname] = (hits[url.pathname] ?? 0) + 1;
    const json = (body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    switch (url.pathname) {
      case '/trusted-oembed':
        return json({
          version: '1.0',
          type: 'video',
          provider_name: 'Trusted',
          title: `Video for ${url.searchParams.get('url')}`,
          width: Number(url.searchParams.get('maxwidth')),
          height: Number(url.searchParams.get('maxheight')),
          html: '<iframe src="https://player.example/v/1" width="480" height="270"></iframe><script src="https://player.example/api.js"></script>',
        });
      case '/page':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(
          `<html><head><title>x</title><link rel="alternate" type="text/xml+oembed" href="${base}/xml-only?x=1"><link rel="alternate" type="application/json+oembed" href="${base}/discovered?a=1&amp;b=2" /></head><body><link type="application/json+oembed" href="${base}/never"></body></html>`,
        );
      case '/discovered':
        return json({
          version: '1.0',
          type: 'rich',
          provider_name: 'Somewhere',
          a: url.searchParams.get('a'),
          b: url.searchParams.get('b'),
          html: '<blockquote class="x"><a href="https://somewhere.example/p/1" onclick="steal()">A post</a></blockquote><script>steal()</script><iframe src="https://somewhere.example/embed/1" width="500" height="300" onload="steal()" allow="camera"></iframe>',
        });
      case '/xml-page':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(`<head><link rel="alternate" type="text/xml+oembed" href="${base}/xml-only"></head>`);
      case '/xml-only':
        if (url.searchParams.get('format') === 'json') {
          res.writeHead(501);
          return res.end();
        }
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        return res.end('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><oembed><type>link</type><title>Tom &amp; Jerry &e;</title><version>1.0</version></oembed>');
      case '/photo-oembed':
        return json({ type: 'photo', url: 'https://img.example/p.jpg', width: 640, height: '480', title: 'A "photo"' });
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  providers.push(
    { pattern: /^http:\/\/videos\.example\/watch\/.*/i, endpoint: `${base}/trusted-oembed` },
    { pattern: /^http:\/\/photos\.example\/.*/i, endpoint: `${base}/photo-oembed` },
  );
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

describe.each(storeVariants())('oembed/1.0 on the $label', (variant) => {
  const m = useMediaSite({
    store: variant,
    // The local provider listens on loopback: reachable only because this range is explicitly allowed.
    site: { media: { outbound: { allow: ['127.0.0.1/32'] } }, oembed: { providers } },
  });
  let permalink = '';
  let imageId = 0;

  it('embeds the site’s own events as rich HTML with a per-answer secret and a thumbnail', async () => {
    imageId = (await m.upload('administrator', await makeImage('jpeg', 1600, 1200), 'poster.jpg')).body.id;
    const event = await m.call('administrator', 'POST', '/cal/events/v1/events', {
      json: { title: 'Jazz & Wine', start_date: '2027-02-01 19:00:00', end_date: '2027-02-01 23:00:00', image: String(imageId), status: 'publish' },
    });
    permalink = event.body.url;
    expect(permalink).toBe('http://127.0.0.1:8080/event/jazz-wine/');
    const answer = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(permalink)}`);
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(Object.keys(body)).toEqual([
      'version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html',
      'thumbnail_url', 'thumbnail_width', 'thumbnail_height',
    ]);
    expect(body).toMatchObject({
      version: '1.0',
      provider_name: 'Media Test',
      provider_url: 'http://127.0.0.1:8080',
      author_name: 'The administrator',
      author_url: 'http://127.0.0.1:8080/author/administrator/',
      title: 'Jazz &#038; Wine',
      type: 'rich',
      width: 600,
      height: 338,
      thumbnail_url: 'http://127.0.0.1:8080/uploads/2026/11/poster.jpg',
      thumbnail_width: 600,
      thumbnail_height: 450,
    });
    const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(body.html)![1];
    expect(body.html).toContain(`<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${permalink}">Jazz &#038; Wine</a></blockquote>`);
    expect(body.html).toContain(
      `<iframe sandbox="allow-scripts" security="restricted" src="${permalink}embed/#?secret=${secret}" width="600" height="338" title="&#8220;Jazz &#038; Wine&#8221; &#8212; Media Test" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
    );
    expect(body.html).toMatch(/<script>\n[\s\S]+\n<\/script>\n$/);
    const again = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(permalink)}`);
    expect(/data-secret="([A-Za-z0-9]{10})"/.exec(again.body.html)![1]).not.toBe(secret);
  });

  it('clamps the width to 200–600 and derives the height', async () => {
    for (const [maxwidth, width, height] of [[100, 200, 200], [400, 400, 225], [5000, 600, 338], [0, 200, 200]]) {
      const answer = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(permalink)}&maxwidth=${maxwidth}`);
      expect([answer.body.width, answer.body.height], String(maxwidth)).toEqual([width, height]);
    }
  });

  it('answers XML when asked, errors included, and oembed_invalid_url for anything else', async () => {
    const xml = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(permalink)}&format=xml`);
    expect(xml.status).toBe(200);
    expect(xml.header('Content-Type')).toBe('text/xml; charset=UTF-8');
    expect(xml.raw).toMatch(/^<\?xml version="1\.0"\?>\n<oembed><version>1\.0<\/version><provider_name>Media Test<\/provider_name>/);
    expect(xml.raw).toContain('<title>Jazz &#038; Wine</title><type>rich</type><width>600</width><height>338</height><html>&lt;blockquote');
    const unknown = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent('http://127.0.0.1:8080/event/nothing-here/')}`);
    expect([unknown.status, unknown.body]).toEqual([404, { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } }]);
    const elsewhere = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent('https://example.org/event/jazz-wine/')}`);
    expect(elsewhere.status).toBe(404);
    const xmlError = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent('http://127.0.0.1:8080/nope/')}&format=xml`);
    expect([xmlError.status, xmlError.raw]).toEqual([404, '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n']);
    const draft = await m.call('administrator', 'POST', '/cal/events/v1/events', { json: { title: 'Secret', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00', status: 'draft' } });
    const hidden = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(`http://127.0.0.1:8080/?post_type=cal_events&p=${draft.body.id}`)}`);
    expect(hidden.status).toBe(404);
    const missing = await m.call('anonymous', 'GET', `${OE}/embed`);
    expect([missing.status, missing.body.code]).toEqual([400, 'rest_missing_callback_param']);
    const unknownFormat = await m.call('anonymous', 'GET', `${OE}/embed?url=${encodeURIComponent(permalink)}&format=yaml`);
    expect([unknownFormat.status, unknownFormat.header('Content-Type')]).toEqual([200, 'application/json; charset=UTF-8']);
  });

  it('proxies only for users who may edit posts', async () => {
    const anonymous = await m.call('anonymous', 'GET', `${OE}/proxy?url=${encodeURIComponent('http://videos.example/watch/1')}`);
    expect([anonymous.status, anonymous.body.code, anonymous.body.message]).toEqual([401, 'rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.']);
    const subscriber = await m.call('subscriber', 'GET', `${OE}/proxy?url=${encodeURIComponent('http://videos.example/watch/1')}`);
    expect(subscriber.status).toBe(403);
    const badFormat = await m.call('contributor', 'GET', `${OE}/proxy?url=x&format=yaml`);
    expect([badFormat.status, badFormat.body.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('asks a trusted provider, keeps its HTML as sent, and caches the answer in the store', async () => {
    const url = `http://videos.example/watch/${variant.label.length}`;
    const before = hits['/trusted-oembed'] ?? 0;
    const first = await m.call('contributor', 'GET', `${OE}/proxy?url=${encodeURIComponent(url)}&maxwidth=480`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      version: '1.0',
      type: 'video',
      provider_name: 'Trusted',
      title: `Video for ${url}`,
      width: 480,
      height: 750,
      html: '<iframe src="https://player.example/v/1" width="480" height="270"></iframe><script src="https://player.example/api.js"></script>',
    });
    const second = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(url)}&maxwidth=480`);
    expect(second.body).toEqual(first.body);
    expect(hits['/trusted-oembed']).toBe(before + 1);
    const other = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(url)}&maxwidth=300&maxheight=200`);
    expect([other.body.width, other.body.height]).toEqual([300, 200]);
    expect(hits['/trusted-oembed']).toBe(before + 2);
    // A day later the cached answer has expired.
    m.clock.advance(86_401_000);
    await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(url)}&maxwidth=480`);
    expect(hits['/trusted-oembed']).toBe(before + 3);
    expect(await m.site.store.oembedCache.purge(m.site.now() + 86_401_000 * 2)).toBeGreaterThan(0);
  });

  it('deletes expired answers from the store as new ones are kept, at most once an hour', async () => {
    const ask = (n: number) => m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(`http://videos.example/watch/purge-${n}`)}`);
    expect((await ask(1)).status).toBe(200);
    m.clock.advance(86_400_000 + 3_600_000);
    expect((await ask(2)).status).toBe(200);
    // The first answer expired an hour ago: keeping the second deleted it.
    expect(await m.site.store.oembedCache.purge(m.site.now())).toBe(0);
    // A purge here (a day on), then none within the hour after it: the second answer, expiring meanwhile, stays.
    m.clock.advance(86_400_000 - 60_000);
    expect((await ask(3)).status).toBe(200);
    m.clock.advance(120_000);
    expect((await ask(4)).status).toBe(200);
    expect(await m.site.store.oembedCache.purge(m.site.now())).toBe(1);
  });

  it('discovers other providers from a page and keeps only a blockquote and a sandboxed iframe of their HTML', async () => {
    const answer = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(`${base}/page`)}`);
    expect(answer.status).toBe(200);
    expect([answer.body.provider_name, answer.body.a, answer.body.b]).toEqual(['Somewhere', '1', '2']);
    const html: string = answer.body.html;
    const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(html)![1];
    expect(html).toBe(
      `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="https://somewhere.example/p/1">A post</a></blockquote>` +
        `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; visibility: hidden;" src="https://somewhere.example/embed/1#?secret=${secret}" data-secret="${secret}" width="500" height="300"></iframe>`,
    );
    expect(hits['/never']).toBeUndefined();
    const noDiscovery = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(`${base}/page?again`)}&discover=false`);
    expect([noDiscovery.status, noDiscovery.body.code]).toEqual([404, 'oembed_invalid_url']);
  });

  it('falls back to XML when a provider answers 501 to JSON, renders photos and links, and embeds the site’s own URLs', async () => {
    const xml = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(`${base}/xml-page`)}`);
    expect(xml.body).toEqual({ type: 'link', title: 'Tom & Jerry &e;', version: '1.0', html: `<a href="${base}/xml-page">Tom &amp; Jerry &e;</a>` });
    const photo = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent('http://photos.example/1')}`);
    expect(photo.body.html).toBe('<a href="http://photos.example/1"><img src="https://img.example/p.jpg" alt="A &quot;photo&quot;" width="640" height="480" /></a>');
    const own = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(permalink)}`);
    expect([own.body.type, own.body.title, own.body.thumbnail_width]).toEqual(['rich', 'Jazz &#038; Wine', 600]);
    const file = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent('http://nowhere.invalid/talk.mp3')}&discover=false`);
    expect(file.body).toMatchObject({ provider_name: 'Embed Handler', scripts: [] });
    expect(file.body.html).toContain('<audio class="wp-audio-shortcode"');
  });
});

describe('oembed/1.0 proxy without an allow list', () => {
  const m = useMediaSite({ site: { oembed: { providers } } });

  it('never reaches a provider on a private address', async () => {
    const before = { ...hits };
    const trusted = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent('http://videos.example/watch/private')}`);
    const discovered = await m.call('editor', 'GET', `${OE}/proxy?url=${encodeURIComponent(`${base}/page`)}`);
    expect([trusted.status, discovered.status]).toEqual([404, 404]);
    expect(hits).toEqual(before);
  });
});
