import { describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type SiteRequest } from '@siterest/core';
import { newEvent, newOrganizer, newVenue } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

const NOW = '2026-11-21T16:41:37Z';

/**
 * On the memory store nothing an anonymous list reads has to be waited for: the site answers it at once (no
 * promise, no turn of the microtask queue per step), with the answer `handle` gives.
 */
describe('memory store: lists answered at once', () => {
  it('events (with terms, a search and a window), venues and organizers, uncached, from kept fragments', async () => {
    const store = memoryStore();
    const venue = await store.venues.create(newVenue({ title: 'Blue Hall', slug: 'blue-hall' }));
    const organizer = await store.organizers.create(newOrganizer({ title: 'Ann', slug: 'ann' }));
    const jazz = await store.terms.create({ taxonomy: 'tribe_events_cat', name: 'Jazz', slug: 'jazz', description: '', parentId: 0 });
    const free = await store.terms.create({ taxonomy: 'post_tag', name: 'Free', slug: 'free', description: '', parentId: 0 });
    for (let day = 1; day <= 12; day++) {
      const date = `2027-03-${String(day).padStart(2, '0')} 20:00:00`;
      await store.events.create(
        newEvent({ title: `Concert ${day}`, startDate: date, startDateUtc: date, venueIds: [venue.id], organizerIds: [organizer.id], categoryIds: [jazz.id], tagIds: day % 2 ? [free.id] : [] }),
      );
    }
    const site = createSite({ store, cache: false, clock: manualClock(NOW), logger: silentLogger });
    await site.ready();
    const queries: Array<[string, string]> = [
      ['/cal/events/v1/events', ''],
      ['/cal/events/v1/events', 'page=2'],
      ['/cal/events/v1/events', 'categories=jazz&tags=free'],
      ['/cal/events/v1/events', 'categories=nothing'],
      ['/cal/events/v1/events', 'search=concert&start_date=2027-03-01&end_date=2027-03-31'],
      ['/cal/events/v1/venues', ''],
      ['/cal/events/v1/organizers', ''],
      ['/cal/events/v1/events', 'page=9'],
    ];
    // Twice: the first time the fragments are built (reading the events' terms and images), the second time they are
    // kept, and then nothing is waited for.
    for (let round = 0; round < 2; round++) {
      for (const [path, query] of queries) {
        const request: SiteRequest = { method: 'GET', path, query, headers: {}, basePath: '/api' };
        const answer = site.answer(request);
        if (round === 1) expect(answer, `${path}?${query}`).not.toBeInstanceOf(Promise);
        const handled = await site.handle(request);
        const now = await answer;
        expect([now.status, now.body, now.headers]).toEqual([handled.status, handled.body, handled.headers]);
      }
    }
    // A caller with credentials is checked against the store's application passwords: that answer is a promise.
    const signedIn = site.answer({ method: 'GET', path: '/cal/events/v1/events', query: '', headers: { authorization: 'Basic YWRtaW46eA==' }, basePath: '/api' });
    expect(signedIn).toBeInstanceOf(Promise);
    expect((await signedIn).status).toBe(401);
  });
});
