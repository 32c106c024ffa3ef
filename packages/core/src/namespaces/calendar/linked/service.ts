import type { ApiRequest } from '../../../http/api-request.js';
import { siteZone } from '../../../settings.js';
import type { OrganizerRecord, PostRecord, VenueRecord } from '../../../store/records.js';
import type { LinkedPostQuery } from '../../../store/queries.js';
import type { SiteStore } from '../../../store/repositories.js';
import { urlWithAllowedProtocol } from '../../../text/kses-protocols.js';
import { ksesPost, ksesShort } from '../../../text/sanitize.js';
import { canRead } from '../posts/access.js';
import { datesForNewPost, datesForUpdate, scheduleStatus } from '../posts/dates.js';
import { isTruthy, optionalString, requestedAuthor, requestedDates } from '../posts/inputs.js';
import { postSlug, trashedSlug, untrashedSlug } from '../posts/slugs.js';
import { scaleBackStatus } from '../posts/status.js';
import type { AnyLinkedKind } from './kinds.js';

type LinkedRecord = VenueRecord | OrganizerRecord;

/** Post content keeps only safe HTML unless the author may post unfiltered HTML (WordPress kses). */
export function filteredContent(request: ApiRequest, html: string): string {
  return request.can('unfiltered_html') ? html : ksesPost(html);
}

/**
 * A name or a meta field (address, city, e-mail, …) keeps only WordPress's inline tags unless the author may post
 * unfiltered HTML (`wp_filter_kses`, as WordPress filters a title): these texts are shown in pages too.
 */
function filteredText(request: ApiRequest, text: string): string {
  return request.can('unfiltered_html') ? text : ksesShort(text);
}

/** The meta fields a request sets, by record field name (only those sent). */
function requestedFields(request: ApiRequest, kind: AnyLinkedKind): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const field of kind.fields) {
    const value = optionalString(request, field.wire);
    if (value !== undefined) fields[field.record] = field.url ? urlWithAllowedProtocol(value) : filteredText(request, value);
  }
  if (kind.hasMapFlags) {
    if (request.provided('show_map')) fields.showMap = isTruthy(request.get('show_map'));
    if (request.provided('show_map_link')) fields.showMapLink = isTruthy(request.get('show_map_link'));
  }
  return fields;
}

/**
 * TEC's venue save (`Tribe__Events__Venue::save_meta`) writes the state-or-province on every create and
 * update, from what the request sent: the `stateprovince` given, else the state when the country sent is empty,
 * "US" or "United States", else the province, else "" — so a partial update that names none of them empties
 * it (and the falsy-field rule then leaves the key out).
 */
function withStateProvince(kind: AnyLinkedKind, fields: Record<string, unknown>): Record<string, unknown> {
  if (kind.name !== 'venue') return fields;
  const sent = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  if (sent('stateProvince') !== '') return fields;
  const country = sent('country');
  const stateCounts = sent('state') !== '' && (country === '' || country === 'US' || country === 'United States');
  return { ...fields, stateProvince: stateCounts ? sent('state') : sent('province') };
}

function same(a: unknown, b: unknown): boolean {
  return String(a ?? '').trim().toLowerCase() === String(b ?? '').trim().toLowerCase();
}

/**
 * Duplicate avoidance (TEC's Tribe__Duplicate__Post): an existing record whose name matches
 * case-insensitively and whose every given field matches is reused instead of creating another. Only records
 * the caller may read are candidates: reusing another's draft or private record would hand it to them.
 */
async function findDuplicate(
  request: ApiRequest,
  store: SiteStore,
  kind: AnyLinkedKind,
  title: string,
  content: string | undefined,
  fields: Record<string, unknown>,
): Promise<LinkedRecord | null> {
  const candidates = (await kind.repository(store).findByTitle(title)) as LinkedRecord[];
  const match = candidates
    .filter((candidate) => canRead(request, kind, candidate))
    .filter((candidate) => content === undefined || content === '' || same(candidate.content, content))
    .filter((candidate) =>
      Object.entries(fields).every(([key, value]) => value === undefined || value === '' || typeof value === 'boolean' || same((candidate as unknown as Record<string, unknown>)[key], value)),
    )
    .sort((a, b) => a.id - b.id)[0];
  return match ?? null;
}

/**
 * Creates a venue or organizer from a request whose args were validated by the kind's create args. Duplicate
 * avoidance, slug and insert are one transaction, so concurrent identical requests make one record.
 */
export function createLinked(
  request: ApiRequest,
  store: SiteStore,
  kind: AnyLinkedKind,
  imageId = 0,
): Promise<{ record: LinkedRecord; created: boolean }> {
  return store.transaction((tx) => insertLinked(request, tx, kind, imageId));
}

async function insertLinked(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, imageId: number): Promise<{ record: LinkedRecord; created: boolean }> {
  const site = request.site;
  const title = filteredText(request, String(request.get(kind.name) ?? '').trim());
  const content = optionalString(request, 'description');
  const fields = withStateProvince(kind, requestedFields(request, kind));
  const duplicate = await findDuplicate(request, store, kind, title, content, fields);
  if (duplicate) return { record: duplicate, created: false };
  const status = scaleBackStatus(request, optionalString(request, 'status'));
  const dates = datesForNewPost(requestedDates(request), status, site.now(), siteZone(site.settings));
  const post: Omit<PostRecord, 'id'> = {
    type: kind.type,
    status: scheduleStatus(status, dates.dateGmt, site.now()),
    authorId: requestedAuthor(request),
    title,
    content: filteredContent(request, content ?? ''),
    excerpt: '',
    slug: await postSlug(store, kind.type, undefined, title, status),
    password: '',
    parentId: 0,
    menuOrder: 0,
    ...dates,
    trashedFrom: null,
    imageId,
  };
  const record = (await kind.repository(store).create({ ...post, ...kind.blank(), ...fields } as never)) as LinkedRecord;
  return { record, created: true };
}

/** Updates only what the request names; the publication date stays unless given. One transaction (a slug may be chosen). */
export function updateLinked(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, current: LinkedRecord, imageId?: number): Promise<LinkedRecord> {
  return store.transaction((tx) => changeLinked(request, tx, kind, current, imageId));
}

async function changeLinked(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, current: LinkedRecord, imageId?: number): Promise<LinkedRecord> {
  const site = request.site;
  const patch: Record<string, unknown> = withStateProvince(kind, requestedFields(request, kind));
  if (imageId !== undefined) patch.imageId = imageId;
  const title = optionalString(request, kind.name);
  if (title !== undefined && title.trim()) patch.title = filteredText(request, title.trim());
  const content = optionalString(request, 'description');
  if (content !== undefined) patch.content = filteredContent(request, content);
  const requestedStatus = optionalString(request, 'status');
  const status = requestedStatus !== undefined ? scaleBackStatus(request, requestedStatus) : current.status;
  const dates = datesForUpdate(current, requestedDates(request), status, site.now(), siteZone(site.settings));
  patch.status = scheduleStatus(status, dates.dateGmt, site.now());
  if (request.provided('author')) patch.authorId = requestedAuthor(request);
  const restored = await untrashedSlug(store, kind.type, current, patch.status as string);
  if (restored !== undefined) patch.slug = restored;
  else if (!current.slug && patch.status !== 'draft' && patch.status !== 'pending') {
    patch.slug = await postSlug(store, kind.type, undefined, (patch.title as string) ?? current.title, patch.status as string, current.id);
  }
  return (await kind.repository(store).update(current.id, { ...patch, ...dates } as never)) as LinkedRecord;
}

/** wp_trash_post: status trash, the old status remembered, the slug freed. */
export async function trashLinked(request: ApiRequest, store: SiteStore, kind: AnyLinkedKind, current: LinkedRecord): Promise<LinkedRecord> {
  const now = request.site.now();
  const dates = datesForUpdate(current, {}, 'trash', now, siteZone(request.site.settings));
  return (await kind.repository(store).update(current.id, {
    status: 'trash',
    trashedFrom: current.status,
    slug: trashedSlug(current.slug),
    modified: dates.modified,
    modifiedGmt: dates.modifiedGmt,
  } as never)) as LinkedRecord;
}

export interface LinkedListParams {
  statuses: LinkedPostQuery['statuses'];
  /** The caller's read rule on the records and on the events that link to them. */
  visibility?: LinkedPostQuery['visibility'];
  eventVisibility?: LinkedPostQuery['eventVisibility'];
  page: number;
  perPage: number;
  search?: string;
  eventId?: number;
  hasEvents?: boolean;
  onlyWithUpcoming: boolean;
  /** Event statuses that count as a link for this caller. */
  eventStatuses: readonly string[];
  nowUtc: string;
}

export function linkedQuery(params: LinkedListParams): LinkedPostQuery {
  return {
    statuses: params.statuses,
    visibility: params.visibility,
    search: params.search,
    eventId: params.eventId,
    hasEvents: params.hasEvents,
    eventStatuses: params.eventStatuses,
    eventVisibility: params.eventVisibility,
    upcomingAfter: params.onlyWithUpcoming ? params.nowUtc : undefined,
    offset: (params.page - 1) * params.perPage,
    limit: params.perPage,
  };
}
