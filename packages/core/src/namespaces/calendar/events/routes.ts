import { callerKey } from '../../../answer-cache.js';
import { builtFrom, FRAGMENT_KINDS, fragmentKey, shareJoinedList, sourceCount, type Fragment, type FragmentCache, type FragmentKey, type FragmentSource } from '../../../fragment-cache.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { respond, type ApiResponse } from '../../../http/api-response.js';
import { intval } from '../../../http/php.js';
import { CREATABLE, defineRoute, DELETABLE, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import type { PostRouteDocs } from '../posts/types.js';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../../../store/records.js';
import { calendarErrors } from '../errors.js';
import { CALENDAR_ANSWER_SCOPES, calendarVersion } from '../answer-scopes.js';
import { ORGANIZERS, VENUES } from '../linked/kinds.js';
import { canDelete, canEdit, canRead, unlocked, writeAllowed } from '../posts/access.js';
import { archiveEnding } from '../posts/rest-url.js';
import { createArgs, idArg, listArgs, passwordArg, slugArg, unrequired, updateBySlugArgs, EVENT_TYPE } from './args.js';
import { EVENTS } from './kind.js';
import { planEventList, type EventListPlan } from './list.js';
import { andThen, both, type Maybe } from '../../../util/maybe.js';
import { loadRelations, relationsWith, serializeEvent, type EventRelations } from './serialize.js';
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

/** What the events link to, less what the caller may not read: left out as if the event had none (TEC embeds it whole). */
async function visibleRelations(request: ApiRequest, events: EventRecord[]): Promise<EventRelations> {
  const relations = await loadRelations(request.site.store, events);
  for (const [id, venue] of relations.venues) if (!canRead(request, VENUES, venue)) relations.venues.delete(id);
  for (const [id, organizer] of relations.organizers) if (!canRead(request, ORGANIZERS, organizer)) relations.organizers.delete(id);
  return relations;
}

async function wire(request: ApiRequest, events: EventRecord[], withJsonLd: boolean): Promise<Array<Record<string, unknown>>> {
  const relations = await visibleRelations(request, events);
  const settings = request.site.settings;
  const apiRoot = request.apiRoot;
  const media = request.site.media;
  const linkedUnlocked = (record: VenueRecord | OrganizerRecord) => unlocked(request, record.type === VENUES.type ? VENUES : ORGANIZERS, record);
  // A literal per event rather than a spread of shared options plus `redact`: spreading then adding is slow in V8.
  return events.map((event) => serializeEvent(event, relations, { settings, apiRoot, media, withJsonLd, linkedUnlocked, redact: !unlocked(request, EVENTS, event) }));
}

/**
 * The venues and organizers the events link to that the caller may read, read at `version`: from the fragment
 * cache when read at that version before, else from the store (and kept). At once when all of them were kept.
 */
function readableLinked(
  request: ApiRequest,
  fragments: FragmentCache,
  events: readonly EventRecord[],
  version: number,
  readAt: number,
): Maybe<LinkedRecords> {
  const settings = request.site.settings;
  const store = request.site.store;
  const gather = <R extends VenueRecord | OrganizerRecord>(
    kind: typeof VENUES | typeof ORGANIZERS,
    code: typeof FRAGMENT_KINDS.venue | typeof FRAGMENT_KINDS.organizer,
    ids: (event: EventRecord) => readonly number[],
    getMany: (ids: number[]) => Maybe<R[]>,
  ): Maybe<Map<number, R>> => {
    const found = new Map<number, R>();
    let missing: Set<number> | null = null;
    // Index loops and forEach: iterator results and entry pairs per id were a good part of a list's garbage.
    for (let e = 0; e < events.length; e++) {
      const linked = ids(events[e]!);
      for (let i = 0; i < linked.length; i++) {
        const id = linked[i]!;
        if (found.has(id) || missing?.has(id)) continue;
        const kept = fragments.record<R>(code, id, version, settings);
        if (kept) found.set(id, kept);
        else (missing ??= new Set()).add(id);
      }
    }
    const readable = (): Map<number, R> => {
      // A venue or organizer the caller may not read is left out, as if the event had none (TEC embeds it whole).
      found.forEach((record, id) => {
        if (!canRead(request, kind, record)) found.delete(id);
      });
      return found;
    };
    if (!missing) return readable();
    return andThen(getMany([...missing]), (records) => {
      for (const record of records) {
        fragments.keepRecord(code, record.id, version, settings, record, readAt);
        found.set(record.id, record);
      }
      return readable();
    });
  };
  return both(
    gather(VENUES, FRAGMENT_KINDS.venue, (event) => event.venueIds, (ids) => store.venues.getMany(ids)),
    () => gather(ORGANIZERS, FRAGMENT_KINDS.organizer, (event) => event.organizerIds, (ids) => store.organizers.getMany(ids)),
    linkedRecords,
  );
}

function linkedRecords(venues: Map<number, VenueRecord>, organizers: Map<number, OrganizerRecord>): LinkedRecords {
  return { venues, organizers };
}

interface LinkedRecords {
  venues: Map<number, VenueRecord>;
  organizers: Map<number, OrganizerRecord>;
}

/**
 * The wire objects of a page of events and their JSON, each reused from the fragment cache when it was built at
 * `version` for a caller who sees the same: whether the event is redacted (password), which of its venue and
 * organizers are shown and which of those are redacted; and from the same records in the same access states
 * (builtFrom). Everything else the object depends on is the records and settings, which the version and the
 * settings object stand for (up to a write landing after the version was read, or made outside siterest: such a
 * fragment may show a newer or older state of a record, but only as a caller who sees it like this one was given
 * it). Terms and images are read only for the events whose fragment is missing.
 */
function wireList(request: ApiRequest, events: EventRecord[], version: number | undefined, readAt: number): Maybe<ListedEvents> {
  const fragments = request.site.fragments;
  if (!fragments || version === undefined) return wire(request, events, false).then((data) => ({ data, fragments: null }));
  const anonymous = anonymousKeys(request, fragments, events);
  if (anonymous) {
    const found = anonymousFragments(request, fragments, events, anonymous, version);
    if (found) return { data: found.map((fragment) => fragment.data), fragments: found };
  }
  return andThen(readableLinked(request, fragments, events, version, readAt), (linked) => fragmentsOf(request, fragments, events, version, readAt, linked, anonymous));
}

/**
 * The keys of the events as an anonymous caller who gives no password sees them, or null for any other caller.
 * Such a caller sees every event, venue and organizer one way at a version — what the records' statuses and
 * passwords make of them — so the event's fragment is found by the event alone, without reading the venues and
 * organizers it links to to work out which one applies.
 */
function anonymousKeys(request: ApiRequest, fragments: FragmentCache, events: readonly EventRecord[]): FragmentKey[] | null {
  if (request.principal !== null || request.has('password')) return null;
  const apiRoot = request.apiRoot;
  const root = fragments.rootOf(apiRoot);
  const keys: FragmentKey[] = [];
  for (let e = 0; e < events.length; e++) {
    const id = events[e]!.id;
    keys.push(fragmentKey(FRAGMENT_KINDS.anonymousEvent, id, root, 0) ?? `${apiRoot} ${id} anonymous`);
  }
  return keys;
}

/**
 * Every event's fragment under its anonymous key, or null when one is missing or was built from another state of
 * its event (see builtFrom). Its venues and organizers were checked by the anonymous list that kept it there: if
 * they changed since, it shows them as that list was given them (an anonymous caller's view of an older state).
 */
function anonymousFragments(request: ApiRequest, fragments: FragmentCache, events: readonly EventRecord[], keys: readonly FragmentKey[], version: number): Fragment[] | null {
  const settings = request.site.settings;
  const found: Fragment[] = [];
  for (let i = 0; i < keys.length; i++) {
    const fragment = fragments.get(keys[i]!, version, settings);
    if (!fragment || !builtFrom(fragment, 0, events[i]!)) return null;
    found.push(fragment);
  }
  return found;
}

/**
 * Whether `fragment` was built from `event` and the very venues and organizers it links to, in the access states
 * the caller read them in (builtFrom): the event first, then its venues and organizers in its order, as
 * fragmentsOf gives them.
 */
function builtFromLinked(fragment: Fragment, event: EventRecord, linked: LinkedRecords): boolean {
  const venueIds = event.venueIds;
  const organizerIds = event.organizerIds;
  if (sourceCount(fragment) !== 1 + venueIds.length + organizerIds.length || !builtFrom(fragment, 0, event)) return false;
  for (let i = 0; i < venueIds.length; i++) {
    const id = venueIds[i]!;
    if (!builtFrom(fragment, 1 + i, linked.venues.get(id) ?? id)) return false;
  }
  for (let i = 0; i < organizerIds.length; i++) {
    const id = organizerIds[i]!;
    if (!builtFrom(fragment, 1 + venueIds.length + i, linked.organizers.get(id) ?? id)) return false;
  }
  return true;
}

interface ListedEvents {
  data: Array<Record<string, unknown>>;
  fragments: Fragment[] | null;
}

/** Where the numeric key variants of an event with 0–4 linked records start: 3^n - 1. */
const LINKED_OFFSETS = [0, 2, 8, 26, 80] as const;

function fragmentsOf(
  request: ApiRequest,
  fragments: FragmentCache,
  events: EventRecord[],
  version: number,
  readAt: number,
  linked: LinkedRecords,
  anonymous: readonly FragmentKey[] | null,
): Maybe<ListedEvents> {
  const settings = request.site.settings;
  const apiRoot = request.apiRoot;
  const linkedUnlocked = (record: VenueRecord | OrganizerRecord) => unlocked(request, record.type === VENUES.type ? VENUES : ORGANIZERS, record);
  // 0 not shown, 1 shown, 2 shown redacted.
  const seen = (record: VenueRecord | OrganizerRecord | undefined) => (record === undefined ? 0 : linkedUnlocked(record) ? 1 : 2);
  const root = fragments.rootOf(apiRoot);
  const keys: FragmentKey[] = [];
  const found: Array<Fragment | undefined> = [];
  let missing: EventRecord[] | null = null;
  for (let e = 0; e < events.length; e++) {
    const event = events[e]!;
    const redacted = unlocked(request, EVENTS, event) ? 0 : 1;
    const venueIds = event.venueIds;
    const organizerIds = event.organizerIds;
    // With up to four linked records (almost every event), how the caller sees the event is one number below 242:
    // the redaction, then one base-3 digit per linked record, offset by 3^n - 1 for n linked records (the numbers
    // of fewer records come below), so callers who read different numbers of them never share a key.
    let key: FragmentKey | null = null;
    const linkedCount = venueIds.length + organizerIds.length;
    if (linkedCount <= 4) {
      let variant = redacted;
      for (let i = 0; i < venueIds.length; i++) variant = variant * 3 + seen(linked.venues.get(venueIds[i]!));
      for (let i = 0; i < organizerIds.length; i++) variant = variant * 3 + seen(linked.organizers.get(organizerIds[i]!));
      key = fragmentKey(FRAGMENT_KINDS.event, event.id, root, variant + LINKED_OFFSETS[linkedCount]!);
    }
    if (key === null) {
      let text = `${apiRoot} ${event.id} ${redacted}`;
      for (const id of venueIds) text += ` v${seen(linked.venues.get(id))}`;
      for (const id of organizerIds) text += ` o${seen(linked.organizers.get(id))}`;
      key = text;
    }
    let fragment = fragments.get(key, version, settings);
    if (fragment && !builtFromLinked(fragment, event, linked)) fragment = undefined;
    keys.push(key);
    found.push(fragment);
    if (!fragment) (missing ??= []).push(event);
  }
  const listed = (): ListedEvents => {
    // Kept under the anonymous keys too, for the next anonymous list.
    if (anonymous) for (let i = 0; i < anonymous.length; i++) fragments.alias(anonymous[i]!, version, settings, found[i]!);
    return { data: found.map((fragment) => fragment!.data), fragments: found as Fragment[] };
  };
  if (!missing) return listed();
  // Built from the very venues and organizers the keys were worked out from: read again, they could differ (a
  // change made outside siterest at this version), and a venue open to this caller would be kept under the key of
  // callers who see it locked.
  return relationsWith(request.site.store, missing, linked.venues, linked.organizers).then((relations) => {
    const media = request.site.media;
    events.forEach((event, index) => {
      if (found[index]) return;
      const redact = !unlocked(request, EVENTS, event);
      const object = serializeEvent(event, relations, { settings, apiRoot, media, withJsonLd: false, linkedUnlocked, redact });
      const sources: FragmentSource[] = [event];
      for (const id of event.venueIds) sources.push(relations.venues.get(id) ?? id);
      for (const id of event.organizerIds) sources.push(relations.organizers.get(id) ?? id);
      const fragment = fragments.build(object, sources, readAt);
      fragments.set(keys[index]!, version, settings, fragment);
      found[index] = fragment;
    });
    return listed();
  });
}

function list(request: ApiRequest): Maybe<ApiResponse> {
  return andThen(planEventList(request), (plan) => {
    if (!request.site.keepsAnswers) return listAnswer(request, plan, undefined);
    const key = ['events', callerKey(request.principal), request.get('password') ?? '', request.get('context') ?? '', request.apiRoot, plan.restUrl, plan.query];
    return request.site.cached(key, CALENDAR_ANSWER_SCOPES, async (version) => listAnswer(request, plan, version));
  });
}

function listAnswer(request: ApiRequest, plan: EventListPlan, cachedAt: number | undefined): Maybe<ApiResponse> {
  // The version must be read before the events (see fragment-cache.ts).
  return andThen(cachedAt ?? calendarVersion(request), (version) => {
    // The records are read no earlier than this: what is built from them is as old.
    const readAt = request.site.now();
    return andThen(request.site.store.events.list(plan.query), ({ items, total }) => {
      if (!items.length && plan.page > 1) throw calendarErrors.eventArchivePageNotFound();
      const ending = archiveEnding(plan.restUrl, plan.page, plan.perPage, total);
      return andThen(wireList(request, items, version, readAt), (events) => {
        const data = { events: events.data, ...ending.after };
        if (events.fragments) shareJoinedList(data, 'events', events.fragments, ending.closing);
        return respond(data, 200, { 'X-TEC-Total': total, 'X-TEC-TotalPages': ending.totalPages });
      });
    });
  });
}

async function read(request: ApiRequest) {
  const event = await mustLoadEvent(request);
  if (event.status === 'trash') throw calendarErrors.eventNoLongerAvailable();
  if (!canRead(request, EVENTS, event)) throw calendarErrors.eventNotAccessible();
  if (!unlocked(request, EVENTS, event)) throw calendarErrors.eventPasswordProtected();
  // TEC's JSON-LD skips a post whose password is required, and over REST it always is (no cookie): even the
  // right `password` gets no `json_ld`.
  return (await wire(request, [event], !event.password))[0];
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
      { methods: READABLE, args: listArgs, handler: list, doc: docs.list, answerScopes: CALENDAR_ANSWER_SCOPES },
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
