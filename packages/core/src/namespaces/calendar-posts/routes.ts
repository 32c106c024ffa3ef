import { DateTime } from 'luxon';
import type { ApiRequest } from '../../http/api-request.js';
import { intval } from '../../http/php.js';
import { defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../registry/types.js';
import { siteZone } from '../../settings.js';
import type { PostRecord } from '../../store/records.js';
import type { SiteStore } from '../../store/repositories.js';
import { ksesPost, ksesShort } from '../../text/sanitize.js';
import { ATTACHMENT_TYPE } from '../../media/library.js';
import { canEdit, canRead } from '../calendar/posts/access.js';
import { datesForUpdate, scheduleStatus, type DateInput } from '../calendar/posts/dates.js';
import { postSlug } from '../calendar/posts/slugs.js';
import { rawText } from '../media/args.js';
import { readArgs, updateArgs } from './args.js';
import { calendarPostErrors } from './errors.js';
import { CALENDAR_POST_KINDS, type CalendarPostKind } from './kinds.js';
import { serializeCalendarPost, type PostContext } from './serialize.js';

const WP_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** The requested post when it exists and is of the route's type (the posts controller's get_post). */
async function findPost(request: ApiRequest, kind: CalendarPostKind): Promise<PostRecord | null> {
  const id = intval(request.get('id'));
  if (id <= 0) return null;
  const post = await request.remember(`${kind.type}:${id}`, () => kind.get(request.site.store, id));
  return post && post.type === kind.type ? post : null;
}

function contextOf(request: ApiRequest): PostContext {
  const context = request.get('context');
  return context === 'edit' || context === 'embed' ? context : 'view';
}

/** get_item_permissions_check. */
function canReadItem(kind: CalendarPostKind) {
  return async (request: ApiRequest) => {
    const post = await findPost(request, kind);
    if (!post) return calendarPostErrors.invalidId();
    if (request.get('context') === 'edit' && !canEdit(request, kind, post)) return calendarPostErrors.forbiddenContext(request.authorizationStatus);
    // Only a password in the query string is checked here (get_query_params), so an update's body never counts.
    const query = request.sentQueryParams();
    const password = Object.hasOwn(query, 'password') ? query.password : undefined;
    if (typeof password === 'string' && password !== '' && password !== post.password) return calendarPostErrors.incorrectPassword();
    return canRead(request, kind, post);
  };
}

/** update_item_permissions_check. */
function canUpdateItem(kind: CalendarPostKind) {
  return async (request: ApiRequest) => {
    const post = await findPost(request, kind);
    if (!post) return calendarPostErrors.invalidId();
    return canEdit(request, kind, post) ? true : calendarPostErrors.cannotEdit(request.authorizationStatus);
  };
}

/** rest_get_date_with_gmt: a date without offset is the site's (or UTC's) wall clock, one with an offset an instant. */
function requestedDates(request: ApiRequest): DateInput {
  const zone = siteZone(request.site.settings);
  const out: DateInput = {};
  const parse = (name: 'date' | 'date_gmt', base: typeof zone | 'UTC') => {
    const value = request.get(name);
    if (typeof value !== 'string' || value === '') return undefined;
    const parsed = DateTime.fromISO(value, { zone: base });
    if (!parsed.isValid) throw calendarPostErrors.invalidDate();
    return parsed;
  };
  const local = parse('date', zone);
  if (local) {
    out.date = local.setZone(zone).toFormat(WP_FORMAT);
    out.dateGmt = local.toUTC().toFormat(WP_FORMAT);
  }
  const gmt = parse('date_gmt', 'UTC');
  if (gmt) {
    out.dateGmt = gmt.toUTC().toFormat(WP_FORMAT);
    out.date = gmt.setZone(zone).toFormat(WP_FORMAT);
  }
  return out;
}

/** handle_status_param: publishing (and private posts) take the type's publish capability. */
function requestedStatus(request: ApiRequest, kind: CalendarPostKind, current: PostRecord): string {
  if (!request.has('status')) return current.status;
  const status = String(request.get('status'));
  if ((status === 'publish' || status === 'future' || status === 'private') && !request.can(kind.caps.publish_posts)) {
    throw status === 'private' ? calendarPostErrors.cannotPublishPrivate(request.authorizationStatus) : calendarPostErrors.cannotPublish(request.authorizationStatus);
  }
  return status;
}

async function featuredMedia(request: ApiRequest, store: SiteStore): Promise<number | undefined> {
  if (!request.has('featured_media')) return undefined;
  const id = intval(request.get('featured_media'));
  if (id === 0) return 0;
  const attachment = id > 0 ? await store.attachments.get(id) : null;
  if (!attachment || attachment.type !== ATTACHMENT_TYPE || !attachment.mimeType.startsWith('image/')) throw calendarPostErrors.invalidFeaturedMedia();
  return id;
}

/** The post fields the request names (read and written in the update's transaction); kses applies to callers without unfiltered_html, as wp_insert_post's filters. */
async function changes(request: ApiRequest, store: SiteStore, kind: CalendarPostKind, current: PostRecord): Promise<Partial<PostRecord>> {
  const filtered = !request.can('unfiltered_html');
  const patch: Partial<PostRecord> = {};
  const title = rawText(request.get('title'));
  if (title !== undefined) patch.title = filtered ? ksesShort(title) : title;
  const content = rawText(request.get('content'));
  if (content !== undefined) patch.content = filtered ? ksesPost(content) : content;
  const excerpt = rawText(request.get('excerpt'));
  if (excerpt !== undefined) patch.excerpt = filtered ? ksesPost(excerpt) : excerpt;
  if (request.has('password')) patch.password = String(request.get('password'));
  const imageId = await featuredMedia(request, store);
  if (imageId !== undefined) patch.imageId = imageId;
  const now = request.site.now();
  const status = requestedStatus(request, kind, current);
  const dates = datesForUpdate(current, requestedDates(request), status, now, siteZone(request.site.settings));
  Object.assign(patch, dates);
  patch.status = scheduleStatus(status, dates.dateGmt, now);
  if (request.has('slug') || (!current.slug && patch.status !== 'draft' && patch.status !== 'pending')) {
    const slug = request.has('slug') ? String(request.get('slug')) : undefined;
    patch.slug = await postSlug(store, kind.type, slug, patch.title ?? current.title, patch.status, current.id);
  }
  return patch;
}

function read(kind: CalendarPostKind) {
  return async (request: ApiRequest) => serializeCalendarPost(request, kind, (await findPost(request, kind))!, contextOf(request));
}

function update(kind: CalendarPostKind) {
  return async (request: ApiRequest) => {
    const updated = await request.site.store.transaction(async (store) => {
      const current = await kind.get(store, intval(request.get('id')));
      if (!current || current.type !== kind.type) throw calendarPostErrors.invalidId();
      return kind.update(store, current.id, await changes(request, store, kind, current));
    });
    request.forget(`${kind.type}:${updated.id}`);
    // WordPress answers an update in the edit context.
    request.set('context', 'edit');
    return serializeCalendarPost(request, kind, updated, 'edit');
  };
}

/**
 * `wp/v2/cal_venue/{id}`, `wp/v2/cal_organizer/{id}` and `wp/v2/cal_events/{id}`: WordPress's own post routes of
 * the calendar's types, as far as TEC clients use them — reading a post and setting its password, status,
 * title, content, excerpt, featured image, slug and publication date.
 */
export function calendarPostRoutes(): RouteDefinition[] {
  return CALENDAR_POST_KINDS.map((kind) =>
    defineRoute(`/${kind.type}/(?P<id>[\\d]+)`, [
      { methods: READABLE, args: readArgs, permission: canReadItem(kind), handler: read(kind) },
      { methods: EDITABLE, args: updateArgs, permission: canUpdateItem(kind), handler: update(kind) },
    ]),
  );
}
