import { DateTime } from 'luxon';
import { canOnObject, type OwnedObject } from '../../auth/principal.js';
import { ApiError } from '../../http/api-error.js';
import type { ApiRequest } from '../../http/api-request.js';
import { ApiResponse, respond } from '../../http/api-response.js';
import { coreErrors } from '../../http/errors.js';
import { paginationHeaders } from '../../http/pagination.js';
import { intval, parseIdList, parseList, toBoolean } from '../../http/php.js';
import { headerValue, type RequestBody } from '../../http/request.js';
import { ATTACHMENT_TYPE, MediaError, type UploadInput } from '../../media/library.js';
import { CREATABLE, defineRoute, DELETABLE, EDITABLE, READABLE, type RouteDefinition } from '../../registry/types.js';
import { siteZone } from '../../settings.js';
import type { AttachmentOrderBy, AttachmentQuery, AttachmentRecord } from '../../store/media-records.js';
import { sanitizeTextField } from '../../text/sanitize.js';
import { formatWpDate } from '../../time.js';
import { postSlug } from '../calendar/posts/slugs.js';
import { contextArg, idArg, itemArgs, listArgs, rawText } from './args.js';
import { ATTACHMENT_CAPS, MEDIA_NAMESPACE } from './constants.js';
import { mediaErrors } from './errors.js';
import { serializeAttachment, type MediaContext } from './serialize.js';

const WP_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/**
 * The object capability checks see: an attachment without a parent counts as published (WordPress
 * get_post_status), one with a parent inherits the parent's status.
 */
async function capabilityView(request: ApiRequest, record: AttachmentRecord): Promise<OwnedObject> {
  let status = record.status;
  if (status === 'inherit') {
    const parent = record.parentId ? await request.site.store.posts.typeOf(record.parentId) : null;
    status = 'publish';
    if (parent) {
      const post = await parentPost(request, record.parentId, parent);
      if (post) status = post.status;
    }
  }
  return { authorId: record.authorId, status, trashedFrom: record.trashedFrom };
}

async function parentPost(request: ApiRequest, id: number, type: string): Promise<{ status: string } | null> {
  const repository = request.site.media.contentType(type)?.repository(request.site.store);
  if (repository) return repository.get(id);
  if (type === ATTACHMENT_TYPE) return request.site.store.attachments.get(id);
  return null;
}

const canRead = async (request: ApiRequest, record: AttachmentRecord) => canOnObject(request.principal, 'read_post', ATTACHMENT_CAPS, await capabilityView(request, record));
const canEdit = async (request: ApiRequest, record: AttachmentRecord) => canOnObject(request.principal, 'edit_post', ATTACHMENT_CAPS, await capabilityView(request, record));
const canDelete = async (request: ApiRequest, record: AttachmentRecord) => canOnObject(request.principal, 'delete_post', ATTACHMENT_CAPS, await capabilityView(request, record));

async function findAttachment(request: ApiRequest): Promise<AttachmentRecord | null> {
  const id = intval(request.get('id'));
  if (id <= 0) return null;
  return request.remember(`attachment:${id}`, () => request.site.store.attachments.get(id));
}

async function mustFind(request: ApiRequest): Promise<AttachmentRecord> {
  const record = await findAttachment(request);
  if (!record) throw mediaErrors.invalidId();
  return record;
}

function contextOf(request: ApiRequest): MediaContext {
  const context = request.get('context');
  return context === 'edit' || context === 'embed' ? context : 'view';
}

/** An ISO 8601 date (with or without offset) as the site's wall clock. */
function siteDate(request: ApiRequest, value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const zone = siteZone(request.site.settings);
  const parsed = DateTime.fromISO(value, { zone, setZone: false });
  return parsed.isValid ? parsed.setZone(zone).toFormat(WP_FORMAT) : undefined;
}

async function list(request: ApiRequest) {
  const page = Math.max(1, intval(request.get('page') ?? 1));
  const perPage = intval(request.get('per_page') ?? 10);
  const orderby = String(request.get('orderby') ?? 'date');
  if (orderby === 'relevance' && !request.has('search')) {
    throw new ApiError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  }
  const include = parseIdList(request.get('include') ?? []);
  if (orderby === 'include' && !include.length) {
    throw new ApiError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  }
  const statuses = parseList(request.get('status') ?? 'inherit').map(String);
  const mediaTypes = parseList(request.get('media_type') ?? []).map(String);
  const mimeTypes = parseList(request.get('mime_type') ?? []).map(String).filter((m) => m.startsWith('image/'));
  const wantedTypes = [...mediaTypes.map((t) => `${t}/`), ...mimeTypes];
  const offset = request.has('offset') ? Math.max(0, intval(request.get('offset'))) : (page - 1) * perPage;
  const byOrder: Record<string, AttachmentOrderBy> = { author: 'author', date: 'date', id: 'id', include: 'include', modified: 'modified', parent: 'parent', slug: 'slug', include_slugs: 'slug', title: 'title', relevance: 'title' };
  const query: AttachmentQuery = {
    statuses,
    search: request.has('search') ? String(request.get('search')) : undefined,
    include: include.length ? include : undefined,
    exclude: parseIdList(request.get('exclude') ?? []),
    parentIds: request.has('parent') && parseList(request.get('parent')).length ? parseIdList(request.get('parent')) : undefined,
    excludeParentIds: parseIdList(request.get('parent_exclude') ?? []),
    authorIds: request.has('author') && parseList(request.get('author')).length ? parseIdList(request.get('author')) : undefined,
    excludeAuthorIds: parseIdList(request.get('author_exclude') ?? []),
    slugs: request.has('slug') ? parseList(request.get('slug')).map(String) : undefined,
    after: siteDate(request, request.get('after')),
    before: siteDate(request, request.get('before')),
    modifiedAfter: siteDate(request, request.get('modified_after')),
    modifiedBefore: siteDate(request, request.get('modified_before')),
    mimeTypes: wantedTypes.length ? wantedTypes : undefined,
    orderBy: byOrder[orderby] ?? 'date',
    order: request.get('order') === 'asc' ? 'asc' : 'desc',
    offset,
    limit: perPage,
  };
  const { items, total } = await request.site.store.attachments.list(query);
  const maxPages = total > 0 ? Math.ceil(total / perPage) : 0;
  if (page > maxPages && total > 0) throw coreErrors.invalidPageNumber();
  const context = contextOf(request);
  const readable: AttachmentRecord[] = [];
  for (const record of items) if (await canRead(request, record)) readable.push(record);
  const data = await Promise.all(readable.map((record) => serializeAttachment(request, record, context)));
  return new ApiResponse(data, 200, paginationHeaders(request, `${MEDIA_NAMESPACE}/media`, page, perPage, total));
}

async function read(request: ApiRequest) {
  return serializeAttachment(request, await mustFind(request), contextOf(request));
}

/** WordPress get_filename_from_disposition: `attachment; filename="photo.jpg"` → `photo.jpg`. */
export function filenameFromDisposition(values: readonly string[]): string | null {
  let filename: string | null = null;
  for (const raw of values) {
    const value = raw.trim();
    const semicolon = value.indexOf(';');
    if (semicolon === -1) continue;
    const attributes = new Map<string, string>();
    for (const part of value.slice(semicolon + 1).split(';')) {
      const eq = part.indexOf('=');
      if (eq === -1) continue;
      attributes.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    const name = attributes.get('filename');
    if (!name) continue;
    filename = name.trim();
    if (filename.length >= 2 && filename.startsWith('"') && filename.endsWith('"')) filename = filename.slice(1, -1);
  }
  return filename;
}

function headerList(request: ApiRequest, name: string): string[] {
  const value = request.headers[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function bodyData(body: RequestBody | undefined): UploadInput['data'] | null {
  if (!body) return null;
  if (body.kind === 'stream') return body.stream;
  if (body.kind === 'raw') return body.bytes.length ? body.bytes : null;
  if (body.kind === 'parsed' && Buffer.isBuffer(body.value)) return body.value.length ? body.value : null;
  return null;
}

/** What the request says about the new attachment besides its file (title, caption, description, alt text, parent). */
function attachmentFields(request: ApiRequest): Omit<UploadInput, 'data' | 'filename'> {
  const fields: Omit<UploadInput, 'data' | 'filename'> = { authorId: request.has('author') ? intval(request.get('author')) : (request.principal?.id ?? 0) };
  const title = rawText(request.get('title'));
  if (title) fields.title = title;
  const caption = rawText(request.get('caption'));
  if (caption !== undefined) fields.caption = caption;
  const description = rawText(request.get('description'));
  if (description !== undefined) fields.description = description;
  if (request.has('alt_text')) fields.altText = sanitizeTextField(String(request.get('alt_text')));
  if (request.has('post')) fields.parentId = intval(request.get('post'));
  return fields;
}

function uploadError(error: unknown, multipart: boolean): never {
  if (error instanceof MediaError) {
    if (error.reason === 'no_data') throw mediaErrors.noData();
    if (error.reason === 'too_large') throw mediaErrors.tooBig(error.limit ?? 0);
    if (error.reason === 'hash_mismatch') throw mediaErrors.hashMismatch();
    throw mediaErrors.notAllowedType(multipart);
  }
  throw error;
}

async function checkParent(request: ApiRequest): Promise<void> {
  if (!request.has('post') || !intval(request.get('post'))) return;
  const type = await request.site.store.posts.typeOf(intval(request.get('post')));
  if (type === ATTACHMENT_TYPE || type === 'revision') throw mediaErrors.invalidParent();
}

async function checkAuthor(request: ApiRequest): Promise<void> {
  if (!request.has('author')) return;
  const author = intval(request.get('author'));
  if (author !== (request.principal?.id ?? 0) && !(await request.site.store.users.get(author))) throw mediaErrors.invalidAuthor();
}

async function create(request: ApiRequest) {
  await checkParent(request);
  await checkAuthor(request);
  const fields = attachmentFields(request);
  const md5 = headerValue(request.headers, 'content-md5')?.trim();
  const file = request.files.find((f) => f.field === 'file');
  let record: AttachmentRecord;
  if (request.files.length) {
    if (!file || !file.data.length) throw mediaErrors.noData();
    const title = fields.title ?? sanitizeTextField(file.filename.includes('.') ? file.filename.slice(0, file.filename.lastIndexOf('.')) : file.filename);
    try {
      record = await request.site.media.upload({ ...fields, title: title || undefined, data: file.data, filename: file.filename, md5 });
    } catch (error) {
      uploadError(error, true);
    }
  } else {
    const data = bodyData(request.body);
    if (!data) throw mediaErrors.noData();
    if (!headerValue(request.headers, 'content-type')) throw mediaErrors.noContentType();
    const disposition = headerList(request, 'content-disposition');
    if (!disposition.length) throw mediaErrors.noDisposition();
    const filename = filenameFromDisposition(disposition);
    if (!filename) throw mediaErrors.invalidDisposition();
    try {
      record = await request.site.media.upload({ ...fields, data, filename, md5 });
    } catch (error) {
      uploadError(error, false);
    }
  }
  const data = await serializeAttachment(request, record!, 'edit');
  return respond(data, 201, {
    Location: request.restUrl(`${MEDIA_NAMESPACE}/media/${record!.id}`),
    'X-WP-Upload-Attachment-ID': record!.id,
  });
}

async function update(request: ApiRequest) {
  const current = await mustFind(request);
  await checkParent(request);
  await checkAuthor(request);
  const site = request.site;
  const patch: Partial<AttachmentRecord> = {};
  const title = rawText(request.get('title'));
  if (title !== undefined) patch.title = title;
  const caption = rawText(request.get('caption'));
  if (caption !== undefined) patch.excerpt = caption;
  const description = rawText(request.get('description'));
  if (description !== undefined) patch.content = description;
  if (request.has('alt_text')) patch.altText = String(request.get('alt_text'));
  if (request.has('author')) patch.authorId = intval(request.get('author'));
  if (request.has('post')) patch.parentId = intval(request.get('post'));
  if (request.has('status')) patch.status = request.get('status') === 'private' ? 'private' : 'inherit';
  if (request.has('slug')) patch.slug = await postSlug(site.store, ATTACHMENT_TYPE, String(request.get('slug')), patch.title ?? current.title, 'inherit', current.id);
  const zone = siteZone(site.settings);
  const date = siteDate(request, request.get('date'));
  if (date) {
    patch.date = date;
    patch.dateGmt = DateTime.fromFormat(date, WP_FORMAT, { zone }).toUTC().toFormat(WP_FORMAT);
  } else if (typeof request.get('date_gmt') === 'string') {
    const gmt = DateTime.fromISO(String(request.get('date_gmt')), { zone: 'UTC' });
    if (gmt.isValid) {
      patch.dateGmt = gmt.toUTC().toFormat(WP_FORMAT);
      patch.date = gmt.setZone(zone).toFormat(WP_FORMAT);
    }
  }
  const now = site.now();
  patch.modified = formatWpDate(now, zone);
  patch.modifiedGmt = formatWpDate(now, 'UTC');
  const record = await site.store.attachments.update(current.id, patch);
  request.forget(`attachment:${current.id}`);
  return serializeAttachment(request, record, 'edit');
}

async function remove(request: ApiRequest) {
  const record = await mustFind(request);
  if (!toBoolean(request.get('force') ?? false)) throw mediaErrors.trashNotSupported();
  const previous = await serializeAttachment(request, record, 'edit');
  if (!(await request.site.media.delete(record))) throw mediaErrors.cannotDeleteFailed();
  return { deleted: true, previous };
}

/** get_items_permissions_check: `context=edit` needs edit_posts. */
const canList = (request: ApiRequest) => {
  if (request.get('context') === 'edit' && !request.can(ATTACHMENT_CAPS.edit_posts)) throw coreErrors.forbiddenContext(request.authorizationStatus);
  return true;
};

const canReadItem = async (request: ApiRequest) => {
  const record = await findAttachment(request);
  if (!record) return mediaErrors.invalidId();
  if (request.get('context') === 'edit' && !(await canEdit(request, record))) return mediaErrors.forbiddenContext(request.authorizationStatus);
  return canRead(request, record);
};

const canCreate = async (request: ApiRequest) => {
  if (request.has('id')) return mediaErrors.postExists();
  if (request.has('author') && intval(request.get('author')) !== (request.principal?.id ?? 0) && !request.can(ATTACHMENT_CAPS.edit_others_posts)) {
    return mediaErrors.cannotEditOthers(request.authorizationStatus, true);
  }
  if (!request.can(ATTACHMENT_CAPS.create_posts)) return mediaErrors.cannotCreate(request.authorizationStatus);
  if (!request.can('upload_files')) return mediaErrors.cannotUpload();
  const parent = request.has('post') ? intval(request.get('post')) : 0;
  if (parent) {
    const type = await request.site.store.posts.typeOf(parent);
    const kind = type ? request.site.media.contentType(type) : undefined;
    const post = kind && type ? await parentPost(request, parent, type) : null;
    if (!post || !kind || !canOnObject(request.principal, 'edit_post', kind.caps, post as OwnedObject)) {
      return mediaErrors.cannotEditParent(request.authorizationStatus);
    }
  }
  return true;
};

const canUpdate = async (request: ApiRequest) => {
  const record = await findAttachment(request);
  if (!record) return mediaErrors.invalidId();
  if (!(await canEdit(request, record))) return mediaErrors.cannotEdit(request.authorizationStatus);
  if (request.has('author') && intval(request.get('author')) !== (request.principal?.id ?? 0) && !request.can(ATTACHMENT_CAPS.edit_others_posts)) {
    return mediaErrors.cannotEditOthers(request.authorizationStatus, false);
  }
  return true;
};

const canRemove = async (request: ApiRequest) => {
  const record = await findAttachment(request);
  if (!record) return mediaErrors.invalidId();
  return (await canDelete(request, record)) ? true : mediaErrors.cannotDelete(request.authorizationStatus);
};

/** `status` of the collection: statuses other than `inherit` need edit_posts (WordPress sanitize_post_statuses). */
function sanitizeStatuses(value: unknown, { request, param }: { request: ApiRequest; param: string }): unknown {
  const statuses = parseList(value).map((s) => String(s).toLowerCase().replace(/[^a-z0-9_-]/g, ''));
  if (statuses.length > 3) return ApiError.detail('rest_too_many_items', `${param} must contain at most 3 items.`, { param });
  for (const status of statuses) {
    if (status === 'inherit') continue;
    if (request.can(ATTACHMENT_CAPS.edit_posts) || (status === 'private' && request.can(ATTACHMENT_CAPS.read_private_posts))) {
      if (!['inherit', 'private', 'trash'].includes(status)) {
        return ApiError.detail('rest_not_in_enum', `${param}[0] is not one of inherit, private, and trash.`, { param: `${param}[0]` });
      }
    } else {
      return new ApiError('rest_forbidden_status', 'Status is forbidden.', request.authorizationStatus);
    }
  }
  return statuses;
}

/** `wp/v2/media` and `wp/v2/media/{id}`. */
export function mediaRoutes(): RouteDefinition[] {
  const item = itemArgs();
  return [
    defineRoute('/media', [
      { methods: READABLE, args: { ...listArgs, status: { ...listArgs.status!, sanitize: sanitizeStatuses } }, permission: canList, handler: list },
      { methods: CREATABLE, args: item, permission: canCreate, handler: create, streamsBody: true },
    ]),
    defineRoute('/media/(?P<id>[\\d]+)', [
      { methods: READABLE, args: { id: idArg, context: contextArg() }, permission: canReadItem, handler: read },
      { methods: EDITABLE, args: { id: idArg, ...item }, permission: canUpdate, handler: update },
      {
        methods: DELETABLE,
        args: { id: idArg, force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
        permission: canRemove,
        handler: remove,
      },
    ]),
  ];
}

