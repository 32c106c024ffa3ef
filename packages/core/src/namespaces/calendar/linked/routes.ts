import { callerKey } from '../../../answer-cache.js';
import type { ArgSpec } from '../../../args/spec.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { respond, type ApiResponse } from '../../../http/api-response.js';
import { builtFrom, FRAGMENT_KINDS, fragmentKey, shareJoinedList, sourceCount, type Fragment } from '../../../fragment-cache.js';
import { intval } from '../../../http/php.js';
import { CREATABLE, defineRoute, DELETABLE, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import type { PostRouteDocs } from '../posts/types.js';
import type { OrganizerRecord, VenueRecord } from '../../../store/records.js';
import type { StatusFilter } from '../../../store/queries.js';
import { formatWpDate } from '../../../time.js';
import { CALENDAR_ANSWER_SCOPES, calendarVersion } from '../answer-scopes.js';
import { CALENDAR_NAMESPACE, EVENT_CAPS } from '../constants.js';
import { canDelete, canEdit, canRead, readVisibility, unlocked, writeAllowed } from '../posts/access.js';
import { isTruthy } from '../posts/inputs.js';
import { archiveEnding, withQuery } from '../posts/rest-url.js';
import { allowedStatuses, isPostStatus, statusListValidator } from '../posts/status.js';
import { isImageOrEmpty, isReadableIdOf, isStringOrEmpty, isTime, isUrlOrEmpty } from '../posts/validators.js';
import { EVENTS } from '../events/kind.js';
import { sanitizePerPage } from '../terms/routes.js';
import { isOrganizerId, isOrganizerSlug, isPositiveInt, isString, isUserId, isVenueId, isVenueSlug } from '../validators.js';
import { VENUES, type AnyLinkedKind } from './kinds.js';
import { imageObject, imagesOf, requestedImage } from '../posts/images.js';
import { serializeLinked } from './serialize.js';
import { andThen, type Maybe } from '../../../util/maybe.js';
import { createLinked, linkedQuery, trashLinked, updateLinked } from './service.js';

type LinkedRecord = VenueRecord | OrganizerRecord;

/** Statuses of the events that count as links for this caller (drafts only for those who may edit events). */
function countedEventStatuses(request: ApiRequest): string[] {
  return request.can(EVENT_CAPS.edit_posts) ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
}

/** The kind's create args, keyed and ordered as upstream registers them. */
function linkedCreateArgs(kind: AnyLinkedKind): Record<string, ArgSpec> {
  const label = kind.name;
  const optional = kind.name === 'organizer' ? { default: null } : {};
  const args: Record<string, ArgSpec> = {
    author: { type: 'integer', ...optional, description: `The ${label} author ID`, validate: isUserId },
    date: { type: 'string', ...optional, description: `The ${label} publication date`, validate: isTime },
    date_utc: { type: 'string', ...optional, description: `The ${label} publication date (UTC time zone)`, validate: isTime },
    [label]: { type: 'string', ...optional, description: `The ${label} name`, required: true, validate: isString },
    description: { type: 'string', default: null, description: `The ${label} description`, validate: isStringOrEmpty },
    status: { type: 'string', ...optional, description: `The ${label} post status`, validate: isPostStatus },
  };
  if (kind.hasMapFlags) {
    args.show_map = { type: 'string', default: null, description: 'Whether events linked to the venue should show a map or not' };
    args.show_map_link = { type: 'string', default: null, description: 'Whether events linked to the venue should show a map link or not' };
  }
  for (const field of kind.fields) {
    args[field.wire] = { type: 'string', default: null, description: field.description, validate: field.url ? isUrlOrEmpty : isStringOrEmpty };
  }
  args.image = { type: 'string', default: null, description: 'The organizer featured image ID or URL', validate: isImageOrEmpty };
  return args;
}

function unrequired(args: Record<string, ArgSpec>): Record<string, ArgSpec> {
  return Object.fromEntries(Object.entries(args).map(([name, spec]) => [name, { ...spec, required: false }]));
}

async function loadById(request: ApiRequest, kind: AnyLinkedKind, id: number): Promise<LinkedRecord | null> {
  return request.remember(`${kind.type}:${id}`, async () => (await kind.repository(request.site.store).get(id)) as LinkedRecord | null);
}

async function target(request: ApiRequest, kind: AnyLinkedKind): Promise<LinkedRecord | null> {
  if (request.has('id')) return loadById(request, kind, intval(request.get('id')));
  const id = await request.site.store.posts.idBySlug(kind.type, String(request.get('slug') ?? ''));
  return id === null ? null : loadById(request, kind, id);
}

async function mustTarget(request: ApiRequest, kind: AnyLinkedKind): Promise<LinkedRecord> {
  const record = await target(request, kind);
  // The id/slug validators proved it exists; a concurrent change lands here.
  if (!record || record.type !== kind.type) throw kind.errors.couldNotUpdate();
  return record;
}

async function single(request: ApiRequest, kind: AnyLinkedKind, record: LinkedRecord, withJsonLd: boolean): Promise<Record<string, unknown>> {
  return (await many(request, kind, [record], withJsonLd))[0]!;
}

/** Records with their featured images, loaded in one store call. */
async function many(request: ApiRequest, kind: AnyLinkedKind, records: LinkedRecord[], withJsonLd: boolean): Promise<Array<Record<string, unknown>>> {
  const images = await imagesOf(request.site.store, records);
  return records.map((record) =>
    serializeLinked(kind, record, {
      settings: request.site.settings,
      withJsonLd,
      redact: !unlocked(request, kind, record),
      image: imageObject(request.site.media, images, record.imageId),
    }),
  );
}

/**
 * A list page's records and their JSON, each reused from the fragment cache when it was built at `version` for a
 * caller who sees it the same (redacted or not: its password). At once when every fragment was kept. The records
 * were read no earlier than `readAt`.
 */
function manyListed(request: ApiRequest, kind: AnyLinkedKind, records: LinkedRecord[], version: number | undefined, readAt: number): Maybe<{ data: Array<Record<string, unknown>>; fragments: Fragment[] | null }> {
  const fragments = request.site.fragments;
  if (!fragments || version === undefined) return many(request, kind, records, false).then((data) => ({ data, fragments: null }));
  const settings = request.site.settings;
  // A venue's or organizer's JSON holds no URL under the API root: one key for every root (root 0).
  const code = kind.type === VENUES.type ? FRAGMENT_KINDS.venue : FRAGMENT_KINDS.organizer;
  const keys = records.map((record) => {
    const variant = unlocked(request, kind, record) ? 0 : 1;
    return fragmentKey(code, record.id, 0, variant) ?? `${kind.type} ${record.id} ${variant}`;
  });
  const found: Array<Fragment | undefined> = keys.map((key, index) => {
    const fragment = fragments.get(key, version, settings);
    return fragment && sourceCount(fragment) === 1 && builtFrom(fragment, 0, records[index]!) ? fragment : undefined;
  });
  const listed = () => ({ data: found.map((fragment) => fragment!.data), fragments: found as Fragment[] });
  const missing = records.filter((_, index) => !found[index]);
  if (!missing.length) return listed();
  return many(request, kind, missing, false).then((built) => {
    let next = 0;
    records.forEach((_, index) => {
      if (found[index]) return;
      const object = built[next++]!;
      const fragment = fragments.build(object, [records[index]!], readAt);
      fragments.set(keys[index]!, version, settings, fragment);
      found[index] = fragment;
    });
    return listed();
  });
}

/** `/venues` and `/organizers`, their id routes and their by-slug routes. */
export function linkedRoutes(kind: AnyLinkedKind, docs: PostRouteDocs = {}): RouteDefinition[] {
  const label = kind.name;
  const plural = kind.plural;
  const Plural = plural[0]!.toUpperCase() + plural.slice(1);
  const listArgs: Record<string, ArgSpec> = {
    page: { default: 1, description: 'The archive page to return', type: 'integer', validate: isPositiveInt },
    per_page: {
      default: '10',
      defaultFrom: (site) => String(site.settings.posts_per_page || 20),
      description: `The number of ${plural} to return on each page`,
      type: 'integer',
      validate: isPositiveInt,
      sanitize: sanitizePerPage,
    },
    search: { description: `${Plural} should contain the specified string in the title, description or custom fields`, type: 'string', validate: isString },
    event: { description: `${Plural} should be related to this event`, type: 'integer', validate: isReadableIdOf(EVENTS) },
    has_events: { description: `${Plural} should have events associated to them` },
    only_with_upcoming: { description: `${Plural} should have upcoming events associated to them`, default: false },
    status: { format: 'string', description: 'The organizer post status', validate: statusListValidator(kind) },
  };
  const createArgs = linkedCreateArgs(kind);
  const idArg: ArgSpec = {
    in: 'path',
    type: 'integer',
    description: `the ${label} post ID`,
    required: true,
    validate: kind.name === 'venue' ? isVenueId : isOrganizerId,
  };
  const slugArg: ArgSpec = {
    in: 'path',
    type: 'string',
    description: `the ${label} post name`,
    required: true,
    validate: kind.name === 'venue' ? isVenueSlug : isOrganizerSlug,
  };
  const base = `${CALENDAR_NAMESPACE}/${plural}/`;

  const list = (request: ApiRequest): Maybe<ApiResponse> => {
    const page = intval(request.get('page') ?? 1);
    const perPage = intval(request.get('per_page')) || 10;
    let statuses: StatusFilter;
    let statusForUrl: string | string[];
    if (request.has('status')) {
      statuses = allowedStatuses(request, kind, request.get('status')) ?? ['publish'];
      statusForUrl = [...statuses];
    } else {
      statuses = request.can(kind.caps.edit_posts) ? 'any' : ['publish'];
      statusForUrl = statuses === 'any' ? 'any' : 'publish';
    }
    const hasEvents = request.has('has_events') ? isTruthy(request.get('has_events')) : undefined;
    const eventStatuses = countedEventStatuses(request);
    const query = linkedQuery({
      statuses,
      visibility: readVisibility(request.principal, kind.caps, statuses),
      eventVisibility: readVisibility(request.principal, EVENT_CAPS, eventStatuses),
      page,
      perPage,
      search: request.has('search') ? String(request.get('search')) : undefined,
      eventId: request.has('event') ? intval(request.get('event')) : undefined,
      hasEvents,
      onlyWithUpcoming: isTruthy(request.get('only_with_upcoming')),
      eventStatuses,
      nowUtc: formatWpDate(request.site.now(), 'UTC'),
    });
    if (!request.site.keepsAnswers) return listAnswer(request, query, page, perPage, statusForUrl, undefined);
    const key = [
      plural,
      callerKey(request.principal),
      request.get('password') ?? '',
      request.get('context') ?? '',
      request.apiRoot,
      statusForUrl,
      request.get('has_events') ?? null,
      query,
    ];
    return request.site.cached(key, CALENDAR_ANSWER_SCOPES, async (version) => listAnswer(request, query, page, perPage, statusForUrl, version));
  };

  const listAnswer = (
    request: ApiRequest,
    query: ReturnType<typeof linkedQuery>,
    page: number,
    perPage: number,
    statusForUrl: string | string[],
    cachedAt: number | undefined,
  ): Maybe<ApiResponse> =>
    // The version must be read before the records (see fragment-cache.ts).
    andThen(cachedAt ?? calendarVersion(request), (version) => {
      // The records are read no earlier than this: what is built from them is as old.
      const readAt = request.site.now();
      return andThen(kind.repository(request.site.store).list(query), ({ items, total }) => {
        if (!items.length && page > 1) throw kind.errors.archivePageNotFound();
        const restUrl = withQuery(request.restUrl(base), [
          ['page', page],
          ['per_page', perPage],
          ['event', request.has('event') ? intval(request.get('event')) : null],
          ['has_events', request.has('has_events') ? String(request.get('has_events')) : null],
          ['status', statusForUrl],
        ]);
        const ending = archiveEnding(restUrl, page, perPage, total);
        return andThen(manyListed(request, kind, items as LinkedRecord[], version, readAt), (listed) => {
          const data = { [plural]: listed.data, ...ending.after };
          if (listed.fragments) shareJoinedList(data, plural, listed.fragments, ending.closing);
          return respond(data, 200, { 'X-TEC-Total': total, 'X-TEC-TotalPages': ending.totalPages });
        });
      });
    });

  const create = async (request: ApiRequest) => {
    const imageId = await requestedImage(request);
    const { record } = await createLinked(request, request.site.store, kind, imageId);
    return respond(await single(request, kind, record, false), 201);
  };

  const read = async (request: ApiRequest) => {
    const record = await mustTarget(request, kind);
    if (!canRead(request, kind, record)) throw kind.errors.notAccessible();
    // As for events: TEC's JSON-LD leaves out a post with a password.
    return single(request, kind, record, !record.password);
  };

  const update = async (request: ApiRequest) => {
    const current = await mustTarget(request, kind);
    const record = await updateLinked(request, request.site.store, kind, current, await requestedImage(request));
    return single(request, kind, record, false);
  };

  const remove = async (request: ApiRequest) => {
    const record = await mustTarget(request, kind);
    if (record.status === 'trash') throw kind.errors.inTrash();
    return single(request, kind, await trashLinked(request, request.site.store, kind, record), false);
  };

  const canCreate = (request: ApiRequest) => request.can(kind.caps.edit_posts) && writeAllowed(request, kind, 'create');
  const canUpdate = async (request: ApiRequest) => {
    const record = await target(request, kind);
    return (record ? canEdit(request, kind, record) : request.can(kind.caps.edit_posts)) && writeAllowed(request, kind, 'update');
  };
  const canTrash = async (request: ApiRequest) => {
    const record = await target(request, kind);
    return record ? canDelete(request, kind, record) : request.can(kind.caps.delete_posts);
  };

  return [
    defineRoute(`/${plural}`, [
      { methods: READABLE, args: listArgs, handler: list, doc: docs.list, answerScopes: CALENDAR_ANSWER_SCOPES },
      { methods: CREATABLE, args: createArgs, permission: canCreate, handler: create, doc: docs.create },
    ]),
    defineRoute(`/${plural}/(?P<id>\\d+)`, [
      { methods: READABLE, args: { id: idArg }, handler: read, doc: docs.read },
      { methods: DELETABLE, args: { id: idArg }, permission: canTrash, handler: remove, doc: docs.remove },
      { methods: EDITABLE, args: { id: idArg, ...unrequired(createArgs) }, permission: canUpdate, handler: update, doc: docs.update },
    ]),
    defineRoute(`/${plural}/by-slug/(?P<slug>[^/]+)`, [
      { methods: READABLE, args: { slug: slugArg }, handler: read, doc: docs.readBySlug },
      { methods: DELETABLE, args: { slug: slugArg }, permission: canTrash, handler: remove, doc: docs.removeBySlug },
      { methods: EDITABLE, args: { slug: slugArg, ...unrequired(createArgs) }, permission: canUpdate, handler: update, doc: docs.updateBySlug },
    ]),
  ];
}
