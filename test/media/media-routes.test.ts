import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { dimensionsOf, makeImage, MEDIA, useMediaSite } from './harness.js';

const API = 'http://127.0.0.1:8080/api';
const VIEW_KEYS = [
  'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author', 'featured_media',
  'comment_status', 'ping_status', 'template', 'meta', 'class_list', 'description', 'caption', 'alt_text', 'media_type', 'mime_type',
  'media_details', 'post', 'source_url', '_links',
];
const EDIT_KEYS = [
  'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author', 'featured_media',
  'comment_status', 'ping_status', 'template', 'meta', 'permalink_template', 'generated_slug', 'class_list', 'description', 'caption',
  'alt_text', 'media_type', 'mime_type', 'media_details', 'post', 'source_url', 'missing_image_sizes', '_links',
];

/** A multipart/form-data body with text fields and one file part. */
function multipart(fields: Record<string, string>, file: { field: string; name: string; type: string; data: Buffer }) {
  const boundary = `----siterest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(storeVariants())('wp/v2/media on the $label', (variant) => {
  const m = useMediaSite({ store: variant });

  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
    ['gif', 'image/gif', 'gif'],
    ['avif', 'image/avif', 'avif'],
  ] as const)('uploads a %s as a raw body, makes every size that fits and describes them as WordPress does', async (format, mime, ext) => {
    const data = await makeImage(format, 800, 600);
    const answer = await m.upload('author', data, `Summer Party.${ext}`, mime);
    expect(answer.status).toBe(201);
    const body = answer.body;
    expect(Object.keys(body)).toEqual(EDIT_KEYS);
    expect(answer.header('Location')).toBe(`${API}${MEDIA}/${body.id}`);
    expect(answer.header('X-WP-Upload-Attachment-ID')).toBe(String(body.id));
    expect(body.slug).toMatch(/^summer-party(-\d+)?$/);
    expect(body).toMatchObject({
      status: 'inherit',
      type: 'attachment',
      title: { raw: 'Summer-Party', rendered: 'Summer-Party' },
      author: m.users.author.id,
      media_type: 'image',
      mime_type: mime,
      post: null,
      missing_image_sizes: [],
    });
    expect(body.source_url).toBe(`http://127.0.0.1:8080/uploads/2026/11/Summer-Party.${ext}`);
    const details = body.media_details;
    expect(Object.keys(details)).toEqual(['width', 'height', 'file', 'filesize', 'sizes', 'image_meta']);
    expect(details).toMatchObject({ width: 800, height: 600, file: `2026/11/Summer-Party.${ext}`, filesize: data.length });
    // 800×600 fits thumbnail, medium and medium_large; large and bigger would be the original itself.
    expect(Object.keys(details.sizes)).toEqual(['medium', 'thumbnail', 'medium_large', 'full']);
    const expected: Record<string, [number, number]> = { medium: [300, 225], thumbnail: [150, 150], medium_large: [768, 576] };
    for (const [name, [width, height]] of Object.entries(expected)) {
      const size = details.sizes[name];
      expect(Object.keys(size)).toEqual(['file', 'width', 'height', 'filesize', 'mime_type', 'source_url']);
      expect(size).toMatchObject({ file: `Summer-Party-${width}x${height}.${ext}`, width, height, mime_type: mime });
      const onDisk = await dimensionsOf(m.path(`2026/11/${size.file}`));
      expect([onDisk.width, onDisk.height]).toEqual([width, height]);
      expect(onDisk.format).toBe(format === 'avif' ? 'heif' : format);
    }
    expect(details.sizes.full).toEqual({ file: `Summer-Party.${ext}`, width: 800, height: 600, mime_type: mime, source_url: body.source_url });
    expect(details.image_meta).toEqual({
      aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0', iso: '0',
      shutter_speed: '0', title: '', orientation: '0', keywords: [],
    });
    const read = await m.call('anonymous', 'GET', `${MEDIA}/${body.id}`);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual(VIEW_KEYS);
    expect(read.body.title).toEqual({ rendered: 'Summer-Party' });
    expect(read.body._links.self[0]).toEqual({ href: `${API}${MEDIA}/${body.id}`, targetHints: { allow: ['GET'] } });
  });

  it('scales a big JPEG down to 2560 pixels as `-scaled` and makes the sizes from the original', async () => {
    const answer = await m.upload('editor', await makeImage('jpeg', 3200, 2400), 'big.jpg');
    expect(answer.status).toBe(201);
    const details = answer.body.media_details;
    expect(details).toMatchObject({ width: 2560, height: 1920, file: '2026/11/big-scaled.jpg', original_image: 'big.jpg' });
    expect(Object.keys(details)).toEqual(['width', 'height', 'file', 'filesize', 'sizes', 'image_meta', 'original_image']);
    expect(Object.keys(details.sizes)).toEqual(['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048', 'full']);
    expect(details.sizes['2048x2048']).toMatchObject({ file: 'big-2048x1536.jpg', width: 2048, height: 1536 });
    expect(await dimensionsOf(m.path('2026/11/big-scaled.jpg'))).toMatchObject({ width: 2560, height: 1920 });
    expect(await dimensionsOf(m.path('2026/11/big.jpg'))).toMatchObject({ width: 3200, height: 2400 });
    expect(answer.body.source_url).toBe('http://127.0.0.1:8080/uploads/2026/11/big-scaled.jpg');
  });

  it('never scales PNGs, and turns an EXIF-rotated photo upright as `-rotated`', async () => {
    const png = await m.upload('editor', await makeImage('png', 2700, 300), 'banner.png', 'image/png');
    expect(png.body.media_details).toMatchObject({ width: 2700, height: 300, file: '2026/11/banner.png' });
    expect(png.body.media_details.original_image).toBeUndefined();
    const rotated = await m.upload('editor', await makeImage('jpeg', 400, 200, { orientation: 6 }), 'phone.jpg');
    expect(rotated.body.media_details).toMatchObject({ width: 200, height: 400, file: '2026/11/phone-rotated.jpg', original_image: 'phone.jpg' });
    expect(rotated.body.media_details.image_meta.orientation).toBe(1);
    expect(await dimensionsOf(m.path('2026/11/phone-rotated.jpg'))).toMatchObject({ width: 200, height: 400 });
    expect(rotated.body.media_details.sizes.medium).toMatchObject({ width: 150, height: 300 });
  });

  it('uploads a multipart `file` with its fields, names clashing files as WordPress does and fixes a wrong extension', async () => {
    const data = await makeImage('jpeg', 320, 240);
    const form = multipart({ title: 'Stage at night', alt_text: 'A <b>stage</b>', caption: 'Taken by us' }, { field: 'file', name: 'stage.png', type: 'image/png', data });
    const answer = await m.call('author', 'POST', MEDIA, { body: form.body, headers: { 'Content-Type': form.contentType } });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ title: { raw: 'Stage at night' }, alt_text: 'A stage', caption: { raw: 'Taken by us', rendered: '<p>Taken by us</p>\n' }, mime_type: 'image/jpeg' });
    expect(answer.body.media_details.file).toBe('2026/11/stage.jpg');
    const again = await m.upload('author', data, 'stage.jpg');
    expect(again.body.media_details.file).toBe('2026/11/stage-1.jpg');
    expect(answer.body.slug).toBe('stage-at-night');
    expect(again.body.slug).toBe('stage-1');
  });

  it('refuses uploads as WordPress does: no data, no type, no or a bad disposition, a hash mismatch, a file that is not an image', async () => {
    const data = await makeImage('jpeg', 64, 64);
    const none = await m.call('author', 'POST', MEDIA);
    expect([none.status, none.body.code]).toEqual([400, 'rest_upload_no_data']);
    const noType = await m.call('author', 'POST', MEDIA, { body: data, headers: { 'Content-Disposition': 'attachment; filename="a.jpg"' } });
    expect([noType.status, noType.body.code]).toEqual([400, 'rest_upload_no_content_type']);
    const noDisposition = await m.call('author', 'POST', MEDIA, { body: data, headers: { 'Content-Type': 'image/jpeg' } });
    expect([noDisposition.status, noDisposition.body.code, noDisposition.body.message]).toEqual([400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.']);
    const bad = await m.call('author', 'POST', MEDIA, { body: data, headers: { 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_upload_invalid_disposition']);
    const md5 = await m.upload('author', data, 'a.jpg', 'image/jpeg', { 'Content-MD5': 'd41d8cd98f00b204e9800998ecf8427e' });
    expect([md5.status, md5.body.code, md5.body.message]).toEqual([412, 'rest_upload_hash_mismatch', 'Content hash did not match expected.']);
    const good = await m.upload('author', data, 'hashed.jpg', 'image/jpeg', { 'Content-MD5': createHash('md5').update(data).digest('hex') });
    expect(good.status).toBe(201);
    const script = await m.upload('author', Buffer.from('<?php echo "hi";'), 'photo.jpg');
    expect([script.status, script.body.code, script.body.message]).toEqual([400, 'rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.']);
    const svg = await m.upload('author', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'logo.svg', 'image/svg+xml');
    expect(svg.status).toBe(400);
    const truncated = await m.upload('author', data.subarray(0, 200), 'broken.jpg');
    expect([truncated.status, truncated.body.code]).toEqual([400, 'rest_upload_sideload_error']);
    expect(existsSync(m.path('2026/11/broken.jpg'))).toBe(false);
    expect(existsSync(m.path('2026/11/photo.jpg'))).toBe(false);
  });

  it('lets only users who may upload create attachments', async () => {
    const data = await makeImage('jpeg', 40, 40);
    const anonymous = await m.upload('anonymous', data, 'a.jpg');
    expect([anonymous.status, anonymous.body.code, anonymous.body.message]).toEqual([401, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.']);
    for (const role of ['subscriber', 'contributor'] as const) {
      const refused = await m.upload(role, data, 'a.jpg');
      expect([refused.status, refused.body.code]).toEqual([403, 'rest_cannot_create']);
    }
    const withId = await m.call('author', 'POST', `${MEDIA}?id=5`, { body: data, headers: { 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename=a.jpg' } });
    expect([withId.status, withId.body.code]).toEqual([400, 'rest_post_exists']);
  });

  it('lists with WordPress paging headers and status rules', async () => {
    const list = await m.call('anonymous', 'GET', `${MEDIA}?per_page=2&orderby=id&order=asc`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const total = Number(list.header('X-WP-Total'));
    expect(total).toBeGreaterThanOrEqual(9);
    expect(list.header('X-WP-TotalPages')).toBe(String(Math.ceil(total / 2)));
    expect(list.headerAll('Link'), list.headerAll('Link').join(' | ')).toContain(`<${API}${MEDIA}?per_page=2&orderby=id&order=asc&page=2>; rel="next"`);
    expect(list.body[0].id).toBeLessThan(list.body[1].id);
    const pngs = await m.call('anonymous', 'GET', `${MEDIA}?mime_type=image/png`);
    expect(pngs.body.map((a: { mime_type: string }) => a.mime_type).every((t: string) => t === 'image/png')).toBe(true);
    const search = await m.call('anonymous', 'GET', `${MEDIA}?search=Stage`);
    expect(search.body.map((a: { title: { rendered: string } }) => a.title.rendered)).toContain('Stage at night');
    const beyond = await m.call('anonymous', 'GET', `${MEDIA}?page=999`);
    expect([beyond.status, beyond.body.code]).toEqual([400, 'rest_post_invalid_page_number']);
    const privateOnes = await m.call('anonymous', 'GET', `${MEDIA}?status=private`);
    expect([privateOnes.status, privateOnes.body.code, privateOnes.body.data.details.status.code]).toEqual([400, 'rest_invalid_param', 'rest_forbidden_status']);
    const edit = await m.call('anonymous', 'GET', `${MEDIA}?context=edit`);
    expect([edit.status, edit.body.code]).toEqual([401, 'rest_forbidden_context']);
    const embed = await m.call('anonymous', 'GET', `${MEDIA}?context=embed&per_page=1`);
    expect(Object.keys(embed.body[0])).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'author', 'featured_media', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'source_url', '_links']);
  });

  it('updates title, alt text, caption and description, and keeps others from editing', async () => {
    const created = await m.upload('author', await makeImage('jpeg', 60, 60), 'edit-me.jpg');
    const id = created.body.id;
    const updated = await m.call('author', 'POST', `${MEDIA}/${id}`, { json: { title: 'Edited', alt_text: 'Alt', caption: { raw: 'Cap' }, description: 'Desc' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: { raw: 'Edited', rendered: 'Edited' }, alt_text: 'Alt', caption: { raw: 'Cap' }, description: { raw: 'Desc' } });
    expect(updated.body.description.rendered).toMatch(/^<p class="attachment"><a href='[^']+edit-me\.jpg'><img width="60" height="60" src="[^"]+edit-me\.jpg" class="attachment-full size-full" alt="Alt" decoding="async" loading="lazy" \/><\/a><\/p>\n<p>Desc<\/p>\n$/);
    const other = await m.call('contributor', 'PATCH', `${MEDIA}/${id}`, { json: { title: 'Mine' } });
    expect([other.status, other.body.code]).toEqual([403, 'rest_cannot_edit']);
    const tooLong = await m.call('author', 'PUT', `${MEDIA}/${id}`, { json: { title: 'x'.repeat(70_000) } });
    expect([tooLong.status, tooLong.body.code]).toEqual([400, 'rest_invalid_param']);
    const missing = await m.call('author', 'POST', `${MEDIA}/999999`, { json: { title: 'x' } });
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_post_invalid_id']);
  });

  it('deletes only with force=true, and removes every file', async () => {
    const created = await m.upload('author', await makeImage('jpeg', 400, 300), 'gone.jpg');
    const id = created.body.id;
    const files = ['gone.jpg', 'gone-300x225.jpg', 'gone-150x150.jpg'];
    for (const file of files) expect(existsSync(m.path(`2026/11/${file}`))).toBe(true);
    const trash = await m.call('author', 'DELETE', `${MEDIA}/${id}`);
    expect([trash.status, trash.body.code, trash.body.message]).toEqual([501, 'rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete."]);
    const notYours = await m.call('contributor', 'DELETE', `${MEDIA}/${id}?force=true`);
    expect([notYours.status, notYours.body.code]).toEqual([403, 'rest_cannot_delete']);
    const deleted = await m.call('author', 'DELETE', `${MEDIA}/${id}?force=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect(deleted.body.previous.id).toBe(id);
    for (const file of files) expect(existsSync(m.path(`2026/11/${file}`))).toBe(false);
    const read = await m.call('anonymous', 'GET', `${MEDIA}/${id}`);
    expect([read.status, read.body.code]).toEqual([404, 'rest_post_invalid_id']);
  });
});

describe('upload limits', () => {
  const m = useMediaSite({ site: { media: { maxUploadBytes: 20_000 } } });

  it('refuses a body over the limit while it streams, keeping nothing', async () => {
    const big = await makeImage('png', 300, 300);
    expect(big.length).toBeGreaterThan(20_000);
    const answer = await m.upload('author', big, 'huge.png', 'image/png');
    expect([answer.status, answer.body.code, answer.body.message]).toEqual([400, 'rest_upload_file_too_big', 'This file is too big. Files must be less than 19 KB in size.']);
    expect(existsSync(m.path('2026/11/huge.png'))).toBe(false);
  });
});
