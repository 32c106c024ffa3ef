import type { ApiRequest } from '../../http/api-request.js';
import { allowedMethods } from '../../http/allow.js';
import { intval } from '../../http/php.js';
import type { EventRecord, OrganizerRecord, PostRecord, VenueRecord } from '../../store/records.js';
import { stripAllTags, trimWords } from '../calendar/format/excerpt.js';
import { contentOf, excerptOf, titleOf } from '../calendar/format/memoized.js';
import { canEdit } from '../calendar/posts/access.js';
import { permalink } from '../calendar/posts/permalinks.js';
import { MEDIA_NAMESPACE } from '../media/constants.js';
import type { CalendarPostKind } from './kinds.js';

export type PostContext = 'view' | 'edit' | 'embed';

/** sanitize_html_class: percent-encoded octets and anything but letters, digits, `_` and `-` removed. */
const htmlClass = (text: string) => text.replace(/%[a-fA-F0-9][a-fA-F0-9]/g, '').replace(/[^A-Za-z0-9_-]/g, '');

/** WordPress mysql_to_rfc3339 (a zero date reads null). */
const rfc3339 = (date: string) => (date.startsWith('0000') ? null : date.replace(' ', 'T'));

/** PHP's wpautop ends its output with a line break (the calendar's renderers trim it, as TEC does). */
const withNewline = (html: string) => (html ? `${html}\n` : '');

/**
 * Whether the caller sees a password-protected post's content (the posts controller's
 * can_access_password_content): the right `password`, or `context=edit` with the right to edit the post.
 * Without a password there is nothing to unlock.
 */
function passwordAccess(request: ApiRequest, kind: CalendarPostKind, post: PostRecord): boolean {
  if (!post.password) return true;
  const given = request.get('password');
  if (typeof given === 'string' && given !== '' && given !== post.password) return false;
  if (request.get('context') === 'edit' && canEdit(request, kind, post)) return true;
  return given === post.password;
}

/**
 * get_the_excerpt: the stored excerpt, else the first words of the rendered content: 55, or the request's
 * `excerpt_length` (the posts controller filters `excerpt_length` with it; a stored excerpt is never cut).
 */
function renderedExcerpt(post: PostRecord, length: number): string {
  if (post.excerpt) return withNewline(excerptOf(post.excerpt));
  const words = trimWords(stripAllTags(contentOf(post.content)), length, ' [&hellip;]');
  return withNewline(excerptOf(words));
}

/**
 * The meta TEC registers for REST on every post type (capture 072), read from the record: event fields on
 * events, venue and organizer fields on those, the registered defaults elsewhere.
 */
function tecMeta(post: PostRecord): Record<string, unknown> {
  const event = post as Partial<EventRecord>;
  const venue = post.type.endsWith('venue') ? (post as VenueRecord) : null;
  const organizer = post.type.endsWith('organizer') ? (post as OrganizerRecord) : null;
  return {
    _EventAllDay: event.allDay ?? false,
    _EventTimezone: event.timezone ?? '',
    _EventStartDate: event.startDate ?? '',
    _EventEndDate: event.endDate ?? '',
    _EventStartDateUTC: event.startDateUtc ?? '',
    _EventEndDateUTC: event.endDateUtc ?? '',
    _EventShowMap: venue ? false : (event.showMap ?? false),
    _EventShowMapLink: venue ? false : (event.showMapLink ?? false),
    _EventURL: (venue || organizer ? '' : event.website) ?? '',
    _EventCost: event.cost?.[0] ?? '',
    _EventCostDescription: '',
    _EventCurrencySymbol: event.currencySymbol ?? '',
    _EventCurrencyCode: event.currencyCode ?? '',
    _EventCurrencyPosition: event.currencyPosition ?? '',
    _EventDateTimeSeparator: '',
    _EventTimeRangeSeparator: '',
    _EventOrganizerID: event.organizerIds ?? [],
    _EventVenueID: event.venueIds ?? [],
    _OrganizerEmail: organizer?.email ?? '',
    _OrganizerPhone: organizer?.phone ?? '',
    _OrganizerWebsite: organizer?.website ?? '',
    _VenueAddress: venue?.address ?? '',
    _VenueCity: venue?.city ?? '',
    _VenueCountry: venue?.country ?? '',
    _VenueProvince: venue?.province ?? '',
    _VenueState: venue?.state ?? '',
    _VenueZip: venue?.zip ?? '',
    _VenuePhone: venue?.phone ?? '',
    _VenueURL: venue?.website ?? '',
    _VenueStateProvince: venue?.stateProvince ?? '',
    _VenueLat: venue?.geoLat === null || venue?.geoLat === undefined ? '' : String(venue.geoLat),
    _VenueLng: venue?.geoLng === null || venue?.geoLng === undefined ? '' : String(venue.geoLng),
    _VenueShowMap: venue?.showMap ?? false,
    _VenueShowMapLink: venue?.showMapLink ?? false,
    _tribe_events_status: '',
    _tribe_events_status_reason: '',
    footnotes: '',
  };
}

/** get_post_class: id, type, status, password, thumbnail, hentry, then one class per term (TEC adds `cat_<slug>`). */
async function classList(request: ApiRequest, kind: CalendarPostKind, post: PostRecord, locked: boolean): Promise<string[]> {
  const classes = [`post-${post.id}`, post.type, `type-${post.type}`, `status-${post.status}`];
  if (post.password) classes.push(locked ? 'post-password-required' : 'post-password-protected');
  if (post.imageId) classes.push('has-post-thumbnail');
  classes.push('hentry');
  const categories: string[] = [];
  for (const taxonomy of kind.taxonomies) {
    const ids = (post as unknown as Record<string, number[]>)[taxonomy.field] ?? [];
    for (const term of await request.site.store.terms.getMany(ids)) {
      const slug = htmlClass(term.slug) || String(term.id);
      classes.push(taxonomy.restBase === 'tags' ? `tag-${slug}` : `${taxonomy.taxonomy}-${slug}`);
      if (taxonomy.restBase !== 'tags') categories.push(`cat_${slug}`);
    }
  }
  return [...classes, ...categories];
}

/** `_links` as WordPress's posts controller makes them (prepare_links), compacted with curies. */
async function links(request: ApiRequest, kind: CalendarPostKind, post: PostRecord): Promise<Record<string, unknown>> {
  const root = `${request.apiRoot}${MEDIA_NAMESPACE}`;
  const route = request.site.registry.findRoute(`/${MEDIA_NAMESPACE}/${kind.type}/${post.id}`);
  const allow = route ? await allowedMethods(route.route, request) : [];
  const out: Record<string, unknown> = {
    self: [{ href: `${root}/${kind.type}/${post.id}`, targetHints: { allow } }],
    collection: [{ href: `${root}/${kind.type}` }],
    about: [{ href: `${root}/types/${kind.type}` }],
  };
  if (post.authorId) out.author = [{ embeddable: true, href: `${root}/users/${post.authorId}` }];
  out['version-history'] = [{ count: 0, href: `${root}/${kind.type}/${post.id}/revisions` }];
  if (post.imageId) out['wp:featuredmedia'] = [{ embeddable: true, href: `${root}/media/${post.imageId}` }];
  out['wp:attachment'] = [{ href: `${root}/media?parent=${post.id}` }];
  if (kind.taxonomies.length) {
    out['wp:term'] = kind.taxonomies.map((taxonomy) => ({ taxonomy: taxonomy.taxonomy, embeddable: true, href: `${root}/${taxonomy.restBase}?post=${post.id}` }));
  }
  out.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return out;
}

/** A calendar post as WordPress's posts controller answers it (`wp/v2/<type>/<id>`), fields and key order per context. */
export async function serializeCalendarPost(request: ApiRequest, kind: CalendarPostKind, post: PostRecord, context: PostContext): Promise<Record<string, unknown>> {
  const settings = request.site.settings;
  const edit = context === 'edit';
  const embed = context === 'embed';
  const locked = !passwordAccess(request, kind, post);
  const link = permalink(post, kind, settings);
  const data: Record<string, unknown> = { id: post.id, date: rfc3339(post.date) };
  if (!embed) {
    data.date_gmt = rfc3339(post.dateGmt);
    data.guid = edit ? { rendered: link, raw: link } : { rendered: link };
    data.modified = rfc3339(post.modified);
    data.modified_gmt = rfc3339(post.modifiedGmt);
  }
  if (edit) data.password = post.password;
  data.slug = post.slug;
  if (!embed) data.status = post.status;
  data.type = post.type;
  data.link = link;
  const title = titleOf(post.title);
  data.title = edit ? { raw: post.title, rendered: title } : { rendered: title };
  const protectedContent = post.password !== '';
  if (!embed) {
    const rendered = locked ? '' : withNewline(contentOf(post.content));
    data.content = edit ? { raw: post.content, rendered, protected: protectedContent, block_version: 0 } : { rendered, protected: protectedContent };
  }
  // Read wherever it was sent, as `$request['excerpt_length']`: an update's answer is cut by it too (its value
  // then unchecked, and cast as PHP's `(int)` cast of the filter's result does).
  const length = request.get('excerpt_length');
  const excerpt = locked ? '' : renderedExcerpt(post, length === undefined ? 55 : intval(length));
  data.excerpt = edit ? { raw: post.excerpt, rendered: excerpt, protected: protectedContent } : { rendered: excerpt, protected: protectedContent };
  data.author = post.authorId;
  data.featured_media = post.imageId;
  if (!embed) {
    data.template = '';
    data.meta = tecMeta(post);
    for (const taxonomy of kind.taxonomies) data[taxonomy.restBase] = [...((post as unknown as Record<string, number[]>)[taxonomy.field] ?? [])];
    if (edit) {
      data.permalink_template = `${settings.home}/${kind.permalinkBase(settings)}/%pagename%/`;
      data.generated_slug = post.slug;
    }
    data.class_list = await classList(request, kind, post, locked);
  }
  data._links = await links(request, kind, post);
  return data;
}
