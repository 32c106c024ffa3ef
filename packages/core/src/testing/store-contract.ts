import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventQuery, LinkedPostQuery, TermQuery } from '../store/queries.js';
import type { EventRecord, TermRecord } from '../store/records.js';
import type { SiteStore } from '../store/repositories.js';
import { newEvent, newOrganizer, newVenue, taxonomies } from './fixtures.js';
import { contactFormsAndPopupsContract, newContactForm, newPopup, newSubmission } from './store-contract-forms.js';
import { mediaStoreContract, newAttachment } from './media-contract.js';
import { newRedirect, redirectionStoreContract } from './redirection-contract.js';
import { contentStoreContract, newContent } from './content-contract.js';

export interface StoreFactory {
  /** A fresh, empty store for one test. */
  create(): Promise<SiteStore>;
  /** Releases what `create` made. */
  destroy?(store: SiteStore): Promise<void>;
}

const { category: CAT, tag: TAG } = taxonomies;

function eventQuery(overrides: Partial<EventQuery> = {}): EventQuery {
  return { statuses: ['publish'], orderBy: 'start', offset: 0, limit: 100, ...overrides };
}

function linkedQuery(overrides: Partial<LinkedPostQuery> = {}): LinkedPostQuery {
  return { statuses: ['publish'], offset: 0, limit: 100, ...overrides };
}

function termQuery(overrides: Partial<TermQuery> = {}): TermQuery {
  return { taxonomy: CAT, orderBy: 'name', order: 'asc', offset: 0, limit: 100, ...overrides };
}

const ids = (records: ReadonlyArray<{ id: number }>) => records.map((r) => r.id);

/**
 * The store contract: what every siterest store must do, stated as tests. A store is correct when it passes
 * this suite; the memory and PostgreSQL stores both run it.
 */
export function storeContractSuite(name: string, factory: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    let store: SiteStore;

    beforeEach(async () => {
      store = await factory.create();
    });

    afterEach(async () => {
      await factory.destroy?.(store);
    });

    contactFormsAndPopupsContract(() => store);
    mediaStoreContract(() => store);
    contentStoreContract(() => store);

    describe('options', () => {
      it('stores, reads, lists and deletes structured values', async () => {
        await store.options.set('name', 'Site');
        await store.options.set('nested', { a: [1, 2], b: { c: true } });
        expect(await store.options.get('name')).toBe('Site');
        expect(await store.options.get('nested')).toEqual({ a: [1, 2], b: { c: true } });
        expect(await store.options.all()).toEqual({ name: 'Site', nested: { a: [1, 2], b: { c: true } } });
        await store.options.set('name', 'Renamed');
        expect(await store.options.get('name')).toBe('Renamed');
        await store.options.delete('name');
        expect(await store.options.get('name')).toBeUndefined();
      });

      it('adds an option only once, even when callers race (add_option)', async () => {
        expect(await store.options.add('key', 'first')).toBe('first');
        expect(await store.options.add('key', 'second')).toBe('first');
        expect(await store.options.get('key')).toBe('first');
        const raced = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((value) => store.options.add('raced', { value })));
        expect(new Set(raced.map((r) => JSON.stringify(r))).size).toBe(1);
        expect(await store.options.get('raced')).toEqual(raced[0]);
      });
    });

    describe('users and application passwords', () => {
      const user = { login: 'Admin', email: 'Admin@Example.com', displayName: 'Admin', nicename: 'admin', url: '', registered: '2026-01-01 00:00:00', roles: ['administrator'] };

      it('creates users with increasing ids and finds them by login or e-mail, case-insensitively', async () => {
        const admin = await store.users.create(user);
        const editor = await store.users.create({ ...user, login: 'ed', email: 'ed@example.com', roles: ['editor'] });
        expect(editor.id).toBeGreaterThan(admin.id);
        expect(await store.users.get(admin.id)).toEqual(admin);
        expect((await store.users.findByLogin('admin'))?.id).toBe(admin.id);
        expect((await store.users.findByEmail('admin@example.com'))?.id).toBe(admin.id);
        expect(await store.users.findByLogin('nobody')).toBeNull();
        expect(await store.users.count()).toBe(2);
        expect((await store.users.get(editor.id))?.roles).toEqual(['editor']);
      });

      it('refuses a second user with the same login', async () => {
        await store.users.create(user);
        await expect(store.users.create({ ...user, email: 'other@example.com' })).rejects.toMatchObject({ kind: 'conflict' });
        expect(await store.users.count()).toBe(1);
      });

      it('keeps application passwords per user and records their use', async () => {
        const admin = await store.users.create(user);
        const record = { uuid: '7c1ed9b4-6a0c-4a4b-9d7e-0b7f2a1c3d4e', userId: admin.id, name: 'CLI', passwordHash: 'sha256$s$d', created: 100, lastUsed: null, lastIp: null };
        await store.applicationPasswords.create(record);
        expect(await store.applicationPasswords.listForUser(admin.id)).toEqual([record]);
        expect(await store.applicationPasswords.listForUser(admin.id + 1)).toEqual([]);
        await store.applicationPasswords.recordUse(record.uuid, 200, '127.0.0.1');
        expect(await store.applicationPasswords.listForUser(admin.id)).toEqual([{ ...record, lastUsed: 200, lastIp: '127.0.0.1' }]);
        expect(await store.applicationPasswords.delete(record.uuid)).toBe(true);
        expect(await store.applicationPasswords.delete(record.uuid)).toBe(false);
        expect(await store.applicationPasswords.listForUser(admin.id)).toEqual([]);
      });
    });

    describe('posts share one id sequence', () => {
      it('never gives one id to two records of any type', async () => {
        const venue = await store.venues.create(newVenue({ title: 'Hall' }));
        const event = await store.events.create(newEvent({ title: 'Gig' }));
        const organizer = await store.organizers.create(newOrganizer({ title: 'Org' }));
        expect(new Set([venue.id, event.id, organizer.id]).size).toBe(3);
        expect(event.id).toBeGreaterThan(venue.id);
        expect(organizer.id).toBeGreaterThan(event.id);
        expect(await store.posts.typeOf(venue.id)).toBe(venue.type);
        expect(await store.posts.typeOf(event.id)).toBe(event.type);
        expect(await store.posts.typeOf(organizer.id + 100)).toBeNull();
      });

      it('hands out distinct ids to concurrent creates', async () => {
        const created = await Promise.all(Array.from({ length: 20 }, (_, i) => store.events.create(newEvent({ title: `E${i}` }))));
        expect(new Set(ids(created)).size).toBe(20);
      });

      it('finds posts by slug within their type, whatever their status', async () => {
        const event = await store.events.create(newEvent({ slug: 'jazz-night', status: 'draft' }));
        await store.venues.create(newVenue({ slug: 'main-hall' }));
        expect(await store.posts.idBySlug(event.type, 'jazz-night')).toBe(event.id);
        expect(await store.posts.idBySlug(event.type, 'main-hall')).toBeNull();
        expect(await store.posts.slugTaken(event.type, 'jazz-night')).toBe(true);
        expect(await store.posts.slugTaken(event.type, 'jazz-night', event.id)).toBe(false);
        expect(await store.posts.idBySlug(event.type, '')).toBeNull();
      });

      it('finds nothing for ids no record can have (past 2^53, not whole) and pages past any end', async () => {
        const event = await store.events.create(newEvent({ title: 'Only' }));
        const music = await store.terms.create({ taxonomy: CAT, name: 'Music', slug: 'music', description: '', parentId: 0 });
        for (const id of [2 ** 63, 2 ** 64, 1e21, 2 ** 53 + 2, 1.5]) {
          expect([id, await store.events.get(id), await store.venues.get(id), await store.terms.get(id), await store.users.get(id), await store.posts.typeOf(id)]).toEqual([id, null, null, null, null, null]);
          expect(await store.events.getMany([id, event.id])).toEqual([event]);
          expect(await store.terms.getMany([id])).toEqual([]);
          expect((await store.events.list(eventQuery({ include: [id] }))).items).toEqual([]);
          expect((await store.events.list(eventQuery({ categoryIds: [id] }))).items).toEqual([]);
          expect((await store.venues.list(linkedQuery({ eventId: id }))).items).toEqual([]);
          expect((await store.terms.list(termQuery({ objectId: id, include: [id] }))).items).toEqual([]);
          expect((await store.terms.list(termQuery({ exclude: [id] }))).items).toEqual([music]);
          await expect(store.events.update(id, { title: 'x' })).rejects.toThrow();
          expect(await store.terms.delete(id)).toBe(false);
        }
        expect(await store.events.list(eventQuery({ offset: 1e21, limit: 10 }))).toEqual({ items: [], total: 1 });
        expect(await store.events.list(eventQuery({ offset: 2 ** 63, limit: 2 ** 63 }))).toEqual({ items: [], total: 1 });
        expect(await store.terms.list(termQuery({ offset: 1e21 }))).toEqual({ items: [], total: 1 });
      });

      it('finds nothing, and changes nothing, for such ids in the other namespaces either', async () => {
        // One record of each kind, so a lookup that matched the wrong row would show.
        const group = await store.redirection.groups.create({ name: 'G', moduleId: 1, status: 'enabled', position: 0 });
        const redirect = await store.redirection.redirects.create(newRedirect({ groupId: group.id }), { appendPosition: true });
        const form = await store.contactForms.create(newContactForm());
        const submission = await store.contactForms.submissions.create(newSubmission(form.id));
        const popup = await store.popups.create(newPopup());
        const attachment = await store.attachments.create(newAttachment());
        const article = await store.content.create(newContent());
        for (const id of [2 ** 63, 2 ** 64, 1e21, 2 ** 53 + 2, 1.5]) {
          const { redirects, groups } = store.redirection;
          const { submissions, outbox } = store.contactForms;
          expect([
            id,
            await redirects.get(id),
            await redirects.update(id, { title: 'x' }),
            await groups.get(id),
            await groups.update(id, { name: 'x' }),
            await store.contactForms.get(id),
            await submissions.get(id),
            await submissions.update(id, { status: 'spam' }),
            await outbox.get(id),
            await outbox.update(id, { attempts: 1 }),
            await store.contactForms.update(id, { title: 'x' }),
            await store.popups.get(id),
            await store.popups.update(id, { title: 'x' }),
            await store.popups.recordOpen(id, 1),
            await store.popups.resetCount(id),
            await store.attachments.get(id),
            await store.content.get(id),
            await store.content.update(id, { title: 'x' }),
          ]).toEqual([id, ...Array<null>(17).fill(null)]);
          expect([
            await redirects.delete({ ids: [id] }),
            await submissions.delete(id),
            await submissions.deleteForForm(id),
            await store.contactForms.delete(id),
            await store.popups.delete(id),
            await store.attachments.delete(id),
            await store.content.delete(id),
          ]).toEqual([0, false, [], false, false, false, false]);
          await expect(redirects.create(newRedirect({ groupId: id }), { appendPosition: true })).rejects.toMatchObject({ kind: 'not_found' });
        }
        expect(await store.redirection.redirects.get(redirect.id)).toEqual(redirect);
        expect(await store.contactForms.submissions.get(submission.id)).toEqual(submission);
        expect([await store.popups.get(popup.id), await store.attachments.get(attachment.id), await store.content.get(article.id)]).toEqual([popup, attachment, article]);
      });
    });

    describe('events', () => {
      it('round-trips every field and updates only what a patch names', async () => {
        const venue = await store.venues.create(newVenue({ title: 'Hall' }));
        const input = newEvent({
          title: 'Jazz & Blues',
          content: '<p>Night</p>',
          excerpt: 'Short',
          slug: 'jazz',
          startDate: '2027-01-15 19:00:00',
          endDate: '2027-01-15 22:30:00',
          startDateUtc: '2027-01-16 00:00:00',
          endDateUtc: '2027-01-16 03:30:00',
          timezone: 'America/New_York',
          cost: ['$15', '$25'],
          currencySymbol: '$',
          website: 'http://example.com',
          showMap: true,
          showMapLink: false,
          featured: true,
          venueIds: [venue.id],
          password: 'pw',
          menuOrder: -1,
          imageId: 0,
        });
        const event = await store.events.create(input);
        expect(event).toEqual({ ...input, id: event.id });
        const updated = await store.events.update(event.id, { title: 'Renamed', featured: false });
        expect(updated).toEqual({ ...input, id: event.id, title: 'Renamed', featured: false });
        expect(await store.events.get(event.id)).toEqual(updated);
        expect(await store.events.get(event.id + 1000)).toBeNull();
        expect(ids(await store.events.getMany([event.id, 9999, event.id]))).toEqual([event.id, event.id]);
      });

      it('rejects updates of records that do not exist', async () => {
        await expect(store.events.update(12345, { title: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
      });

      describe('list', () => {
        let e: Record<string, EventRecord>;
        let cat: TermRecord;
        let cat2: TermRecord;
        let tag: TermRecord;
        let venueIds: number[];
        let organizerId: number;

        beforeEach(async () => {
          cat = await store.terms.create({ taxonomy: CAT, name: 'Music', slug: 'music', description: '', parentId: 0 });
          cat2 = await store.terms.create({ taxonomy: CAT, name: 'Art', slug: 'art', description: '', parentId: 0 });
          tag = await store.terms.create({ taxonomy: TAG, name: 'Free', slug: 'free', description: '', parentId: 0 });
          const hall = await store.venues.create(newVenue({ title: 'Hall', geoLat: 51.5, geoLng: -0.12 }));
          const park = await store.venues.create(newVenue({ title: 'Park' }));
          venueIds = [hall.id, park.id];
          organizerId = (await store.organizers.create(newOrganizer({ title: 'Org' }))).id;
          e = {
            past: await store.events.create(newEvent({ title: 'Past concert', startDateUtc: '2025-05-05 20:00:00', endDateUtc: '2025-05-05 23:00:00', categoryIds: [cat.id] })),
            jazz: await store.events.create(newEvent({ title: 'Jazz Night', content: 'An evening of JAZZ', startDateUtc: '2027-01-15 19:00:00', endDateUtc: '2027-01-15 22:00:00', categoryIds: [cat.id], tagIds: [tag.id], venueIds: [hall.id], organizerIds: [organizerId], featured: true })),
            park: await store.events.create(newEvent({ title: 'Park day', excerpt: 'bring gloves', startDateUtc: '2027-02-01 00:00:00', endDateUtc: '2027-02-01 23:59:59', tagIds: [tag.id], venueIds: [park.id] })),
            art: await store.events.create(newEvent({ title: 'Art fair', startDateUtc: '2027-03-10 09:00:00', endDateUtc: '2027-03-12 17:00:00', categoryIds: [cat2.id], venueIds: [hall.id], date: '2025-01-01 00:00:00' })),
            same: await store.events.create(newEvent({ title: 'Same start', startDateUtc: '2027-03-10 09:00:00', endDateUtc: '2027-03-10 10:00:00' })),
            draft: await store.events.create(newEvent({ title: 'Draft jazz', status: 'draft', startDateUtc: '2027-05-01 10:00:00', endDateUtc: '2027-05-01 11:00:00' })),
            hidden: await store.events.create(newEvent({ title: 'Hidden', hideFromListings: true, startDateUtc: '2027-06-01 10:00:00', endDateUtc: '2027-06-01 11:00:00' })),
            trashed: await store.events.create(newEvent({ title: 'Trashed', status: 'trash', startDateUtc: '2027-07-01 10:00:00', endDateUtc: '2027-07-01 11:00:00' })),
          };
        });

        const list = async (q: Partial<EventQuery>) => ids((await store.events.list(eventQuery(q))).items);

        it('orders by start (then id) and counts the total apart from paging', async () => {
          expect(await list({})).toEqual([e.past!.id, e.jazz!.id, e.park!.id, e.art!.id, e.same!.id, e.hidden!.id]);
          const page = await store.events.list(eventQuery({ offset: 1, limit: 2 }));
          expect(ids(page.items)).toEqual([e.jazz!.id, e.park!.id]);
          expect(page.total).toBe(6);
          const beyond = await store.events.list(eventQuery({ offset: 50, limit: 10 }));
          expect(beyond).toEqual({ items: [], total: 6 });
        });

        it('orders by publication date when asked', async () => {
          const all = await list({ orderBy: 'date', statuses: 'any' });
          expect(all[0]).toBe(e.art!.id);
          expect(all.slice(1)).toEqual([...all.slice(1)].sort((a, b) => a - b));
        });

        it('filters by status, with "any" meaning everything but trash', async () => {
          expect(await list({ statuses: ['draft'] })).toEqual([e.draft!.id]);
          expect(await list({ statuses: ['trash'] })).toEqual([e.trashed!.id]);
          expect((await list({ statuses: 'any' })).sort()).toEqual(
            ids(Object.values(e)).filter((id) => id !== e.trashed!.id).sort(),
          );
          expect(await list({ statuses: ['publish', 'draft'], search: 'jazz' })).toEqual([e.jazz!.id, e.draft!.id]);
        });

        it('bounds start and end dates inclusively', async () => {
          expect(await list({ startsAfter: '2027-01-15 19:00:00', startsBefore: '2027-03-10 09:00:00' })).toEqual([e.jazz!.id, e.park!.id, e.art!.id, e.same!.id]);
          expect(await list({ startsAfter: '2027-01-15 19:00:01' })).toEqual([e.park!.id, e.art!.id, e.same!.id, e.hidden!.id]);
          expect(await list({ endsBefore: '2027-02-01 23:59:59', startsAfter: '2026-01-01 00:00:00' })).toEqual([e.jazz!.id, e.park!.id]);
          expect(await list({ endsAfter: '2027-03-12 17:00:00' })).toEqual([e.art!.id, e.hidden!.id]);
        });

        it('lists an event that ends before it starts (written so through the store) when its end is in an end-bounded window', async () => {
          const reversed = await store.events.create(
            newEvent({ title: 'Reversed', startDateUtc: '2027-04-01 10:00:00', endDateUtc: '2027-01-20 10:00:00', categoryIds: [cat.id] }),
          );
          // An end bound bounds every other event's start; this one starts after it and ends within it.
          const window = { startsAfter: '2027-01-01 00:00:00', endsBefore: '2027-02-01 23:59:59' };
          expect(await list(window)).toEqual([e.jazz!.id, e.park!.id, reversed.id]);
          expect(await list({ ...window, categoryIds: [cat.id] })).toEqual([e.jazz!.id, reversed.id]);
          const page = await store.events.list(eventQuery({ ...window, offset: 2, limit: 1 }));
          expect({ total: page.total, ids: ids(page.items) }).toEqual({ total: 3, ids: [reversed.id] });
          // Its end moved after its start, then back before it: the lists follow.
          await store.events.update(reversed.id, { endDateUtc: '2027-04-01 12:00:00' });
          expect(await list(window)).toEqual([e.jazz!.id, e.park!.id]);
          await store.events.update(reversed.id, { endDateUtc: '2027-01-31 12:00:00' });
          expect(await list(window)).toEqual([e.jazz!.id, e.park!.id, reversed.id]);
          // A start bound at or before the end bound leaves it out, as any event starting after it.
          expect(await list({ ...window, startsBefore: '2027-02-01 23:59:59' })).toEqual([e.jazz!.id, e.park!.id]);
        });

        it('searches every word in title, content or excerpt, case-insensitively', async () => {
          expect(await list({ search: 'jazz' })).toEqual([e.jazz!.id]);
          expect(await list({ search: 'EVENING jazz' })).toEqual([e.jazz!.id]);
          expect(await list({ search: 'gloves' })).toEqual([e.park!.id]);
          expect(await list({ search: 'jazz gloves' })).toEqual([]);
          expect(await list({ search: '"art fair"' })).toEqual([e.art!.id]);
        });

        it('matches any listed term within a taxonomy and all taxonomies together', async () => {
          expect(await list({ categoryIds: [cat.id] })).toEqual([e.past!.id, e.jazz!.id]);
          expect(await list({ categoryIds: [cat.id, cat2.id] })).toEqual([e.past!.id, e.jazz!.id, e.art!.id]);
          expect(await list({ tagIds: [tag.id] })).toEqual([e.jazz!.id, e.park!.id]);
          expect(await list({ categoryIds: [cat.id], tagIds: [tag.id] })).toEqual([e.jazz!.id]);
        });

        it('filters by venue, organizer, featured, include and parent', async () => {
          expect(await list({ venueIds: [venueIds[0]!] })).toEqual([e.jazz!.id, e.art!.id]);
          expect(await list({ venueIds: venueIds })).toEqual([e.jazz!.id, e.park!.id, e.art!.id]);
          expect(await list({ organizerIds: [organizerId] })).toEqual([e.jazz!.id]);
          expect(await list({ venueIds: [venueIds[1]!], organizerIds: [organizerId] })).toEqual([]);
          expect(await list({ featured: true })).toEqual([e.jazz!.id]);
          expect(await list({ featured: false })).not.toContain(e.jazz!.id);
          expect(await list({ include: [e.park!.id, e.past!.id] })).toEqual([e.past!.id, e.park!.id]);
          expect(await list({ parentId: 0 })).toHaveLength(6);
        });

        it('leaves out hidden events when asked', async () => {
          expect(await list({ excludeHidden: true })).not.toContain(e.hidden!.id);
          expect(await list({ excludeHidden: false })).toContain(e.hidden!.id);
        });

        it('finds events whose venue has coordinates, optionally near a point', async () => {
          expect(await list({ geo: {} })).toEqual([e.jazz!.id, e.art!.id]);
          expect(await list({ geo: { near: { lat: 51.51, lng: -0.13, radiusKm: 5 } } })).toEqual([e.jazz!.id, e.art!.id]);
          expect(await list({ geo: { near: { lat: 48.85, lng: 2.35, radiusKm: 5 } } })).toEqual([]);
        });

        it('measures the way to a venue at the point\'s antipode, where rounding takes the haversine past 1', async () => {
          const far = await store.venues.create(newVenue({ title: 'Far', geoLat: 88.39, geoLng: 1 }));
          const there = await store.events.create(newEvent({ title: 'Far side', startDateUtc: '2027-04-01 10:00:00', endDateUtc: '2027-04-01 11:00:00', venueIds: [far.id] }));
          // Half the earth's circumference (20,015 km) is within 20,100 km, and nowhere near 25.
          expect(await list({ geo: { near: { lat: -88.39, lng: -179, radiusKm: 20_100 } } })).toEqual([e.jazz!.id, e.art!.id, there.id]);
          expect(await list({ geo: { near: { lat: -88.39, lng: -179, radiusKm: 25 } } })).toEqual([]);
        });

        it('follows venues gaining and losing coordinates, and events changing venues, in page and total', async () => {
          const [hall, park] = venueIds as [number, number];
          // A window with plain bounds: the total a store may keep by day (with its bound days counted apart).
          const located = async () => {
            const page = await store.events.list(eventQuery({ geo: {}, startsAfter: '2027-01-15 19:00:00', startsBefore: '2027-12-31 00:00:00' }));
            return { ids: ids(page.items), total: page.total };
          };
          expect(await located()).toEqual({ ids: [e.jazz!.id, e.art!.id], total: 2 });
          await store.venues.update(park, { geoLat: 40.7, geoLng: -74 });
          expect(await located()).toEqual({ ids: [e.jazz!.id, e.park!.id, e.art!.id], total: 3 });
          // One coordinate is not a place.
          await store.venues.update(hall, { geoLng: null });
          expect(await located()).toEqual({ ids: [e.park!.id], total: 1 });
          await store.events.update(e.same!.id, { venueIds: [hall, park] });
          await store.events.update(e.park!.id, { venueIds: [] });
          expect(await located()).toEqual({ ids: [e.same!.id], total: 1 });
          await store.venues.update(hall, { geoLng: -0.12 });
          await store.venues.update(park, { geoLat: null, geoLng: null });
          expect(await located()).toEqual({ ids: [e.jazz!.id, e.art!.id, e.same!.id], total: 3 });
          // A new event at a venue without coordinates, which then gains them.
          const later = await store.events.create(newEvent({ title: 'Later', startDateUtc: '2027-04-01 10:00:00', endDateUtc: '2027-04-01 11:00:00', venueIds: [park] }));
          expect((await located()).ids).not.toContain(later.id);
          await store.venues.update(park, { geoLat: 1, geoLng: 2 });
          expect(await located()).toEqual({ ids: [e.jazz!.id, e.art!.id, e.same!.id, later.id], total: 4 });
        });
      });
    });

    describe('read clause (visibility)', () => {
      // Authors 7 and 8 each write one record per status; the reader is author 8.
      const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
      const reader = { statuses: ['publish', 'private'], authorId: 8, ownStatuses: ['future', 'draft', 'pending', 'trash'] };
      const expected = (records: ReadonlyArray<{ id: number; status: string; authorId: number }>, statuses: readonly string[] | 'any') =>
        records
          .filter((r) => (statuses === 'any' ? r.status !== 'trash' : statuses.includes(r.status)))
          .filter((r) => reader.statuses.includes(r.status) || (r.authorId === 8 && reader.ownStatuses.includes(r.status)))
          .map((r) => r.id);

      it('lists, counts and pages events by the statuses anyone may read and the own statuses of one author', async () => {
        const cat = await store.terms.create({ taxonomy: CAT, name: 'Music', slug: 'music', description: '', parentId: 0 });
        const events: EventRecord[] = [];
        let day = 10;
        for (const authorId of [7, 8]) {
          for (const status of STATUSES) {
            const start = `2027-01-${day++} 10:00:00`;
            events.push(await store.events.create(newEvent({ title: `Clause ${status}`, status, authorId, startDateUtc: start, endDateUtc: start, categoryIds: [cat.id] })));
          }
        }
        const all = ids(events);
        const list = async (q: Partial<EventQuery>) => store.events.list(eventQuery({ visibility: reader, ...q }));
        for (const statuses of ['any', ['draft'], ['publish', 'trash'], ['private', 'future']] as const) {
          const want = expected(events, statuses);
          // Start order, publication-date order, the term-driven plan and include all apply it.
          expect(ids((await list({ statuses })).items)).toEqual(want);
          expect(ids((await list({ statuses, orderBy: 'date' })).items).sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
          expect(ids((await list({ statuses, categoryIds: [cat.id] })).items)).toEqual(want);
          expect(ids((await list({ statuses, include: all, orderBy: 'date' })).items).sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
          expect((await list({ statuses, search: 'clause' })).total).toBe(want.length);
        }
        const page = await list({ statuses: 'any', offset: 1, limit: 2 });
        expect(page.total).toBe(expected(events, 'any').length);
        expect(ids(page.items)).toEqual(expected(events, 'any').slice(1, 3));
        // Nobody's but the reader's own, or nothing at all.
        expect(ids((await list({ statuses: 'any', visibility: { statuses: [], authorId: 8, ownStatuses: ['draft'] } })).items)).toEqual(
          events.filter((e) => e.authorId === 8 && e.status === 'draft').map((e) => e.id),
        );
        expect(await list({ statuses: 'any', visibility: { statuses: [] } })).toEqual({ items: [], total: 0 });
        // Without a clause the status filter alone decides.
        expect((await store.events.list(eventQuery({ statuses: 'any' }))).total).toBe(10);
      });

      it('lists venues and organizers by it, and counts only readable events as their links', async () => {
        for (const repository of [store.venues, store.organizers] as const) {
          const records: Array<{ id: number; status: string; authorId: number }> = [];
          for (const authorId of [7, 8]) {
            for (const status of STATUSES) {
              const input = { title: `Clause ${status}`, status, authorId };
              records.push(repository === store.venues ? await store.venues.create(newVenue(input)) : await store.organizers.create(newOrganizer(input)));
            }
          }
          const list = async (q: Partial<LinkedPostQuery>) =>
            ids((await (repository as typeof store.venues).list(linkedQuery({ visibility: reader, ...q }))).items).sort((a, b) => a - b);
          for (const statuses of ['any', ['draft'], ['publish', 'trash']] as const) {
            expect(await list({ statuses })).toEqual(expected(records, statuses).sort((a, b) => a - b));
            expect(await list({ statuses, search: 'clause', include: ids(records) })).toEqual(expected(records, statuses).sort((a, b) => a - b));
          }
        }
        // A venue linked only to another author's draft has no events for the reader, one linked to theirs has.
        const theirs = await store.venues.create(newVenue({ title: 'Theirs' }));
        const mine = await store.venues.create(newVenue({ title: 'Mine' }));
        await store.events.create(newEvent({ status: 'draft', authorId: 7, venueIds: [theirs.id], startDateUtc: '2027-05-01 10:00:00', endDateUtc: '2027-05-01 12:00:00' }));
        await store.events.create(newEvent({ status: 'draft', authorId: 8, venueIds: [mine.id], startDateUtc: '2027-05-01 10:00:00', endDateUtc: '2027-05-01 12:00:00' }));
        const linkedTo = async (q: Partial<LinkedPostQuery>) =>
          ids((await store.venues.list(linkedQuery({ include: [theirs.id, mine.id], eventStatuses: ['publish', 'draft'], ...q }))).items).sort((a, b) => a - b);
        const readerEvents = { statuses: ['publish'], authorId: 8, ownStatuses: ['draft'] };
        expect(await linkedTo({ hasEvents: true })).toEqual([theirs.id, mine.id].sort((a, b) => a - b));
        expect(await linkedTo({ hasEvents: true, eventVisibility: readerEvents })).toEqual([mine.id]);
        expect(await linkedTo({ hasEvents: false, eventVisibility: readerEvents })).toEqual([theirs.id]);
        expect(await linkedTo({ upcomingAfter: '2027-01-01 00:00:00', eventVisibility: readerEvents })).toEqual([mine.id]);
        expect(await linkedTo({ upcomingAfter: '2027-01-01 00:00:00', eventVisibility: { statuses: ['publish'] } })).toEqual([]);
      });
    });

    describe('venues and organizers', () => {
      it('lists newest first with status, search over their fields, and paging', async () => {
        const a = await store.venues.create(newVenue({ title: 'Alpha', city: 'Springfield', date: '2026-01-01 00:00:00' }));
        const b = await store.venues.create(newVenue({ title: 'Beta', date: '2026-02-01 00:00:00' }));
        const c = await store.venues.create(newVenue({ title: 'Gamma', status: 'draft', date: '2026-03-01 00:00:00' }));
        const list = async (q: Partial<LinkedPostQuery>) => ids((await store.venues.list(linkedQuery(q))).items);
        expect(await list({})).toEqual([b.id, a.id]);
        expect(await list({ statuses: 'any' })).toEqual([c.id, b.id, a.id]);
        expect(await list({ search: 'springfield' })).toEqual([a.id]);
        const page = await store.venues.list(linkedQuery({ offset: 1, limit: 1 }));
        expect(page).toEqual({ items: [a], total: 2 });
        const o = await store.organizers.create(newOrganizer({ title: 'Jane', email: 'jane@example.com' }));
        expect(ids((await store.organizers.list(linkedQuery({ search: 'JANE@example' }))).items)).toEqual([o.id]);
      });

      it('relates to events: by event, having events, and having upcoming ones', async () => {
        const used = await store.venues.create(newVenue({ title: 'Used' }));
        const draftOnly = await store.venues.create(newVenue({ title: 'Draft only' }));
        const unused = await store.venues.create(newVenue({ title: 'Unused' }));
        const event = await store.events.create(newEvent({ venueIds: [used.id], startDateUtc: '2027-01-01 10:00:00', endDateUtc: '2027-01-01 12:00:00' }));
        await store.events.create(newEvent({ status: 'draft', venueIds: [draftOnly.id], startDateUtc: '2025-01-01 10:00:00', endDateUtc: '2025-01-01 12:00:00' }));
        const list = async (q: Partial<LinkedPostQuery>) => ids((await store.venues.list(linkedQuery(q))).items).sort();
        expect(await list({ eventId: event.id })).toEqual([used.id]);
        expect(await list({ hasEvents: true, eventStatuses: ['publish'] })).toEqual([used.id]);
        expect(await list({ hasEvents: true, eventStatuses: ['publish', 'draft'] })).toEqual([used.id, draftOnly.id].sort());
        expect(await list({ hasEvents: false, eventStatuses: ['publish'] })).toEqual([draftOnly.id, unused.id].sort());
        expect(await list({ upcomingAfter: '2026-06-01 00:00:00', eventStatuses: ['publish', 'draft'] })).toEqual([used.id]);
        expect(await list({ upcomingAfter: '2027-06-01 00:00:00', eventStatuses: ['publish'] })).toEqual([]);
      });

      it('answers a list asked again after a write with the write in it (venues, organizers and the events they link to)', async () => {
        const hall = await store.venues.create(newVenue({ title: 'Hall', date: '2026-01-01 00:00:00' }));
        const list = async (q: Partial<LinkedPostQuery> = {}) => ids((await store.venues.list(linkedQuery(q))).items);
        const linked = { hasEvents: true, eventStatuses: ['publish'] };
        expect(await list()).toEqual([hall.id]);
        expect(await list(linked)).toEqual([]);
        const barn = await store.venues.create(newVenue({ title: 'Barn', date: '2026-02-01 00:00:00' }));
        expect(await list()).toEqual([barn.id, hall.id]);
        await store.venues.update(hall.id, { status: 'draft' });
        expect(await list()).toEqual([barn.id]);
        // A write to an event changes which venues have events.
        const event = await store.events.create(newEvent({ venueIds: [barn.id] }));
        expect(await list(linked)).toEqual([barn.id]);
        await store.events.update(event.id, { status: 'draft' });
        expect(await list(linked)).toEqual([]);
        const jane = await store.organizers.create(newOrganizer({ title: 'Jane' }));
        expect(ids((await store.organizers.list(linkedQuery({}))).items)).toEqual([jane.id]);
        await store.organizers.update(jane.id, { title: 'Janet' });
        expect((await store.organizers.list(linkedQuery({}))).items[0]!.title).toBe('Janet');
      });

      it('finds records by title case-insensitively for duplicate avoidance, never trashed ones', async () => {
        const a = await store.organizers.create(newOrganizer({ title: 'ACME Events' }));
        await store.organizers.create(newOrganizer({ title: 'Acme events', status: 'trash' }));
        expect(ids(await store.organizers.findByTitle('acme EVENTS'))).toEqual([a.id]);
      });
    });

    describe('terms', () => {
      const term = (name: string, extra: Partial<TermRecord> = {}) => ({
        taxonomy: CAT,
        name,
        slug: name.toLowerCase(),
        description: '',
        parentId: 0,
        ...extra,
      });

      it('gives the first term id 2, as a fresh WordPress whose term 1 is "Uncategorized"', async () => {
        const first = await store.terms.create(term('Music'));
        const second = await store.terms.create(term('Outdoor', { taxonomy: TAG }));
        expect([first.id, second.id]).toEqual([2, 3]);
      });

      it('creates, finds and updates terms', async () => {
        const music = await store.terms.create(term('Music', { description: 'Concerts &amp; gigs' }));
        expect(music).toEqual({ ...term('Music', { description: 'Concerts &amp; gigs' }), id: music.id, count: 0, termGroup: 0 });
        const jazz = await store.terms.create(term('Jazz', { parentId: music.id }));
        expect(await store.terms.get(jazz.id)).toEqual(jazz);
        expect(await store.terms.findBySlug(CAT, 'jazz')).toEqual(jazz);
        expect(await store.terms.findBySlug(TAG, 'jazz')).toBeNull();
        expect(ids(await store.terms.findByName(CAT, 'JAZZ'))).toEqual([jazz.id]);
        expect(await store.terms.findByName(CAT, 'Jazz', 0)).toEqual([]);
        expect(ids(await store.terms.findByName(CAT, 'Jazz', music.id))).toEqual([jazz.id]);
        const renamed = await store.terms.update(jazz.id, { name: 'Cool Jazz', slug: 'cool-jazz' });
        expect(renamed).toEqual({ ...jazz, name: 'Cool Jazz', slug: 'cool-jazz' });
        expect(ids(await store.terms.getMany([renamed.id, 999, music.id]))).toEqual([renamed.id, music.id]);
      });

      it('counts the published events that use a term', async () => {
        const music = await store.terms.create(term('Music'));
        const free = await store.terms.create(term('Free', { taxonomy: TAG }));
        const a = await store.events.create(newEvent({ categoryIds: [music.id], tagIds: [free.id] }));
        await store.events.create(newEvent({ categoryIds: [music.id], status: 'draft' }));
        expect((await store.terms.get(music.id))?.count).toBe(1);
        expect((await store.terms.get(free.id))?.count).toBe(1);
        await store.events.update(a.id, { status: 'trash' });
        expect((await store.terms.get(music.id))?.count).toBe(0);
        await store.events.update(a.id, { status: 'publish', categoryIds: [] });
        expect((await store.terms.get(music.id))?.count).toBe(0);
        expect((await store.terms.get(free.id))?.count).toBe(1);
        await store.events.update(a.id, { categoryIds: [music.id, music.id] });
        expect((await store.terms.get(music.id))?.count).toBe(1);
      });

      it('ignores assignments of terms that do not exist', async () => {
        const event = await store.events.create(newEvent({ categoryIds: [4242] }));
        expect(event.categoryIds).toEqual([]);
      });

      it('deletes a term: assignments go, children move up to its parent', async () => {
        const top = await store.terms.create(term('Top'));
        const mid = await store.terms.create(term('Mid', { parentId: top.id }));
        const leaf = await store.terms.create(term('Leaf', { parentId: mid.id }));
        const event = await store.events.create(newEvent({ categoryIds: [mid.id, leaf.id] }));
        expect(await store.terms.delete(mid.id)).toBe(true);
        expect(await store.terms.delete(mid.id)).toBe(false);
        expect(await store.terms.get(mid.id)).toBeNull();
        expect((await store.terms.get(leaf.id))?.parentId).toBe(top.id);
        expect((await store.events.get(event.id))?.categoryIds).toEqual([leaf.id]);
        // Lists give the same record: start order, by include, by publication date.
        for (const query of [{}, { include: [event.id] }, { orderBy: 'date' as const }]) {
          expect((await store.events.list(eventQuery(query))).items.map((item) => item.categoryIds)).toEqual([[leaf.id]]);
        }
      });

      it('lists with every filter, order and page', async () => {
        const music = await store.terms.create(term('Music'));
        const jazz = await store.terms.create(term('Jazz', { parentId: music.id }));
        const art = await store.terms.create(term('Art'));
        const empty = await store.terms.create(term('Empty'));
        await store.terms.create(term('Free', { taxonomy: TAG }));
        const event = await store.events.create(newEvent({ categoryIds: [jazz.id, art.id] }));
        await store.events.create(newEvent({ categoryIds: [art.id] }));
        const list = async (q: Partial<TermQuery>) => ids((await store.terms.list(termQuery(q))).items);
        expect(await list({})).toEqual([art.id, empty.id, jazz.id, music.id]);
        expect(await list({ order: 'desc' })).toEqual([music.id, jazz.id, empty.id, art.id]);
        expect(await list({ orderBy: 'id' })).toEqual([music.id, jazz.id, art.id, empty.id]);
        expect(await list({ orderBy: 'count', order: 'desc' })).toEqual([art.id, jazz.id, music.id, empty.id]);
        expect(await list({ orderBy: 'slug' })).toEqual([art.id, empty.id, jazz.id, music.id]);
        expect(await list({ orderBy: 'include', include: [jazz.id, art.id] })).toEqual([jazz.id, art.id]);
        expect(await list({ hideEmpty: true })).toEqual([art.id, jazz.id]);
        expect(await list({ hideEmpty: true, hierarchical: true })).toEqual([art.id, jazz.id, music.id]);
        expect(await list({ include: [music.id, art.id] })).toEqual([art.id, music.id]);
        expect(await list({ exclude: [music.id, art.id] })).toEqual([empty.id, jazz.id]);
        expect(await list({ slugs: ['jazz', 'art'] })).toEqual([art.id, jazz.id]);
        expect(await list({ parentId: music.id })).toEqual([jazz.id]);
        expect(await list({ parentId: 0 })).toEqual([art.id, empty.id, music.id]);
        expect(await list({ objectId: event.id })).toEqual([art.id, jazz.id]);
        expect(await list({ search: 'US' })).toEqual([music.id]);
        expect(await list({ search: 'ja' })).toEqual([jazz.id]);
        const page = await store.terms.list(termQuery({ offset: 2, limit: 1 }));
        expect(page.total).toBe(4);
        expect(ids(page.items)).toEqual([jazz.id]);
        expect(await list({ taxonomy: TAG })).toHaveLength(1);
      });
    });

    describe('change version', () => {
      it('grows after every committed write and stays put on reads', async () => {
        if (!store.changeVersion) throw new Error('a store must report its change version');
        const versions = [await store.changeVersion()];
        const step = async (work: () => Promise<unknown>) => {
          await work();
          versions.push(await store.changeVersion!());
        };
        await step(() => store.options.set('x', 1));
        const music = await store.terms.create({ taxonomy: CAT, name: 'Music', slug: 'music', description: '', parentId: 0 });
        versions.push(await store.changeVersion());
        const event = await store.events.create(newEvent({ categoryIds: [music.id] }));
        versions.push(await store.changeVersion());
        await step(() => store.events.update(event.id, { title: 'Changed' }));
        await step(() => store.transaction(async (tx) => tx.venues.create(newVenue({ title: 'In a transaction' }))));
        await step(() => store.terms.delete(music.id));
        for (let i = 1; i < versions.length; i++) expect(versions[i]!).toBeGreaterThan(versions[i - 1]!);
        const before = await store.changeVersion();
        await store.events.list(eventQuery({ statuses: 'any' }));
        await store.terms.list(termQuery({}));
        await store.events.get(event.id);
        expect(await store.changeVersion()).toBe(before);
      });
    });

    describe('change version per scope', () => {
      it('advances a scope only with writes to it', async () => {
        if (!store.changeVersion) throw new Error('a store must report its change version');
        const all = async () => ({
          calendar: await store.changeVersion!(['calendar']),
          options: await store.changeVersion!(['options']),
          users: await store.changeVersion!(['users']),
          application_passwords: await store.changeVersion!(['application_passwords']),
        });
        const moved = async (work: () => Promise<unknown>) => {
          const before = await all();
          await work();
          const after = await all();
          return (Object.keys(before) as Array<keyof typeof before>).filter((scope) => after[scope] !== before[scope]).sort();
        };
        const user = await store.users.create({ login: 'scoped', email: 's@example.com', displayName: 'S', nicename: 'scoped', url: '', registered: '2026-01-01 00:00:00', roles: ['author'] });
        const record = { uuid: 'c7a1e3b0-0000-4000-8000-000000000001', userId: user.id, name: 'n', passwordHash: 'sha256$s$d', created: 1, lastUsed: null, lastIp: null };
        expect(await moved(() => store.applicationPasswords.create(record))).toEqual(['application_passwords']);
        expect(await moved(() => store.applicationPasswords.recordUse(record.uuid, 100, '127.0.0.1'))).toEqual(['application_passwords']);
        expect(await moved(() => store.users.create({ login: 'other', email: 'o@example.com', displayName: 'O', nicename: 'other', url: '', registered: '2026-01-01 00:00:00', roles: ['author'] }))).toEqual(['users']);
        expect(await moved(() => store.options.set('blogname', 'Scoped'))).toEqual(['options']);
        expect(await moved(() => store.events.create(newEvent()))).toEqual(['calendar']);
        expect(await moved(() => store.transaction(async (tx) => tx.venues.create(newVenue({ title: 'In a transaction' }))))).toEqual(['calendar']);
        expect(await moved(() => store.transaction(async (tx) => tx.applicationPasswords.recordUse(record.uuid, 200, null)))).toEqual(['application_passwords']);
        // The version of several scopes moves when any of them does.
        const both = await store.changeVersion(['calendar', 'options']);
        await store.options.set('blogname', 'Again');
        expect(await store.changeVersion(['calendar', 'options'])).toBeGreaterThan(both);
      });
    });

    redirectionStoreContract(() => store);

    describe('transactions', () => {
      it('commits every write together', async () => {
        const event = await store.transaction(async (tx) => {
          const venue = await tx.venues.create(newVenue({ title: 'Inline' }));
          return tx.events.create(newEvent({ venueIds: [venue.id] }));
        });
        expect((await store.events.get(event.id))?.venueIds).toHaveLength(1);
        expect(await store.venues.get(event.venueIds[0]!)).not.toBeNull();
      });

      it('leaves no partial write when the work fails', async () => {
        const music = await store.terms.create({ taxonomy: CAT, name: 'Music', slug: 'music', description: '', parentId: 0 });
        const before = await store.venues.list(linkedQuery({ statuses: 'any' }));
        await expect(
          store.transaction(async (tx) => {
            await tx.venues.create(newVenue({ title: 'Ghost' }));
            await tx.events.create(newEvent({ categoryIds: [music.id] }));
            await tx.terms.update(music.id, { name: 'Changed' });
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.venues.list(linkedQuery({ statuses: 'any' }))).toEqual(before);
        expect((await store.events.list(eventQuery({ statuses: 'any' }))).total).toBe(0);
        expect(await store.terms.get(music.id)).toMatchObject({ name: 'Music', count: 0 });
      });

      it('keeps ids unique after a rolled-back transaction', async () => {
        await expect(
          store.transaction(async (tx) => {
            await tx.events.create(newEvent({}));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        const a = await store.events.create(newEvent({}));
        const b = await store.events.create(newEvent({}));
        expect(a.id).not.toBe(b.id);
        expect(await store.events.get(a.id)).not.toBeNull();
      });
    });
  });
}
