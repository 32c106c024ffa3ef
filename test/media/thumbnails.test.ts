import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { dimensionsOf, makeImage, useMediaSite } from './harness.js';

const RT = '/regenerate-thumbnails/v1';
const API = 'http://127.0.0.1:8080/api';

describe.each(storeVariants())('regenerate-thumbnails/v1 on the $label', (variant) => {
  const m = useMediaSite({ store: variant });
  let photo = 0;
  let eventId = 0;
  const file = (name: string) => m.path(`2026/11/${name}`);
  const regenerate = (query = '', json?: unknown, method = 'POST') => m.call('administrator', method, `${RT}/regenerate/${photo}${query}`, json ? { json } : {});

  it('describes an attachment and its sizes (attachmentinfo)', async () => {
    const upload = await m.upload('administrator', await makeImage('jpeg', 1600, 1200), 'photo.jpg');
    photo = upload.body.id;
    const info = await m.call('administrator', 'GET', `${RT}/attachmentinfo/${photo}`);
    expect(info.status).toBe(200);
    expect(Object.keys(info.body)).toEqual(['name', 'preview', 'relative_path', 'edit_url', 'width', 'height', 'registered_sizes', 'unregistered_sizes']);
    expect(info.body).toMatchObject({
      name: 'photo',
      preview: 'http://127.0.0.1:8080/uploads/2026/11/photo.jpg',
      relative_path: '2026/11/photo.jpg',
      edit_url: `http://127.0.0.1:8080/wp-admin/post.php?post=${photo}&action=edit`,
      width: 1600,
      height: 1200,
      unregistered_sizes: [],
    });
    expect(info.body.registered_sizes).toEqual([
      { label: 'thumbnail', width: 150, height: 150, crop: true, filename: 'photo-150x150.jpg', fileexists: true },
      { label: 'medium', width: 300, height: 300, crop: false, filename: 'photo-300x225.jpg', fileexists: true },
      { label: 'medium_large', width: 768, height: 0, crop: false, filename: 'photo-768x576.jpg', fileexists: true },
      { label: 'large', width: 1024, height: 1024, crop: false, filename: 'photo-1024x768.jpg', fileexists: true },
      { label: '1536x1536', width: 1536, height: 1536, crop: false, filename: 'photo-1536x1152.jpg', fileexists: true },
      { label: '2048x2048', width: 2048, height: 2048, crop: false, filename: false, fileexists: false },
    ]);
  });

  it('only regenerates missing sizes by default, and everything when asked', async () => {
    await rm(file('photo-300x225.jpg'));
    // A file that exists at the right size is left alone by the default run: replace one with a marker.
    await writeFile(file('photo-150x150.jpg'), 'marker');
    const answer = await regenerate();
    expect(answer.status).toBe(200);
    expect(answer.body.registered_sizes[1]).toMatchObject({ label: 'medium', fileexists: true });
    expect(await dimensionsOf(file('photo-300x225.jpg'))).toMatchObject({ width: 300, height: 225 });
    expect(await readFile(file('photo-150x150.jpg'), 'utf8')).toBe('marker');
    const all = await regenerate('?only_regenerate_missing_thumbnails=false');
    expect(all.status).toBe(200);
    expect(await dimensionsOf(file('photo-150x150.jpg'))).toMatchObject({ width: 150, height: 150, format: 'jpeg' });
    const media = await m.call('administrator', 'GET', `/wp/v2/media/${photo}?context=edit`);
    expect(Object.keys(media.body.media_details.sizes)).toEqual(['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', 'full']);
    expect(media.body.missing_image_sizes).toEqual([]);
  });

  it('makes newly registered sizes, keeps the old file of a resized size, and rewrites the posts that show it', async () => {
    const created = await m.call('administrator', 'POST', '/cal/events/v1/events', {
      json: {
        title: 'Gallery night',
        start_date: '2027-01-10 18:00:00',
        end_date: '2027-01-10 22:00:00',
        image: String(photo),
        description:
          `<p>[caption id="attachment_${photo}" align="alignnone" width="300"]<img class="wp-image-${photo} size-medium" src="http://old/photo-300x225.jpg" alt="" width="300" height="225" /> Stage[/caption]</p>` +
          `<p><img class="size-medium wp-image-${photo}9" src="http://other/x.jpg" width="300" height="225" /></p>`,
      },
    });
    expect(created.status).toBe(201);
    eventId = created.body.id;
    m.site.media.addImageSize({ name: 'square', width: 400, height: 400, crop: true });
    m.site.media.addImageSize({ name: 'medium', width: 200, height: 200, crop: false });
    const info = await m.call('administrator', 'GET', `${RT}/attachmentinfo/${photo}`);
    expect(info.body.registered_sizes.find((s: { label: string }) => s.label === 'square')).toEqual({ label: 'square', width: 400, height: 400, crop: true, filename: 'photo-400x400.jpg', fileexists: false });
    expect(info.body.unregistered_sizes).toEqual([{ label: 'medium (old)', width: 300, height: 225, filename: 'photo-300x225.jpg', fileexists: true }]);

    const answer = await regenerate('', undefined, 'PUT');
    expect(answer.status).toBe(200);
    expect(await dimensionsOf(file('photo-400x400.jpg'))).toMatchObject({ width: 400, height: 400 });
    expect(await dimensionsOf(file('photo-200x150.jpg'))).toMatchObject({ width: 200, height: 150 });
    expect(existsSync(file('photo-300x225.jpg'))).toBe(true);
    const media = await m.call('administrator', 'GET', `/wp/v2/media/${photo}`);
    const sizes = media.body.media_details.sizes;
    expect(sizes.medium).toMatchObject({ file: 'photo-200x150.jpg', width: 200, height: 150 });
    expect(sizes['medium_old_300x225']).toMatchObject({ file: 'photo-300x225.jpg', width: 300, height: 225 });

    const event = await m.call('administrator', 'GET', `/cal/events/v1/events/${eventId}?context=edit`);
    const html = event.body.description as string;
    expect(html).toContain(`[caption id="attachment_${photo}" align="alignnone" width="200"]`);
    expect(html).toContain(`<img class="wp-image-${photo} size-medium" src="http://127.0.0.1:8080/uploads/2026/11/photo-200x150.jpg" alt="" width="200" height="150" />`);
    // wp-image-<id>9 is another image: untouched.
    expect(html).toContain('src="http://other/x.jpg" width="300" height="225"');
    // The event's image object follows the new metadata.
    expect(event.body.image.sizes.medium).toEqual({ width: 200, height: 150, 'mime-type': 'image/jpeg', filesize: expect.any(Number), url: 'http://127.0.0.1:8080/uploads/2026/11/photo-200x150.jpg' });
  });

  it('leaves posts alone when asked to, or when they are not among the given ids or types', async () => {
    m.site.media.addImageSize({ name: 'medium', width: 250, height: 250, crop: false });
    const before = (await m.call('administrator', 'GET', `/cal/events/v1/events/${eventId}`)).body.description;
    for (const json of [
      { only_regenerate_missing_thumbnails: false, update_usages_in_posts: false },
      { only_regenerate_missing_thumbnails: false, update_usages_in_posts_post_ids: [eventId + 1000] },
      { only_regenerate_missing_thumbnails: false, update_usages_in_posts_post_type: ['cal_venue'], update_usages_in_posts_posts_per_loop: 1 },
    ]) {
      const answer = await regenerate('', json);
      expect(answer.status).toBe(200);
      expect((await m.call('administrator', 'GET', `/cal/events/v1/events/${eventId}`)).body.description).toBe(before);
    }
    const scalar = await regenerate('?update_usages_in_posts_post_ids=5');
    expect([scalar.status, scalar.body.code, scalar.body.data.params]).toEqual([400, 'rest_invalid_param', { update_usages_in_posts_post_ids: 'Invalid parameter.' }]);
    expect(scalar.body.data.details).toEqual([]);
    const ids = await regenerate('', { only_regenerate_missing_thumbnails: false, update_usages_in_posts_post_ids: [eventId], update_usages_in_posts_posts_per_loop: 1 });
    expect(ids.status).toBe(200);
    expect((await m.call('administrator', 'GET', `/cal/events/v1/events/${eventId}`)).body.description).toContain('photo-250x188.jpg');
  });

  it('deletes the files of sizes no longer registered, sparing other uploads that look like sizes', async () => {
    // Another attachment whose own upload is named like a size of this one.
    const other = await m.upload('administrator', await makeImage('jpeg', 50, 50), 'photo-50x50.jpg');
    expect(other.body.media_details.file).toBe('2026/11/photo-50x50.jpg');
    await writeFile(file('photo-999x999.jpg'), 'stale');
    m.site.media.removeImageSize('square');
    const answer = await regenerate('', { delete_unregistered_thumbnail_files: true }, 'PATCH');
    expect(answer.status).toBe(200);
    expect(existsSync(file('photo-400x400.jpg'))).toBe(false);
    expect(existsSync(file('photo-999x999.jpg'))).toBe(false);
    expect(existsSync(file('photo-50x50.jpg'))).toBe(true);
    expect(existsSync(file('photo.jpg'))).toBe(true);
    const media = await m.call('administrator', 'GET', `/wp/v2/media/${photo}`);
    expect(Object.keys(media.body.media_details.sizes)).not.toContain('square');
    expect(answer.body.unregistered_sizes).toEqual([]);
    const get = await regenerate('', undefined, 'GET');
    const del = await regenerate('', undefined, 'DELETE');
    expect([get.status, del.status]).toEqual([200, 200]);
  });

  it('lists featured images with WordPress paging', async () => {
    const second = await m.upload('administrator', await makeImage('png', 60, 40), 'logo.png', 'image/png');
    const venue = await m.call('administrator', 'POST', '/cal/events/v1/venues', { json: { venue: 'Hall', image: String(second.body.id) } });
    expect(venue.status).toBe(201);
    expect(venue.body.image).toMatchObject({ id: second.body.id, extension: 'png', width: 60, height: 40 });
    const page = await m.call('administrator', 'GET', `${RT}/featuredimages?per_page=1`);
    expect(page.status).toBe(200);
    expect(page.body).toEqual([{ id: String(photo) }]);
    expect([page.header('X-WP-Total'), page.header('X-WP-TotalPages')]).toEqual(['2', '2']);
    expect(page.headerAll('Link')).toContain(`<${API}${RT}/featuredimages?per_page=1&page=2>; rel="next"`);
    const next = await m.call('administrator', 'GET', `${RT}/featuredimages?per_page=1&page=2`);
    expect(next.body).toEqual([{ id: String(second.body.id) }]);
    expect(next.headerAll('Link')).toContain(`<${API}${RT}/featuredimages?per_page=1&page=1>; rel="prev"`);
    const beyond = await m.call('administrator', 'GET', `${RT}/featuredimages?page=5`);
    expect([beyond.status, beyond.body.code]).toEqual([400, 'rest_post_invalid_page_number']);
  });

  it('answers every error of the plugin', async () => {
    const missing = await m.call('administrator', 'POST', `${RT}/regenerate/999999`);
    expect([missing.status, missing.body]).toEqual([404, { code: 'regenerate_thumbnails_regenerator_attachment_doesnt_exist', message: 'No attachment exists with that ID.', data: { status: 404 } }]);
    const notAttachment = await m.call('administrator', 'GET', `${RT}/attachmentinfo/${eventId}`);
    expect([notAttachment.status, notAttachment.body.code, notAttachment.body.message]).toEqual([400, 'regenerate_thumbnails_regenerator_not_attachment', 'This item is not an attachment.']);
    const editor = await m.call('editor', 'POST', `${RT}/regenerate/${photo}`);
    expect([editor.status, editor.body.code]).toEqual([403, 'rest_forbidden']);
    const anonymous = await m.call('anonymous', 'GET', `${RT}/featuredimages`);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'rest_forbidden']);

    const icon = await m.upload('administrator', await makeImage('png', 512, 512), 'icon.png', 'image/png');
    await m.site.store.attachments.update(icon.body.id, { context: 'site-icon' });
    const siteIcon = await m.call('administrator', 'POST', `${RT}/regenerate/${icon.body.id}`);
    expect([siteIcon.status, siteIcon.body.code, siteIcon.body.data.attachment.ID, siteIcon.body.data.attachment.post_type]).toEqual([415, 'regenerate_thumbnails_regenerator_is_site_icon', icon.body.id, 'attachment']);

    const lost = await m.upload('administrator', await makeImage('jpeg', 200, 200), 'lost.jpg');
    await rm(file('lost.jpg'));
    const notFound = await m.call('administrator', 'POST', `${RT}/regenerate/${lost.body.id}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.code).toBe('regenerate_thumbnails_regenerator_file_not_found');
    expect(notFound.body.message).toBe("The fullsize image file cannot be found in your uploads directory at <code>2026/11/lost.jpg</code>. Without it, new thumbnail images can't be generated.");
    expect(Object.keys(notFound.body.data)).toEqual(['attachment']);
    expect(notFound.body.additional_data).toEqual([{ status: 404, fullsizepath: '2026/11/lost.jpg', attachment: notFound.body.data.attachment }]);

    const broken = await m.upload('administrator', await makeImage('jpeg', 200, 200), 'broken.jpg');
    await writeFile(file('broken.jpg'), 'not an image any more');
    const noEditor = await m.call('administrator', 'GET', `${RT}/attachmentinfo/${broken.body.id}`);
    expect([noEditor.status, noEditor.body.code, Object.keys(noEditor.body.data)]).toEqual([415, 'image_no_editor', ['attachment', 'status']]);

    const empty = await m.upload('administrator', await makeImage('jpeg', 200, 200), 'empty.jpg');
    await m.site.store.attachments.update(empty.body.id, { metadata: null });
    const noMetadata = await m.call('administrator', 'GET', `${RT}/attachmentinfo/${empty.body.id}`);
    expect([noMetadata.status, noMetadata.body.code]).toEqual([404, 'regenerate_thumbnails_regenerator_no_metadata']);
  });
});
