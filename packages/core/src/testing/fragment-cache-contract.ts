import { beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { FragmentCache, type Fragment } from '../fragment-cache.js';
import { CATEGORY_TAXONOMY } from '../namespaces/calendar/constants.js';
import { silentLogger } from '../site-context.js';
import { createSite, type Site } from '../site.js';
import type { SiteStore } from '../store/repositories.js';
import { newEvent, newOrganizer, newVenue, renamedOutside } from './fixtures.js';

export interface FragmentCacheHarness {
  /** A store with no data (the same object may be returned each time, emptied). */
  create(): Promise<SiteStore>;
}

const START = '2026-11-21T16:41:37Z';

const LIST = { method: 'GET', path: '/cal/events/v1/events', query: '', headers: {} as Record<string, string> };

/** A promise and what fulfils it, to hold a request at a point of its work. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * The per-event JSON fragments of uncached event lists: reused while nothing they depend on changed, rebuilt
 * after a change to the event, its venue, organizer or terms, or the settings, and never shared between callers
 * who see an event differently. Every answer is compared with the one a site without fragments gives.
 */
export function fragmentCacheContractSuite(name: string, harness: FragmentCacheHarness): void {
  describe(`event fragments: ${name}`, () => {
    let store: SiteStore;
    let site: Site;
    let plain: Site;
    let built = 0;
    /** Venues and organizers an events list looked up to tell which fragment fits its caller. */
    let linkedReads = 0;
    let clock: ReturnType<typeof manualClock>;

    beforeEach(async () => {
      store = await harness.create();
      clock = manualClock(START);
      // Without the answer cache, so each list is put together from fragments.
      site = createSite({ store, clock, logger: silentLogger, cache: false });
      plain = createSite({ store, clock, logger: silentLogger, cache: false, fragments: false });
      built = 0;
      linkedReads = 0;
      const fragments = site.fragments!;
      const record = fragments.record.bind(fragments);
      fragments.record = <R>(...args: Parameters<FragmentCache['record']>) => {
        linkedReads++;
        return record<R>(...args);
      };
      const set = fragments.set.bind(fragments);
      fragments.set = (key: string, version: number, settings: object, fragment: Fragment) => {
        built++;
        set(key, version, settings, fragment);
      };
    });

    /** The list from the site with fragments, checked byte for byte against the site without. */
    const list = async (query = '', path = LIST.path) => {
      const [answer, expected] = await Promise.all([site.handle({ ...LIST, path, query }), plain.handle({ ...LIST, path, query })]);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(expected.body);
      // The bytes the adapters write, joined from the fragments' bytes, are the body's UTF-8 encoding.
      expect(answer.bodyBytes && Buffer.from(answer.bodyBytes).toString('utf8')).toBe(expected.body);
      return answer.body;
    };

    it('rebuilds an event fragment after a change to each thing it depends on, and only then', async () => {
      const venue = await store.venues.create(newVenue({ title: 'Blue Hall' }));
      const organizer = await store.organizers.create(newOrganizer({ title: 'Ann Organizer' }));
      const term = await store.terms.create({ taxonomy: CATEGORY_TAXONOMY, name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
      const event = await store.events.create(
        newEvent({ title: 'Night', venueIds: [venue.id], organizerIds: [organizer.id], categoryIds: [term.id], cost: ['10'] }),
      );
      await store.events.create(newEvent({ title: 'Other', startDate: '2027-01-11 10:00:00' }));
      await site.ready();
      await plain.ready();

      let body = await list();
      expect(body).toContain('Blue Hall');
      expect(built).toBe(2);
      const reads = linkedReads;
      expect(await list()).toBe(body);
      expect(built).toBe(2);
      // An anonymous caller (no password) sees each event one way: its kept fragment is found without looking up
      // the venue and organizer again.
      expect(linkedReads).toBe(reads);
      // The venues and organizers lists are put together the same way.
      const linkedLists = async () => [await list('', '/cal/events/v1/venues'), await list('', '/cal/events/v1/organizers')].join('\n');
      expect(await linkedLists()).toContain('Blue Hall');
      expect(built).toBe(4);
      await linkedLists();
      expect(built).toBe(4);

      const changes: Array<[string, () => Promise<unknown>, string]> = [
        ['event', () => store.events.update(event.id, { title: 'Late Night' }), 'Late Night'],
        ['venue', () => store.venues.update(venue.id, { title: 'Red Hall' }), 'Red Hall'],
        ['organizer', () => store.organizers.update(organizer.id, { title: 'Bob Organizer' }), 'Bob Organizer'],
        ['term rename', () => store.terms.update(term.id, { name: 'Blues' }), 'Blues'],
        ['settings', () => store.options.set('currency_symbol', '€'), '\\u20ac10'],
      ];
      for (const [what, change, seen] of changes) {
        await change();
        // Settings reach a site through its store notice; wait for both sites to have it.
        if (what === 'settings') await Promise.all([site.reloadSettings(), plain.reloadSettings()]);
        const before = built;
        body = await list();
        expect(body, what).toContain(seen);
        expect(built, what).toBeGreaterThan(before);
        const linked = await linkedLists();
        if (what === 'venue' || what === 'organizer') expect(linked, what).toContain(seen);
        const after = built;
        expect(await list()).toBe(body);
        expect(await linkedLists()).toBe(linked);
        expect(built, what).toBe(after);
      }
    });

    it("never serves a fragment built for a caller who saw the event differently (password)", async () => {
      await store.events.create(newEvent({ title: 'Locked', password: 'pw', content: 'SECRET CONTENT' }));
      await site.ready();
      await plain.ready();
      expect(await list('password=pw')).toContain('SECRET CONTENT');
      expect(await list()).not.toContain('SECRET CONTENT');
      expect(await list('password=wrong')).not.toContain('SECRET CONTENT');
      expect(await list('password=pw')).toContain('SECRET CONTENT');
    });

    // Two requests at one change version can read different states of a record: the version is read before the
    // records, and a write can land in between. A visitor's list that read an event published must not be given
    // what an administrator's list built from the draft, or the newly locked text, it has just become.
    it('never serves a fragment built from a state of the event or its venue the caller did not read', async () => {
      const venue = await store.venues.create(newVenue({ title: 'Main Hall', content: 'Hall notes' }));
      const created = await store.events.create(newEvent({ title: 'Public title', content: 'Public text', venueIds: [venue.id] }));
      const admin = { id: 1, login: 'admin', roles: ['administrator'] };
      const VENUES = '/cal/events/v1/venues';
      const changes = [
        {
          what: 'the event made a draft',
          paths: [LIST.path],
          write: () => store.events.update(created.id, { status: 'draft', title: 'SECRET DRAFT', content: 'SECRET TEXT' }),
          undo: () => store.events.update(created.id, { status: 'publish', title: 'Public title', content: 'Public text' }),
        },
        {
          what: 'the event locked',
          paths: [LIST.path],
          write: () => store.events.update(created.id, { password: 'pw', content: 'SECRET TEXT' }),
          undo: () => store.events.update(created.id, { password: '', content: 'Public text' }),
        },
        {
          what: 'the venue locked',
          paths: [VENUES],
          write: () => store.venues.update(venue.id, { password: 'pw', content: 'SECRET TEXT' }),
          undo: () => store.venues.update(venue.id, { password: '', content: 'Hall notes' }),
        },
      ];
      await site.ready();
      await plain.ready();
      for (const change of changes) {
        for (const path of change.paths) {
          const what = `${change.what}, ${path}`;
          const repository: { list(query: never): unknown } = path === VENUES ? store.venues : store.events;
          const read = repository.list;
          const visitorRead = gate();
          const adminWaits = gate();
          const adminMayRead = gate();
          const visitorMayGoOn = gate();
          let calls = 0;
          // The visitor's list reads its records, then waits before it serializes them; the administrator's list
          // reads its version, then waits for the write before it reads its records.
          repository.list = async (query: never) => {
            const call = ++calls;
            if (call === 2) {
              adminWaits.open();
              await adminMayRead.promise;
            }
            const records = await read.call(repository, query);
            if (call === 1) {
              visitorRead.open();
              await visitorMayGoOn.promise;
            }
            return records;
          };
          try {
            const visitor = site.handle({ ...LIST, path });
            await visitorRead.promise;
            const administrator = site.handle({ ...LIST, path, query: 'context=edit', principal: admin });
            await adminWaits.promise;
            await change.write();
            adminMayRead.open();
            expect((await administrator).body, what).toContain('SECRET');
            visitorMayGoOn.open();
            const seen = await visitor;
            expect(seen.status, what).toBe(200);
            expect(seen.body, what).toContain(path === VENUES ? 'Hall notes' : 'Public text');
            expect(seen.body, what).not.toContain('SECRET');
          } finally {
            repository.list = read;
          }
          expect(await list('', path), what).not.toContain('SECRET');
          await change.undo();
        }
      }
    });

    // The store gives an event's links differently at one version (SQL run outside siterest, or a write that has
    // not advanced the version yet): the fragment a caller with the password got, with the venue, must not reach
    // callers without it, who read no venue; and the two ways of seeing the event keep a fragment each.
    it('never serves a fragment built from other linked records than the caller read', async () => {
      const venue = await store.venues.create(newVenue({ title: 'Main Hall' }));
      const locked = await store.events.create(newEvent({ title: 'Locked', password: 'pw', content: 'SECRET CONTENT', venueIds: [venue.id] }));
      await site.ready();
      await plain.ready();
      const events = store.events;
      const read = events.list;
      let unlinked = false;
      let links: number[] | null = null;
      events.list = async (query) => {
        const page = await read.call(events, query);
        const venueIds = unlinked ? [] : links;
        return venueIds ? { ...page, items: page.items.map((item) => (item.id === locked.id ? { ...item, venueIds } : item)) } : page;
      };
      try {
        expect(await list('password=pw')).toContain('SECRET CONTENT');
        unlinked = true;
        expect(await list('password=wrong')).not.toContain('SECRET CONTENT');
        const before = built;
        for (let round = 0; round < 2; round++) {
          unlinked = false;
          expect(await list('password=pw')).toContain('Main Hall');
          unlinked = true;
          expect(await list('password=wrong')).not.toContain('Main Hall');
        }
        expect(built).toBe(before);
        expect(await list()).not.toContain('SECRET CONTENT');
        unlinked = false;
        // Another venue in the same place of the event, in the same state: the fragment with the first is not it.
        const side = await store.venues.create(newVenue({ title: 'Side Room' }));
        links = [venue.id];
        expect(await list('password=pw')).toContain('Main Hall');
        links = [side.id];
        const relinked = await list('password=pw');
        expect(relinked).toContain('Side Room');
        expect(relinked).not.toContain('Main Hall');
      } finally {
        events.list = read;
      }
    });

    // A venue's password changes at one version (SQL run outside siterest, or another instance's write whose
    // advance failed). A caller with the new password whose list finds the venue kept from before the change, and
    // the event's fragment missing, must not file the unlocked venue under the key of a caller who sees it locked:
    // the key and the fragment come from the same venue record.
    it('never files a fragment under a key worked out from another state of a linked record than it was built from', async () => {
      const venue = await store.venues.create(newVenue({ title: 'Main Hall', password: 'old', content: 'VENUE SECRET' }));
      await store.events.create(newEvent({ title: 'Keeps the venue', venueIds: [venue.id] }));
      await store.events.create(newEvent({ title: 'Built later', startDate: '2027-01-11 10:00:00', venueIds: [venue.id] }));
      await site.ready();
      await plain.ready();
      const venues = store.venues;
      const getMany = venues.getMany;
      let password: string | null = null;
      venues.getMany = async (ids) => (await getMany.call(venues, ids)).map((record) => (password !== null && record.id === venue.id ? { ...record, password } : record));
      try {
        // The venue is kept as it is now, with the first event's fragment alone.
        expect(await list('search=Keeps')).not.toContain('VENUE SECRET');
        password = 'new';
        clock.advance(20_000);
        // The kept venue (password "old") makes this caller's key the locked one, while a fresh read of the venue
        // is open to it. (Not compared with a fresh list: the kept venue may be shown as it was, up to maxAgeMs.)
        const before = built;
        const unlocking = await site.handle({ ...LIST, query: 'password=new&search=Built' });
        expect(unlocking.status).toBe(200);
        expect(built).toBe(before + 1);
        // The kept venue has expired, the fragment built 15 s ago has not: a visitor reads the venue locked.
        clock.advance(15_000);
        const visitor = await list();
        expect(visitor).toContain('Built later');
        expect(visitor).not.toContain('VENUE SECRET');
        expect(await list('password=wrong')).not.toContain('VENUE SECRET');
      } finally {
        venues.getMany = getMany;
      }
    });

    it('ages a fragment from before its records were read, however long the reading took', async () => {
      const open = await store.events.create(newEvent({ title: 'Open' }));
      await site.ready();
      await plain.ready();
      let slow = true;
      // The first read returns five seconds after it read the rows.
      const outside = renamedOutside(store.events, open.id, () => {
        if (slow) clock.advance(5_000);
        slow = false;
      });
      try {
        expect((await site.handle(LIST)).body).toContain('Open');
        // Changed outside siterest at the same version; 31 s after the rows were read, 26 s after the fragment was built.
        outside.rename();
        clock.advance(26_000);
        expect(await list()).toContain('Renamed elsewhere');
      } finally {
        outside.restore();
      }
    });

    it('keys an event by how the caller sees each of its linked records, with few of them or many', async () => {
      const shown = await store.organizers.create(newOrganizer({ title: 'Open Org' }));
      const draft = await store.organizers.create(newOrganizer({ title: 'Draft Org', status: 'draft' }));
      const locked = await store.organizers.create(newOrganizer({ title: 'Locked Org', password: 'pw', content: 'ORGANIZER SECRET' }));
      const venue = await store.venues.create(newVenue({ title: 'Main Hall' }));
      const extra = await Promise.all([1, 2, 3].map((n) => store.organizers.create(newOrganizer({ title: `Extra ${n}` }))));
      // Three linked records (a key of numbers), and seven (a key of text).
      await store.events.create(newEvent({ title: 'Few', venueIds: [venue.id], organizerIds: [shown.id, draft.id] }));
      await store.events.create(
        newEvent({ title: 'Many', startDate: '2027-01-11 10:00:00', venueIds: [venue.id], organizerIds: [shown.id, draft.id, locked.id, ...extra.map((o) => o.id)] }),
      );
      await site.ready();
      await plain.ready();
      const admin = { id: 1, login: 'admin', roles: ['administrator'] };
      const asAdmin = async (query: string) => {
        const request = { ...LIST, query, basePath: '/api', principal: admin };
        const [answer, expected] = await Promise.all([site.handle(request), plain.handle(request)]);
        expect(answer.status).toBe(200);
        expect(answer.body).toBe(expected.body);
        return answer.body;
      };

      const anonymous = await list();
      expect(anonymous).not.toContain('Draft Org');
      expect(anonymous).not.toContain('ORGANIZER SECRET');
      expect(built).toBe(2);
      const withPassword = await list('password=pw');
      expect(withPassword).toContain('ORGANIZER SECRET');
      expect(built).toBe(3);
      const administrator = await asAdmin('');
      expect(administrator).toContain('Draft Org');
      expect(built).toBe(5);
      // Each way of seeing them is kept apart, and reused.
      expect(await list()).toBe(anonymous);
      expect(await list('password=pw')).toBe(withPassword);
      expect(await asAdmin('')).toBe(administrator);
      expect(built).toBe(5);
    });

    it('is bounded in bytes', () => {
      const cache = new FragmentCache(() => 0, { maxBytes: 1_000_000 });
      const json = JSON.stringify({ text: 'x'.repeat(3_000) });
      for (let i = 0; i < 200; i++) cache.set(`event ${i}`, 1, cache, { data: {}, json, listed: null, access: [], builtAt: 0 });
      expect(cache.size.bytes).toBeLessThanOrEqual(1_000_000);
      expect(cache.size.entries).toBeGreaterThan(0);
      expect(cache.size.entries).toBeLessThan(200);
      // The newest are kept, the oldest evicted.
      expect(cache.get('event 199', 1, cache)).toBeDefined();
      expect(cache.get('event 0', 1, cache)).toBeUndefined();
      // Another version or settings object is a miss.
      expect(cache.get('event 198', 2, cache)).toBeUndefined();
      expect(cache.get('event 197', 1, {})).toBeUndefined();
    });
  });
}
