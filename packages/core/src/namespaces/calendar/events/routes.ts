import type { ApiRequest } from '../../../http/api-request.js';
import { respond } from '../../../http/api-response.js';
import { intval } from '../../../http/php.js';
import { CREATABLE, defineRoute, DELETABLE, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import type { PostRouteDocs } from '../posts/types.js';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../../../store/records.js';
import { calendarErrors } from '../errors.js';
import { ORGANIZERS, VENUES } from '../linked/kinds.js';
import { canDelete, canEdit, canRead, unlocked, writeAllowed } from '../posts/access.js';
import { archivePaging } from '../posts/rest-url.js';
import { createArgs, idArg, listArgs, passwordArg, slugArg, unrequired, updateBySlugArgs, EVENT_TYPE } from './args.js';
import { EVENTS } from './kind.js';
import { planEventList } from './list.js';
import { loadRelations, serializeEvent } from './serialize.js';
import { createEvent, trashEvent, updateEvent } from './service.js';

/** The id the request names: the `id` in the path, or the event whose slug is given. */
async function targetId(request: ApiRequest): Promise<number | null> {
  if (request.has('id')) return intval(request.get('id'));
  return request.site.store.posts.idBySlug(EVENT_TYPE, String(request.get('slug') ?? ''));
}

async function loadEvent(request: ApiRequest): Promise<EventRecord | null> {
  const id = await targetId(request);
  if (id === null) return null;
  return request.remember(`${EVENT_TYPE}:${id}`, () => request.site.store.events.get(id));
}

/** The event a single route acts on, or TEC 6.17's errors: 404 when there is none, 400 for another type. */
async function mustLoadEvent(request: ApiRequest): Promise<EventRecord> {
  const id = (await targetId(request)) ?? 0;
  const event = await loadEvent(request);
  if (event) return event;
  if (id && (await request.site.store.posts.typeOf(id)) !== null) throw calendarErrors.invalidEventId();
  throw calendarErrors.eventNotFound(id);
}

async function wire(request: ApiRequest, events: EventRecord[], withJsonLd: boolean): Promise<Array<Record<string, unknown>>> {
  const relations = await loadRelations(request.site.store, events);
  // A venue or organizer the caller may not read is left out, as if the event had none (TEC embeds it whole).
  for (const [id, venue] of relations.venues) if (!canRead(request, VENUES, venue)) relations.venues.delete(id);
  for (const [id, organizer] of relations.organizers) if (!canRead(request, ORGANIZERS, organizer)) relations.organizers.delete(id);
  const options = {
    settings: request.site.settings,
    apiRoot: request.apiRoot,
    media: request.site.media,
    withJsonLd,
    linkedUnlocked: (record: VenueRecord | OrganizerRecord) => unlocked(request, record.type === VENUES.type ? VENUES : ORGANIZERS, record),
  };
  return events.map((event) => serializeEvent(event, relations, { ...options, redact: !unlocked(request, EVENTS, event) }));
}

async function list(request: ApiRequest) {
  const plan = await planEventList(request);
  const key = ['events', request.principal?.id ?? 0, request.get('password') ?? '', request.get('context') ?? '', request.apiRoot, plan.restUrl, JSON.stringify(plan.query)];
  return request.site.cached(JSON.stringify(key), () => listAnswer(request, plan));
}

async function listAnswer(request: ApiRequest, plan: Awaited<ReturnType<typeof planEventList>>) {
  const { items, total } = await request.site.store.events.list(plan.query);
  if (!items.length && plan.page > 1) throw calendarErrors.eventArchivePageNotFound();
  const { links, totalPages } = archivePaging(plan.restUrl, plan.page, plan.perPage, total);
  const data = { events: await wire(request, items, false), rest_url: plan.restUrl, ...links, total, total_pages: totalPages };
  return respond(data, 200, { 'X-TEC-Total': total, 'X-TEC-TotalPages': totalPages });
}

async function read(request: ApiRequest) {
  const event = await mustLoadEvent(request);
  if (event.status === 'trash') throw calendarErrors.eventNoLongerAvailable();
  if (!canRead(request, EVENTS, event)) throw calendarErrors.eventNotAccessible();
  if (!unlocked(request, EVENTS, event)) throw calendarErrors.eventPasswordProtected();
  return (await wire(request, [event], true))[0];
}

async function create(request: ApiRequest) {
  const event = await createEvent(request);
  return respond((await wire(request, [event], false))[0], 201);
}

async function update(request: ApiRequest) {
  const event = await updateEvent(request, await mustLoadEvent(request));
  request.forget(`${EVENT_TYPE}:${event.id}`);
  return (await wire(request, [event], false))[0];
}

async function remove(request: ApiRequest) {
  const event = await mustLoadEvent(request);
  if (event.status === 'trash') throw calendarErrors.eventInTrash();
  return (await wire(request, [await trashEvent(request, event)], false))[0];
}

const canCreate = (request: ApiRequest) => request.can(EVENTS.caps.edit_posts) && writeAllowed(request, EVENTS, 'create');
/** Per-event rights; when there is no such event, the type's cap (so the handler can answer 404). */
const canUpdate = async (request: ApiRequest) => {
  const event = await loadEvent(request);
  return (event ? canEdit(request, EVENTS, event) : request.can(EVENTS.caps.edit_posts)) && writeAllowed(request, EVENTS, 'update');
};
const canTrash = async (request: ApiRequest) => {
  const event = await loadEvent(request);
  return event ? canDelete(request, EVENTS, event) : request.can(EVENTS.caps.delete_posts);
};

/** `/events`, `/events/{id}` and `/events/by-slug/{slug}`. */
export function eventRoutes(docs: PostRouteDocs = {}): RouteDefinition[] {
  const itemArgs = { id: idArg, password: passwordArg };
  return [
    defineRoute('/events', [
      { methods: READABLE, args: listArgs, handler: list, doc: docs.list },
      { methods: CREATABLE, args: createArgs, permission: canCreate, handler: create, doc: docs.create },
    ]),
    defineRoute('/events/(?P<id>\\d+)', [
      { methods: READABLE, args: itemArgs, handler: read, doc: docs.read },
      { methods: DELETABLE, args: itemArgs, permission: canTrash, handler: remove, doc: docs.remove },
      { methods: EDITABLE, args: { ...itemArgs, ...unrequired(createArgs) }, permission: canUpdate, handler: update, doc: docs.update },
    ]),
    defineRoute('/events/by-slug/(?P<slug>[^/]+)', [
      { methods: READABLE, args: { slug: slugArg }, handler: read, doc: docs.readBySlug },
      { methods: DELETABLE, args: { slug: slugArg }, permission: canTrash, handler: remove, doc: docs.removeBySlug },
      { methods: EDITABLE, args: updateBySlugArgs, permission: canUpdate, handler: update, doc: docs.updateBySlug },
    ]),
  ];
}
