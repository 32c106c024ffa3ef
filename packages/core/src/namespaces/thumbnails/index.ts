import type { ArgSpec, ArgValidator } from '../../args/spec.js';
import { ApiError } from '../../http/api-error.js';
import type { ApiRequest } from '../../http/api-request.js';
import { ApiResponse } from '../../http/api-response.js';
import { coreErrors } from '../../http/errors.js';
import { paginationHeaders } from '../../http/pagination.js';
import { absint, intval, parseList } from '../../http/php.js';
import { ImageProcessingError } from '../../media/images.js';
import { ATTACHMENT_TYPE, MediaError } from '../../media/library.js';
import { folderOf } from '../../media/metadata.js';
import { ALLMETHODS, defineNamespace, defineRoute, READABLE, type NamespaceDefinition } from '../../registry/types.js';
import type { AttachmentRecord } from '../../store/media-records.js';
import { rewriteImageUsages } from './usages.js';

const THUMBNAILS_NAMESPACE = 'regenerate-thumbnails/v1';

/** The plugin's `regenerate_thumbs_cap` default. */
const CAPABILITY = 'manage_options';

/** An error whose HTTP status is not in its (last) data item, as WordPress renders multi-data errors. */
class StatusError extends ApiError {
  constructor(code: string, message: string, status: number, data: Record<string, unknown>, additionalData: unknown[]) {
    super(code, message, null, data, { additionalData });
    (this as { status: number }).status = status;
  }
}

/** The attachment as a WP_Post object, as the plugin puts it in `data.attachment`. */
function postObject(record: AttachmentRecord): Record<string, unknown> {
  return {
    ID: record.id,
    post_author: String(record.authorId),
    post_date: record.date,
    post_date_gmt: record.dateGmt,
    post_content: record.content,
    post_title: record.title,
    post_excerpt: record.excerpt,
    post_status: record.status,
    comment_status: 'open',
    ping_status: 'closed',
    post_password: '',
    post_name: record.slug,
    to_ping: '',
    pinged: '',
    post_modified: record.modified,
    post_modified_gmt: record.modifiedGmt,
    post_content_filtered: '',
    post_parent: record.parentId,
    guid: record.guid,
    menu_order: record.menuOrder,
    post_type: 'attachment',
    post_mime_type: record.mimeType,
    comment_count: '0',
    filter: 'raw',
  };
}

const errors = {
  doesntExist: () => new ApiError('regenerate_thumbnails_regenerator_attachment_doesnt_exist', 'No attachment exists with that ID.', 404),
  notAttachment: () => new ApiError('regenerate_thumbnails_regenerator_not_attachment', 'This item is not an attachment.', 400),
  siteIcon: (record: AttachmentRecord) =>
    new ApiError('regenerate_thumbnails_regenerator_is_site_icon', "This attachment is a site icon and therefore the thumbnails shouldn't be touched.", 415, {
      attachment: postObject(record),
    }),
  // The plugin adds `{attachment}` to the error after creating it with `{status, fullsizepath, attachment}`:
  // WordPress >= 5.6 keeps the first as additional data; the status still comes from it.
  fileNotFound: (record: AttachmentRecord, path: string) =>
    new StatusError(
      'regenerate_thumbnails_regenerator_file_not_found',
      `The fullsize image file cannot be found in your uploads directory at <code>${path}</code>. Without it, new thumbnail images can't be generated.`,
      404,
      { attachment: postObject(record) },
      [{ status: 404, fullsizepath: path, attachment: postObject(record) }],
    ),
  noEditor: (record: AttachmentRecord) =>
    new StatusError('image_no_editor', 'The current image editor cannot process this file type.', 415, { attachment: postObject(record), status: 415 }, []),
  noMetadata: (record: AttachmentRecord) =>
    new ApiError('regenerate_thumbnails_regenerator_no_metadata', 'Unable to load the metadata for this attachment.', 404, { attachment: postObject(record) }),
};

/** RegenerateThumbnails_Regenerator::get_instance: the attachment, or the plugin's errors. */
async function regenerator(request: ApiRequest): Promise<AttachmentRecord> {
  const id = intval(request.get('id'));
  const type = id > 0 ? await request.site.store.posts.typeOf(id) : null;
  if (!type) throw errors.doesntExist();
  if (type !== ATTACHMENT_TYPE) throw errors.notAttachment();
  const record = await request.site.store.attachments.get(id);
  if (!record) throw errors.doesntExist();
  if (record.context === 'site-icon') throw errors.siteIcon(record);
  return record;
}

async function fullsizeExists(request: ApiRequest, record: AttachmentRecord): Promise<string> {
  const key = request.site.media.originalKey(record);
  if (!(await request.site.media.files.exists(key))) throw errors.fileNotFound(record, key);
  return key;
}

/** get_attachment_info: what the plugin's screen shows of an attachment and its sizes. */
async function attachmentInfo(request: ApiRequest, record: AttachmentRecord): Promise<Record<string, unknown>> {
  const media = request.site.media;
  const key = await fullsizeExists(request, record);
  const dims = await media.originalDimensions(record);
  if (!dims) throw errors.noEditor(record);
  const metadata = record.metadata;
  if (!metadata) throw errors.noMetadata(record);
  const width = metadata.width ?? null;
  const height = metadata.height ?? null;
  const folder = folderOf(key);
  const registered: Array<Record<string, unknown>> = [];
  for (const size of media.imageSizes) {
    const entry: Record<string, unknown> = { label: size.name, width: size.width, height: size.height, crop: size.crop !== false };
    const filename = width && height ? media.sizeFileName(record, size, { width, height }) : null;
    entry.filename = filename ?? false;
    entry.fileexists = filename ? await media.files.exists(`${folder}${filename}`) : false;
    registered.push(entry);
  }
  const names = new Set(media.imageSizes.map((s) => s.name));
  const unregistered: Array<Record<string, unknown>> = [];
  for (const [label, size] of Object.entries(metadata.sizes)) {
    if (!(await media.files.exists(`${folder}${size.file}`))) continue;
    if (registered.some((r) => r.filename === size.file)) continue;
    unregistered.push({ label: names.has(label) ? `${label} (old)` : label, width: size.width, height: size.height, filename: size.file, fileexists: true });
  }
  return {
    name: record.title || `Attachment ${record.id}`,
    preview: media.url(record),
    relative_path: key,
    edit_url: `${request.site.settings.url}/wp-admin/post.php?post=${record.id}&action=edit`,
    width,
    height,
    registered_sizes: registered,
    unregistered_sizes: unregistered,
  };
}

/** Rewrites the image tags of the posts that show the attachment, a batch of `perLoop` posts at a time. */
async function updateUsages(request: ApiRequest, record: AttachmentRecord): Promise<void> {
  const media = request.site.media;
  const store = request.site.store;
  const given = parseList(request.get('update_usages_in_posts_post_type') ?? []).map(String);
  const types = given.length ? given.filter((t) => media.contentType(t)) : media.contentPostTypes;
  const ids = parseList(request.get('update_usages_in_posts_post_ids') ?? []).map(absint).filter((id) => id > 0);
  const perLoop = Math.min(100, Math.max(1, absint(request.get('update_usages_in_posts_posts_per_loop') ?? 10) || 10));
  if (!types.length) return;
  for (let offset = 0; ; offset += perLoop) {
    const posts = await store.attachments.postsUsingImage({ attachmentId: record.id, types, ids, offset, limit: perLoop });
    for (const { id, type } of posts) {
      const repository = media.contentType(type)?.repository(store);
      const post = await repository?.get(id);
      if (!repository || !post) continue;
      const content = rewriteImageUsages(post.content, record, media);
      if (content !== post.content) await repository.update(id, { content });
    }
    if (posts.length < perLoop) break;
  }
}

async function regenerate(request: ApiRequest) {
  let record = await regenerator(request);
  await fullsizeExists(request, record);
  try {
    record = await request.site.media.regenerate(record, {
      onlyMissing: request.get('only_regenerate_missing_thumbnails') !== false,
      deleteUnregistered: request.get('delete_unregistered_thumbnail_files') === true,
    });
  } catch (error) {
    if (error instanceof ImageProcessingError || (error instanceof MediaError && error.reason === 'not_an_image')) throw errors.noEditor(record);
    if (error instanceof MediaError && error.reason === 'file_missing') throw errors.fileNotFound(record, request.site.media.originalKey(record));
    throw error;
  }
  if (request.get('update_usages_in_posts') !== false) await updateUsages(request, record);
  return attachmentInfo(request, record);
}

/** The plugin's is_array validator: a list (a query-string scalar is not one), bounded. */
const isArray: ArgValidator = (value) => Array.isArray(value) && value.length <= 1000;

const regenerateArgs: Record<string, ArgSpec> = {
  only_regenerate_missing_thumbnails: {
    description: "Whether to only regenerate missing thumbnails. It's faster with this enabled.",
    type: 'boolean',
    default: true,
  },
  delete_unregistered_thumbnail_files: {
    description: 'Whether to delete any old, now unregistered thumbnail files.',
    type: 'boolean',
    default: false,
  },
  update_usages_in_posts: {
    description: 'Whether to update the image tags in any posts that make use of this attachment.',
    type: 'boolean',
    default: true,
  },
  update_usages_in_posts_post_type: {
    description: 'The types of posts to update. Defaults to all public post types.',
    type: 'array',
    default: [],
    validate: isArray,
  },
  update_usages_in_posts_post_ids: {
    description: 'Specific post IDs to update rather than any posts that use this attachment.',
    type: 'array',
    default: [],
    validate: isArray,
  },
  update_usages_in_posts_posts_per_loop: {
    description: "Posts to process per loop. This is control memory usage and you likely don't need to adjust this.",
    type: 'integer',
    default: 10,
    sanitize: (value) => absint(value),
  },
};

const pagingArgs: Record<string, ArgSpec> = {
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
};

async function featuredImages(request: ApiRequest) {
  const page = absint(request.get('page') ?? 1) || 1;
  const perPage = absint(request.get('per_page') ?? 10) || 10;
  const { items, total } = await request.site.store.attachments.featuredImages((page - 1) * perPage, perPage);
  const maxPages = Math.ceil(total / perPage);
  if (page > maxPages && total > 0) throw coreErrors.invalidPageNumber();
  return new ApiResponse(
    items.map((id) => ({ id: String(id) })),
    200,
    paginationHeaders(request, `${THUMBNAILS_NAMESPACE}/featuredimages`, page, perPage, total),
  );
}

const canRegenerate = (request: ApiRequest) => request.can(CAPABILITY);

/** Regenerate Thumbnails 3.x: `regenerate/{id}`, `attachmentinfo/{id}` and `featuredimages`. */
export function thumbnailsNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: THUMBNAILS_NAMESPACE,
    routes: [
      defineRoute('/regenerate/(?P<id>[\\d]+)', [{ methods: ALLMETHODS, args: regenerateArgs, permission: canRegenerate, handler: regenerate }]),
      defineRoute('/attachmentinfo/(?P<id>[\\d]+)', [
        { methods: READABLE, permission: canRegenerate, handler: async (request) => attachmentInfo(request, await regenerator(request)) },
      ]),
      defineRoute('/featuredimages', [{ methods: READABLE, args: pagingArgs, permission: canRegenerate, handler: featuredImages }]),
    ],
  });
}

