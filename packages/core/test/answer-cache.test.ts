import { describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type EventQuery, type SiteStore } from '@siterest/core';
import { newEvent } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

/** A memory store that counts event list queries. */
function countingStore(): { store: SiteStore; lists: () => number } {
  const store = memoryStore();
  let lists = 0;
  const list = store.events.list.bind(store.events);
  store.events.list = (query: EventQuery) => {
    lists++;
    return list(query);
  };
  return { store, lists: () => lists };
}

const get = { method: 'GET', path: '/cal/events/v1/events', headers: {} };

describe('list answers are reused while the store is unchanged', () => {
  it('answers a repeated list from the cache and recomputes after any write', async () => {
    const { store, lists } = countingStore();
    const site = createSite({ store, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
    const first = await site.handle(get);
    const second = await site.handle(get);
    expect(second.body).toBe(first.body);
    expect(lists()).toBe(1);
    await store.events.create(newEvent({ title: 'New', startDateUtc: '2027-01-01 10:00:00', startDate: '2027-01-01 10:00:00' }));
    const third = await site.handle(get);
    expect(JSON.parse(third.body).total).toBe(1);
    expect(lists()).toBe(2);
    // Another caller (or other parameters) is another answer.
    await site.handle({ ...get, query: 'per_page=5' });
    expect(lists()).toBe(3);
  });

  it('can be turned off', async () => {
    const { store, lists } = countingStore();
    const site = createSite({ store, cache: false, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
    await site.handle(get);
    await site.handle(get);
    expect(lists()).toBe(2);
  });
});
