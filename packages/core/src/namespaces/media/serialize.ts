import type { ApiRequest } from '../../http/api-request.js';
import { allowedMethods } from '../../http/allow.js';
import type { MediaLibrary } from '../../media/library.js';
import { folderOf } from '../../media/metadata.js';
import type { AttachmentRecord } from '../../store/media-records.js';
import { escUrl } from '../calendar/format/index.js';
import { contentOf, excerptOf, titleOf } from '../calendar/format/memoized.js';
import { MEDIA_NAMESPACE } from './constants.js';
import { escAttr } from '../../text/sanitize.js';

export type MediaContext = 'view' | 'edit' | 'embed';

/** PHP's wpautop ends its output with a line break (the calendar's renderers trim it, as TEC does). */
const withNewline = (html: string) => (html ? `${html}\n` : '');

/** WordPress mysql_to_rfc3339: `2026-11-21T16:41:00`. */
const rfc3339 = (date: string) => (date.startsWith('0000') ? null : date.replace(' ', 'T'));


/** get_attachment_link with pretty permalinks: `<home>/<slug>/`, under the parent's link when attached. */
function attachmentLink(record: AttachmentRecord, home: string): string {
  return record.slug ? `${home}/${record.slug}/` : `${home}/?attachment_id=${record.id}`;
}

/**
 * prepend_attachment's paragraph (the_content of an attachment): the medium size, linked to the file, with
 * a srcset of the sizes that share its proportions.
 */
function attachmentParagraph(record: AttachmentRecord, media: MediaLibrary): string {
  const meta = record.metadata;
  const shown = media.downsize(record, 'medium');
  if (!meta || !shown) return '';
  const folder = folderOf(record.file);
  const sizeClass = meta.sizes.medium ? 'medium' : 'full';
  const candidates: Array<[string, number]> = [];
  for (const size of Object.values(meta.sizes)) {
    if (size.width > 2048) continue;
    if (Math.abs(size.width / size.height - shown.width / shown.height) > 0.01) continue;
    candidates.push([media.files.url(`${folder}${size.file}`), size.width]);
  }
  if (meta.width <= 2048 && Math.abs(meta.width / meta.height - shown.width / shown.height) <= 0.01) candidates.push([media.url(record), meta.width]);
  const srcset = candidates.length > 1 ? ` srcset="${candidates.map(([url, w]) => `${escUrl(url)} ${w}w`).join(', ')}" sizes="(max-width: ${shown.width}px) 100vw, ${shown.width}px"` : '';
  return (
    `<p class="attachment"><a href='${escUrl(media.url(record))}'><img width="${shown.width}" height="${shown.height}" src="${escUrl(shown.url)}" ` +
    `class="attachment-${sizeClass} size-${sizeClass}" alt="${escAttr(record.altText)}" decoding="async" loading="lazy"${srcset} /></a></p>\n`
  );
}

/** `media_details`: the metadata with `mime_type` and `source_url` on each size, plus `full`. */
function mediaDetails(record: AttachmentRecord, media: MediaLibrary): Record<string, unknown> {
  const meta = record.metadata;
  if (!meta) return {};
  const folder = folderOf(record.file);
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (key !== 'sizes') {
      details[key] = value;
      continue;
    }
    const sizes: Record<string, unknown> = {};
    for (const [name, size] of Object.entries(meta.sizes)) {
      const { 'mime-type': mime, ...rest } = size;
      sizes[name] = { ...rest, mime_type: mime, source_url: media.files.url(`${folder}${size.file}`) };
    }
    if (Object.keys(sizes).length) {
      sizes.full = {
        file: media.url(record).split('/').pop(),
        width: meta.width,
        height: meta.height,
        mime_type: record.mimeType,
        source_url: media.url(record),
      };
      details.sizes = sizes;
    } else details.sizes = {};
  }
  return details;
}

/** `_links` of an attachment (WordPress prepare_links), compacted with curies as the REST server does. */
async function links(request: ApiRequest, record: AttachmentRecord): Promise<Record<string, unknown>> {
  const root = request.apiRoot;
  const route = request.site.registry.findRoute(`/${MEDIA_NAMESPACE}/media/${record.id}`);
  const allow = route ? await allowedMethods(route.route, request) : [];
  const out: Record<string, unknown> = {
    self: [{ href: `${root}${MEDIA_NAMESPACE}/media/${record.id}`, targetHints: { allow } }],
    collection: [{ href: `${root}${MEDIA_NAMESPACE}/media` }],
    about: [{ href: `${root}${MEDIA_NAMESPACE}/types/attachment` }],
  };
  if (record.authorId) out.author = [{ embeddable: true, href: `${root}${MEDIA_NAMESPACE}/users/${record.authorId}` }];
  out.replies = [{ embeddable: true, href: `${root}${MEDIA_NAMESPACE}/comments?post=${record.id}` }];
  if (record.parentId) {
    const type = await request.site.store.posts.typeOf(record.parentId);
    if (type) {
      out['wp:attached-to'] = [{ embeddable: true, post_type: type, id: record.parentId, href: `${root}${MEDIA_NAMESPACE}/${type}/${record.parentId}` }];
      out.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
    }
  }
  return out;
}

/** An attachment as WordPress's attachment controller answers it, fields and key order per context. */
export async function serializeAttachment(request: ApiRequest, record: AttachmentRecord, context: MediaContext, withLinks = true): Promise<Record<string, unknown>> {
  const media = request.site.media;
  const home = request.site.settings.home;
  const edit = context === 'edit';
  const embed = context === 'embed';
  const title = titleOf(record.title);
  const data: Record<string, unknown> = { id: record.id, date: rfc3339(record.date) };
  if (!embed) {
    data.date_gmt = rfc3339(record.dateGmt);
    data.guid = edit ? { rendered: record.guid, raw: record.guid } : { rendered: record.guid };
    data.modified = rfc3339(record.modified);
    data.modified_gmt = rfc3339(record.modifiedGmt);
  }
  data.slug = record.slug;
  if (!embed) data.status = record.status;
  data.type = 'attachment';
  data.link = attachmentLink(record, home);
  data.title = edit ? { raw: record.title, rendered: title } : { rendered: title };
  data.author = record.authorId;
  data.featured_media = 0;
  if (!embed) {
    data.comment_status = 'open';
    data.ping_status = 'closed';
    data.template = '';
    data.meta = [];
    if (edit) {
      data.permalink_template = `${home}/%pagename%/`;
      data.generated_slug = record.slug;
    }
    data.class_list = [`post-${record.id}`, 'attachment', 'type-attachment', `status-${record.status}`, 'hentry'];
    const rendered = attachmentParagraph(record, media) + withNewline(contentOf(record.content));
    data.description = edit ? { raw: record.content, rendered } : { rendered };
  }
  const caption = withNewline(excerptOf(record.excerpt));
  data.caption = edit ? { raw: record.excerpt, rendered: caption } : { rendered: caption };
  data.alt_text = record.altText;
  data.media_type = record.mimeType.startsWith('image/') ? 'image' : 'file';
  data.mime_type = record.mimeType;
  data.media_details = mediaDetails(record, media);
  if (!embed) data.post = record.parentId ? record.parentId : null;
  data.source_url = media.url(record);
  if (edit) data.missing_image_sizes = await missingSizes(record, media);
  if (withLinks) data._links = await links(request, record);
  return data;
}

/** wp_get_missing_image_subsizes: registered sizes the original is large enough for but that have no entry. */
async function missingSizes(record: AttachmentRecord, media: MediaLibrary): Promise<string[]> {
  const meta = record.metadata;
  if (!meta || !record.mimeType.startsWith('image/')) return [];
  const dims = (await media.originalDimensions(record)) ?? { width: meta.width, height: meta.height };
  return media.imageSizes.filter((size) => !meta.sizes[size.name] && media.sizeFileName(record, size, dims) !== null).map((s) => s.name);
}
