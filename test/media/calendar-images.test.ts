import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { makeImage, useMediaSite } from './harness.js';

const NS = '/cal/events/v1';

let images: Server;
let base = '';
let served = 0;
let png: Buffer;

beforeAll(async () => {
  png = await makeImage('png', 900, 600);
  images = createServer((req, res) => {
    served++;
    if (req.url === '/poster.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(png);
    }
    if (req.url === '/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<html></html>');
    }
    if (req.url === '/lies.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end('<?php system($_GET["c"]);');
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => images.close(() => resolve())));

const event = (extra: Record<string, unknown>) => ({ title: 'With image', start_date: '2027-04-01 10:00:00', end_date: '2027-04-01 12:00:00', ...extra });

describe.each(storeVariants())('calendar images on the $label', (variant) => {
  const m = useMediaSite({ store: variant, site: { media: { outbound: { allow: ['127.0.0.1/32'] } } } });
  let attachment = 0;

  it('shows an attachment named by id as TEC’s image object, in events, venues and organizers', async () => {
    attachment = (await m.upload('author', await makeImage('jpeg', 1200, 800), 'stage.jpg')).body.id;
    const venue = await m.call('author', 'POST', `${NS}/venues`, { json: { venue: 'Club', image: String(attachment) } });
    const organizer = await m.call('author', 'POST', `${NS}/organizers`, { json: { organizer: 'Crew', image: String(attachment) } });
    const created = await m.call('author', 'POST', `${NS}/events`, { json: event({ image: String(attachment), venue: venue.body.id, organizer: [organizer.body.id] }) });
    expect(created.status).toBe(201);
    const image = created.body.image;
    expect(Object.keys(image)).toEqual(['url', 'id', 'extension', 'width', 'height', 'filesize', 'sizes']);
    expect(image).toMatchObject({ url: 'http://127.0.0.1:8080/uploads/2026/11/stage.jpg', id: attachment, extension: 'jpg', width: 1200, height: 800 });
    expect(Object.keys(image.sizes)).toEqual(['medium', 'large', 'thumbnail', 'medium_large']);
    expect(image.sizes.large).toEqual({ width: 1024, height: 683, 'mime-type': 'image/jpeg', filesize: expect.any(Number), url: 'http://127.0.0.1:8080/uploads/2026/11/stage-1024x683.jpg' });
    expect(created.body.venue.image.id).toBe(attachment);
    expect(created.body.organizer[0].image.id).toBe(attachment);
    const single = await m.call('anonymous', 'GET', `${NS}/events/${created.body.id}`);
    expect(single.body.json_ld.image).toBe(image.url);
    expect(single.body.json_ld.location.image).toBe(image.url);
    const venueRead = await m.call('anonymous', 'GET', `${NS}/venues/${venue.body.id}`);
    expect(venueRead.body.json_ld.image).toBe(image.url);
  });

  it('sideloads an image URL once, through the guarded client, for callers who may upload', async () => {
    const before = served;
    const first = await m.call('author', 'POST', `${NS}/events`, { json: event({ image: `${base}/poster.png` }) });
    expect(first.status).toBe(201);
    expect(first.body.image).toMatchObject({ extension: 'png', width: 900, height: 600 });
    expect(first.body.image.url).toBe('http://127.0.0.1:8080/uploads/2026/11/poster.png');
    const second = await m.call('author', 'POST', `${NS}/events`, { json: event({ image: `${base}/poster.png` }) });
    expect(second.body.image.id).toBe(first.body.image.id);
    expect(served).toBe(before + 1);
    const media = await m.call('anonymous', 'GET', `/wp/v2/media/${first.body.image.id}`);
    expect(media.body.media_details.file).toBe('2026/11/poster.png');
  });

  it('refuses images that are not images, not reachable, not allowed to the caller or not attachments', async () => {
    const contributor = await m.call('contributor', 'POST', `${NS}/events`, { json: event({ image: `${base}/poster.png` }) });
    expect([contributor.status, contributor.body.code, contributor.body.data.params]).toEqual([400, 'rest_invalid_param', { image: 'Invalid parameter.' }]);
    for (const image of [`${base}/page.html`, `${base}/missing.png`, `${base}/lies.png`, 'ftp://example.org/a.png', 'not a url', '999999']) {
      const answer = await m.call('author', 'POST', `${NS}/events`, { json: event({ image }) });
      expect([answer.status, answer.body.code], image).toEqual([400, 'rest_invalid_param']);
    }
    const number = await m.call('author', 'POST', `${NS}/events`, { json: event({ image: attachment }) });
    expect([number.status, number.body.data.params.image]).toEqual([400, 'image is not of type string.']);
    const theEvent = await m.call('author', 'POST', `${NS}/events`, { json: event({}) });
    const notAnAttachment = await m.call('author', 'POST', `${NS}/events`, { json: event({ image: String(theEvent.body.id) }) });
    expect(notAnAttachment.status).toBe(400);
  });

  it('updates and removes images, and cached lists follow attachment changes', async () => {
    const created = await m.call('author', 'POST', `${NS}/events`, { json: event({ title: 'Cached', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00' }) });
    expect(created.body.image).toBe(false);
    const id = created.body.id;
    const list = () => m.call('anonymous', 'GET', `${NS}/events?start_date=2027-05-01&end_date=2027-05-02`);
    expect((await list()).body.events[0].image).toBe(false);
    await m.call('author', 'POST', `${NS}/events/${id}`, { json: { image: String(attachment) } });
    expect((await list()).body.events[0].image.id).toBe(attachment);
    // Regenerating with a new size changes the metadata the cached list shows.
    m.site.media.addImageSize({ name: 'banner', width: 600, height: 200, crop: true });
    const regenerated = await m.call('administrator', 'POST', `/regenerate-thumbnails/v1/regenerate/${attachment}`);
    expect(regenerated.status).toBe(200);
    expect((await list()).body.events[0].image.sizes.banner).toMatchObject({ width: 600, height: 200 });
    // Renaming the attachment does not touch the calendar's answers (the change version stays).
    const version = await m.site.store.changeVersion!();
    await m.call('author', 'POST', `/wp/v2/media/${attachment}`, { json: { title: 'Renamed' } });
    expect(await m.site.store.changeVersion!()).toBe(version);
    await m.site.media.setImage('event', id, null);
    expect((await list()).body.events[0].image).toBe(false);
    await m.site.media.setImage('event', id, attachment);
    // Deleting the attachment empties every image that showed it.
    await m.call('administrator', 'DELETE', `/wp/v2/media/${attachment}?force=true`);
    expect((await list()).body.events[0].image).toBe(false);
  });
});
