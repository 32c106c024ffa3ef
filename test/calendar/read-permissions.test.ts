import { beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@siterest/core';
import { newEvent, newOrganizer, newVenue, taxonomies } from '@siterest/core/testing';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar, type ApiAnswer, type Role } from './harness.js';

/*
 * Who may read what, as a matrix: every role × owner × status × kind × read path, compared with a statement of
 * WordPress's rules written here, apart from the implementation. The data is built once per store and adapter;
 * every path collects its mismatches and reports them together.
 */

const AUTHORS: readonly RoleName[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];
const VIEWERS: readonly Role[] = ['anonymous', ...AUTHORS];
/** `password` is a published post with a password. */
const STATES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'password'] as const;
const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
type State = (typeof STATES)[number];
type Kind = 'event' | 'venue' | 'organizer';
const KINDS: readonly Kind[] = ['event', 'venue', 'organizer'];
const PLURAL: Record<Kind, string> = { event: 'events', venue: 'venues', organizer: 'organizers' };

interface Item {
  kind: Kind;
  id: number;
  state: State;
  status: string;
  /** Role of the user who wrote it. */
  author: RoleName;
  slug: string;
  title: string;
}

// ---------------------------------------------------------------------------------------------------------
// WordPress's rules, stated independently of siterest's code.
// ---------------------------------------------------------------------------------------------------------

/** The capabilities of each role that bear on reading (The Events Calendar grants its types' caps as posts'). */
const CAPS: Record<Role, { read: boolean; editPosts: boolean; editOthers: boolean; editPublished: boolean; readPrivate: boolean }> = {
  anonymous: { read: false, editPosts: false, editOthers: false, editPublished: false, readPrivate: false },
  subscriber: { read: true, editPosts: false, editOthers: false, editPublished: false, readPrivate: false },
  contributor: { read: true, editPosts: true, editOthers: false, editPublished: false, readPrivate: false },
  author: { read: true, editPosts: true, editOthers: false, editPublished: true, readPrivate: false },
  editor: { read: true, editPosts: true, editOthers: true, editPublished: true, readPrivate: true },
  administrator: { read: true, editPosts: true, editOthers: true, editPublished: true, readPrivate: true },
};

/**
 * "publish, or current_user_can( 'read_post' )": a public status is readable by all; one's own post needs
 * `read`; someone else's private post `read_private_posts`; any other status `edit_post` on someone else's
 * post, that is `edit_others_posts`, plus `edit_published_posts` when it is scheduled.
 */
function wpMayRead(viewer: Role, item: { status: string; author: RoleName }): boolean {
  const caps = CAPS[viewer];
  if (item.status === 'publish') return true;
  if (viewer !== 'anonymous' && item.author === viewer) return caps.read;
  if (item.status === 'private') return caps.readPrivate;
  return caps.editOthers && (item.status !== 'future' || caps.editPublished);
}

/** TEC's default list status: `any` (all but trash) for those who may edit the type, else `publish`. */
function inDefaultStatuses(viewer: Role, status: string): boolean {
  return CAPS[viewer].editPosts ? status !== 'trash' : status === 'publish';
}

/** The answer a single read gives, as `status code`. */
function expectedSingle(viewer: Role, item: Item): string {
  if (item.kind === 'event') {
    if (item.status === 'trash') return '403 event-no-longer-available';
    if (!wpMayRead(viewer, item)) return '403 event-not-accessible';
    if (item.state === 'password') return '403 event-password-protected';
    return '200';
  }
  return wpMayRead(viewer, item) ? '200' : `403 ${item.kind}-not-accessible`;
}

// ---------------------------------------------------------------------------------------------------------

/** Runs the checks a few at a time: the matrix has thousands of requests, mostly waiting on sockets. */
async function inParallel(checks: Array<() => Promise<void>>, width = 8): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < checks.length) await checks[next++]!();
  }));
}

const outcome = (answer: ApiAnswer) => (answer.status === 200 ? '200' : `${answer.status} ${answer.body?.code}`);
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

const variants = storeVariants().flatMap((store) => [
  { label: `${store.label}, Express`, store, adapter: 'express' as const },
  ...(store.label.startsWith('memory') ? [{ label: `${store.label}, Fastify`, store, adapter: 'fastify' as const }] : []),
]);

// Each check below sends a few hundred requests; on a loaded machine PGlite needs more than the default 30 s.
describe.each(variants)('who may read what ($label)', { timeout: 120_000 }, ({ store, adapter }) => {
  const cal = useCalendar({ store, adapter });
  const items: Item[] = [];
  /** Published events by the administrator that embed one venue each / every organizer. */
  const venueHosts = new Map<number, number>();
  let organizerHost = 0;
  let categoryId = 0;

  beforeAll(async () => {
    const db = cal.site.store;
    categoryId = (await db.terms.create({ taxonomy: taxonomies.category, name: 'Matrix', slug: 'matrix', description: '', parentId: 0 })).id;
    let day = 0;
    for (const kind of KINDS) {
      for (const state of STATES) {
        for (const author of AUTHORS) {
          const status = state === 'password' ? 'publish' : state;
          const base = `m-${kind}-${state}-${author}`;
          const input = {
            title: `Matrix ${kind} ${state} ${author}`,
            content: `Content of ${base}`,
            status,
            authorId: cal.users[author].id,
            slug: status === 'trash' ? `${base}__trashed` : base,
            password: state === 'password' ? 'secret' : '',
            trashedFrom: status === 'trash' ? 'publish' : null,
          };
          const start = new Date(Date.UTC(2027, 1, 1) + day++ * 86_400_000).toISOString().slice(0, 10) + ' 10:00:00';
          const record =
            kind === 'event'
              ? await db.events.create(newEvent({ ...input, startDateUtc: start, endDateUtc: start, categoryIds: [categoryId] }))
              : kind === 'venue'
                ? await db.venues.create(newVenue({ ...input, city: `City of ${base}` }))
                : await db.organizers.create(newOrganizer({ ...input, email: `${base}@example.org` }));
          items.push({ kind, id: record.id, state, status, author, slug: record.slug, title: input.title });
        }
      }
    }
    const admin = cal.users.administrator.id;
    for (const venue of items.filter((i) => i.kind === 'venue')) {
      const host = await db.events.create(
        newEvent({ title: `Host of ${venue.slug}`, authorId: admin, slug: `host-${venue.slug}`, startDateUtc: '2027-06-01 10:00:00', endDateUtc: '2027-06-01 12:00:00', venueIds: [venue.id] }),
      );
      venueHosts.set(venue.id, host.id);
    }
    const organizers = items.filter((i) => i.kind === 'organizer');
    organizerHost = (
      await db.events.create(
        newEvent({ title: 'Host of organizers', authorId: admin, slug: 'host-organizers', startDateUtc: '2027-06-02 10:00:00', endDateUtc: '2027-06-02 12:00:00', organizerIds: organizers.map((o) => o.id) }),
      )
    ).id;
  });

  /** Every event, matrix and hosts, as the oracle sees them (hosts: published, by the administrator). */
  const allOf = (kind: Kind): Array<Pick<Item, 'id' | 'status' | 'author'>> => [
    ...items.filter((i) => i.kind === kind),
    ...(kind === 'event' ? [...venueHosts.values(), organizerHost].map((id) => ({ id, status: 'publish', author: 'administrator' as RoleName })) : []),
  ];

  /** Walks every page of a list; checks that `total`, X-TEC-Total and the pages agree. */
  async function walk(viewer: Role, path: string, kind: Kind): Promise<{ outcome: string; ids: number[]; total?: number; consistent?: boolean }> {
    const ids: number[] = [];
    let total: number | undefined;
    let consistent = true;
    for (let page = 1; ; page++) {
      const answer = await cal.get(`${path}${path.includes('?') ? '&' : '?'}per_page=50&page=${page}`, viewer);
      if (answer.status !== 200) return page === 1 ? { outcome: outcome(answer), ids } : { outcome: `page ${page}: ${outcome(answer)}`, ids };
      ids.push(...answer.body[PLURAL[kind]].map((record: { id: number }) => record.id));
      total = answer.body.total;
      const pages = Math.ceil(total! / 50);
      consistent &&= answer.header('X-TEC-Total') === String(total) && answer.header('X-TEC-TotalPages') === String(pages) && answer.body.total_pages === pages;
      if (!answer.body.next_rest_url) break;
    }
    consistent &&= ids.length === total && new Set(ids).size === ids.length;
    return { outcome: '200', ids: sorted(ids), total, consistent };
  }

  /** Compares a list with the oracle's selection; returns a description of each difference. */
  async function checkList(viewer: Role, kind: Kind, path: string, selected: (item: Pick<Item, 'id' | 'status' | 'author'>) => boolean) {
    const got = await walk(viewer, path, kind);
    const want = sorted(allOf(kind).filter((item) => selected(item) && wpMayRead(viewer, item)).map((item) => item.id));
    const problems: unknown[] = [];
    if (got.outcome !== '200') problems.push({ viewer, path, outcome: got.outcome });
    else {
      const extra = got.ids.filter((id) => !want.includes(id));
      const missing = want.filter((id) => !got.ids.includes(id));
      if (extra.length || missing.length || !got.consistent) problems.push({ viewer, path, extra: titles(extra), missing: titles(missing), consistent: got.consistent });
    }
    return { problems, count: want.length };
  }

  const titles = (ids: number[]) => ids.map((id) => items.find((i) => i.id === id)?.title ?? `host ${id}`);

  it.each([
    ['by id', (item: Item) => `${NS}/${PLURAL[item.kind]}/${item.id}`],
    ['by slug', (item: Item) => `${NS}/${PLURAL[item.kind]}/by-slug/${item.slug}`],
  ] as const)('answers single reads %s as WordPress does', async (_, pathOf) => {
    const problems: unknown[] = [];
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      for (const item of items) {
        const want = expectedSingle(viewer, item);
        const path = pathOf(item);
        checks.push(async () => {
          const answer = await cal.get(path, viewer);
          const got = outcome(answer);
          if (got === '200' && answer.body.id !== item.id) problems.push({ viewer, path, got: answer.body.id });
          if (got !== want) problems.push({ viewer, item: item.title, path, want, got });
        });
        if (item.kind === 'event' && item.state === 'password' && wpMayRead(viewer, item)) {
          checks.push(async () => {
            const unlocked = await cal.get(`${path}?password=secret`, viewer);
            if (unlocked.status !== 200) problems.push({ viewer, item: item.title, unlocked: outcome(unlocked) });
          });
        }
      }
    }
    await inParallel(checks);
    expect(problems).toEqual([]);
    // Every viewer × item, plus unlocking each of the 5 password-protected (published) events.
    expect(checks).toHaveLength(VIEWERS.length * (items.length + 5));
  });

  it('lists, by default, what the caller may read and counts exactly that (total, X-TEC-Total, pages)', async () => {
    const problems: unknown[] = [];
    let listed = 0;
    await inParallel(
      VIEWERS.flatMap((viewer) =>
        KINDS.map((kind) => async () => {
          const result = await checkList(viewer, kind, `${NS}/${PLURAL[kind]}`, (item) => inDefaultStatuses(viewer, item.status));
          problems.push(...result.problems);
          listed += result.count;
        }),
      ),
    );
    expect(problems).toEqual([]);
    expect(listed).toBeGreaterThan(VIEWERS.length * 3 * 7);
  });

  it('lists each asked status only where the caller may read it, and refuses other statuses to anonymous callers and subscribers', async () => {
    const problems: unknown[] = [];
    let checked = 0;
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      for (const kind of KINDS) {
        for (const asked of [...STATUSES.map((s) => [s]), ['draft', 'private', 'future']]) {
          const path = `${NS}/${PLURAL[kind]}?status=${asked.join(',')}`;
          checks.push(async () => {
            checked++;
            if (!CAPS[viewer].editPosts && asked.join() !== 'publish') {
              const answer = await cal.get(path, viewer);
              if (outcome(answer) !== '400 rest_invalid_param') problems.push({ viewer, path, got: outcome(answer) });
              return;
            }
            problems.push(...(await checkList(viewer, kind, path, (item) => asked.includes(item.status))).problems);
          });
        }
      }
    }
    await inParallel(checks);
    expect(problems).toEqual([]);
    expect(checked).toBe(VIEWERS.length * KINDS.length * 7);
  });

  it('applies the same rule to include= and search= lists, HEAD totals and ?rest_route=', async () => {
    const problems: unknown[] = [];
    const matrixEvents = items.filter((i) => i.kind === 'event');
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      const inDefault = (item: Pick<Item, 'status'>) => inDefaultStatuses(viewer, item.status);
      const isMatrix = (item: Pick<Item, 'id'>) => items.some((i) => i.id === item.id);
      const include = `${NS}/events?include=${matrixEvents.map((e) => e.id).join(',')}`;
      checks.push(async () => void problems.push(...(await checkList(viewer, 'event', include, (item) => inDefault(item) && isMatrix(item))).problems));
      for (const kind of KINDS) {
        const search = `${NS}/${PLURAL[kind]}?search=matrix`;
        checks.push(async () => void problems.push(...(await checkList(viewer, kind, search, (item) => inDefault(item) && isMatrix(item))).problems));
        const want = allOf(kind).filter((item) => inDefault(item) && wpMayRead(viewer, item)).length;
        checks.push(async () => {
          const head = await cal.call(viewer, 'HEAD', `${NS}/${PLURAL[kind]}?per_page=50`);
          if (head.status !== 200 || head.header('X-TEC-Total') !== String(want) || head.raw !== '') {
            problems.push({ viewer, kind, head: head.status, total: head.header('X-TEC-Total'), want });
          }
        });
        checks.push(async () => {
          const routed = await cal.get(`/?rest_route=/cal/events/v1/${PLURAL[kind]}&per_page=50`, viewer);
          if (routed.status !== 200 || routed.body.total !== want) problems.push({ viewer, kind, restRoute: routed.status, total: routed.body?.total, want });
        });
      }
    }
    await inParallel(checks);
    expect(checks).toHaveLength(VIEWERS.length * (1 + 3 * KINDS.length));
    expect(problems).toEqual([]);
  });

  it('embeds in a readable event only the venues and organizers the caller may read, in singles and lists', async () => {
    const problems: unknown[] = [];
    const organizers = items.filter((i) => i.kind === 'organizer');
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      checks.push(async () => {
        // The hosts are published: everybody lists all 36, on one page.
        const listed = new Map<number, any>();
        for (const event of (await cal.get(`${NS}/events?search=host&per_page=50`, viewer)).body.events) listed.set(event.id, event);
        if (listed.size !== venueHosts.size + 1) problems.push({ viewer, hosts: listed.size });
        const singles = new Map<number, ApiAnswer>();
        await inParallel([...venueHosts.values(), organizerHost].map((id) => async () => void singles.set(id, await cal.get(`${NS}/events/${id}`, viewer))), 4);
        const shown = (id: number) => [
          ['single', singles.get(id)?.body, singles.get(id)?.raw ?? ''],
          ['list', listed.get(id), JSON.stringify(listed.get(id) ?? null)],
        ] as const;
        for (const venue of items.filter((i) => i.kind === 'venue')) {
          const readable = wpMayRead(viewer, venue);
          for (const [where, event, raw] of shown(venueHosts.get(venue.id)!)) {
            const embedded = Array.isArray(event?.venue) ? null : event?.venue?.id;
            if (readable ? embedded !== venue.id : embedded !== null || raw.includes(venue.title)) {
              problems.push({ viewer, venue: venue.title, where, embedded: event?.venue });
            }
          }
        }
        const want = organizers.filter((o) => wpMayRead(viewer, o)).map((o) => o.id);
        for (const [where, event, raw] of shown(organizerHost)) {
          const got = (event?.organizer ?? []).map((o: { id: number }) => o.id);
          const leaked = organizers.filter((o) => !want.includes(o.id) && raw.includes(o.title)).map((o) => o.title);
          if (JSON.stringify(got) !== JSON.stringify(want) || leaked.length) problems.push({ viewer, where, organizers: titles(got), leaked });
        }
      });
    }
    await inParallel(checks, 2);
    expect(problems).toEqual([]);
  });

  it('treats venues and organizers the caller may not read as absent in the events filters', async () => {
    const problems: unknown[] = [];
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      for (const linked of items.filter((i) => i.kind !== 'event')) {
        checks.push(async () => {
          const path = `${NS}/events?${linked.kind}=${linked.id}&per_page=50`;
          const answer = await cal.get(path, viewer);
          const host = linked.kind === 'venue' ? venueHosts.get(linked.id)! : organizerHost;
          const want = wpMayRead(viewer, linked) ? `200 ${host}` : '400 rest_invalid_param';
          const got = answer.status === 200 ? `200 ${answer.body.events.map((e: { id: number }) => e.id).join()}` : outcome(answer);
          if (got !== want) problems.push({ viewer, path, item: linked.title, want, got });
        });
      }
    }
    await inParallel(checks);
    expect(problems).toEqual([]);
    expect(checks).toHaveLength(VIEWERS.length * 70);
  });

  it('lists the venues of an event by what the caller may read, and refuses events they may not read', async () => {
    const problems: unknown[] = [];
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      for (const venue of items.filter((i) => i.kind === 'venue')) {
        checks.push(async () => {
          // The venues of a readable (published) event: its venue, when the caller may read it and lists its status.
          const path = `${NS}/venues?event=${venueHosts.get(venue.id)}`;
          const answer = await cal.get(path, viewer);
          const want = wpMayRead(viewer, venue) && inDefaultStatuses(viewer, venue.status) ? [venue.id] : [];
          const got = answer.status === 200 ? answer.body.venues.map((v: { id: number }) => v.id) : outcome(answer);
          if (JSON.stringify(got) !== JSON.stringify(want)) problems.push({ viewer, path, item: venue.title, want, got });
        });
      }
      for (const event of items.filter((i) => i.kind === 'event')) {
        checks.push(async () => {
          const kind = event.author === 'editor' ? 'organizers' : 'venues';
          const answer = await cal.get(`${NS}/${kind}?event=${event.id}`, viewer);
          const want = wpMayRead(viewer, event) ? '200' : '400 rest_invalid_param';
          if (outcome(answer) !== want) problems.push({ viewer, kind, event: event.title, want, got: outcome(answer) });
        });
      }
    }
    await inParallel(checks);
    expect(problems).toEqual([]);
    expect(checks).toHaveLength(VIEWERS.length * (35 + 35));
  });

  it("lists an event's terms (?post= / ?event=) only for those who may read the event", async () => {
    const problems: unknown[] = [];
    const checks: Array<() => Promise<void>> = [];
    for (const viewer of VIEWERS) {
      for (const event of items.filter((i) => i.kind === 'event')) {
        // `event` is the alias TEC adds; one of the two per event keeps the matrix small.
        const param = event.author === 'author' ? 'event' : 'post';
        checks.push(async () => {
          const answer = await cal.get(`${NS}/categories?${param}=${event.id}&hide_empty=0`, viewer);
          const want = wpMayRead(viewer, event) ? `200 ${categoryId}` : `${viewer === 'anonymous' ? 401 : 403} rest_forbidden_context`;
          const got = answer.status === 200 ? `200 ${answer.body.categories.map((c: { id: number }) => c.id).join()}` : outcome(answer);
          if (got !== want) problems.push({ viewer, param, event: event.title, want, got });
        });
      }
    }
    await inParallel(checks);
    expect(problems).toEqual([]);
    expect(checks).toHaveLength(VIEWERS.length * 35);
  });
});

describe.each(storeVariants())('read rules in writes and relations ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const event = (title: string, extra: Record<string, unknown> = {}) => ({ title, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00', ...extra });

  it('reuses only venues and organizers the caller may read when avoiding duplicates', async () => {
    for (const [plural, field] of [['venues', 'venue'], ['organizers', 'organizer']] as const) {
      const hidden = (await cal.call('administrator', 'POST', `${NS}/${plural}`, { [field]: `Hidden ${field}`, status: 'draft' })).body;
      const secret = (await cal.call('administrator', 'POST', `${NS}/${plural}`, { [field]: `Secret ${field}`, status: 'private' })).body;
      const shown = (await cal.call('administrator', 'POST', `${NS}/${plural}`, { [field]: `Shown ${field}` })).body;
      expect([hidden.status, secret.status, shown.status]).toEqual(['draft', 'private', 'publish']);
      for (const role of ['contributor', 'author'] as const) {
        const again = await cal.call(role, 'POST', `${NS}/${plural}`, { [field]: `hidden ${field}` });
        expect(again.status).toBe(201);
        expect(again.body.id).not.toBe(hidden.id);
        expect(JSON.stringify(again.body)).not.toContain(`"author":"${cal.users.administrator.id}"`);
        expect((await cal.call(role, 'POST', `${NS}/${plural}`, { [field]: `SECRET ${field}` })).body.id).not.toBe(secret.id);
        expect((await cal.call(role, 'POST', `${NS}/${plural}`, { [field]: `Shown ${field}` })).body.id).toBe(shown.id);
      }
      // Editors may read them all, so theirs is the existing record.
      expect((await cal.call('editor', 'POST', `${NS}/${plural}`, { [field]: `Hidden ${field}` })).body.id).toBe(hidden.id);
    }
    // The same through an event write with inline venue and organizer data.
    const draftVenue = (await cal.call('editor', 'POST', `${NS}/venues`, { venue: 'Back room', status: 'draft' })).body;
    const draftOrganizer = (await cal.call('editor', 'POST', `${NS}/organizers`, { organizer: 'Quiet crew', status: 'draft' })).body;
    const written = await cal.call('author', 'POST', `${NS}/events`, event('Inline reuse', { venue: { venue: 'Back room' }, organizer: [{ organizer: 'Quiet crew' }] }));
    expect(written.status).toBe(201);
    expect(written.body.venue.id).not.toBe(draftVenue.id);
    expect(written.body.organizer.map((o: { id: number }) => o.id)).not.toContain(draftOrganizer.id);
    const stored = await cal.site.store.events.get(written.body.id);
    expect(stored?.venueIds).not.toContain(draftVenue.id);
    expect(stored?.organizerIds).not.toContain(draftOrganizer.id);
  });

  it('counts as links of a venue only the events the caller may read (has_events, only_with_upcoming)', async () => {
    const theirs = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Linked to a draft of theirs' })).body;
    const mine = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Linked to a draft of mine' })).body;
    await cal.call('editor', 'POST', `${NS}/events`, event('Their draft', { status: 'draft', venue: theirs.id }));
    await cal.call('contributor', 'POST', `${NS}/events`, event('My draft', { venue: mine.id }));
    const listed = async (role: Role, query: string) =>
      (await cal.get(`${NS}/venues?${query}&per_page=50`, role)).body.venues.map((v: { id: number }) => v.id).filter((id: number) => [theirs.id, mine.id].includes(id));
    expect(await listed('contributor', 'has_events=1')).toEqual([mine.id]);
    expect(await listed('contributor', 'only_with_upcoming=1')).toEqual([mine.id]);
    expect(await listed('contributor', 'has_events=0')).toEqual([theirs.id]);
    expect(await listed('editor', 'has_events=1')).toEqual([mine.id, theirs.id]);
    expect(await listed('anonymous', 'has_events=1')).toEqual([]);
  });
});
