import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

/** What a calendar client does, end to end over HTTP: build the calendar, browse it, change it. */
describe.each(storeVariants())('calendar client flow ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const ids: Record<string, number> = {};

  it('creates a venue, an organizer, categories and tags', async () => {
    const venue = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Main Hall', city: 'Springfield', state: 'IL', country: 'United States' });
    expect(venue.status).toBe(201);
    expect(venue.body).toMatchObject({ venue: 'Main Hall', city: 'Springfield', stateprovince: 'IL', show_map: true });
    ids.hall = venue.body.id;
    const organizer = await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Jane Doe', email: 'jane@example.com' });
    expect(organizer.status).toBe(201);
    ids.jane = organizer.body.id;
    expect(ids.jane).toBeGreaterThan(ids.hall!);
    const music = await cal.call('administrator', 'POST', `${NS}/categories`, { name: 'Music' });
    const jazz = await cal.call('administrator', 'POST', `${NS}/categories`, { name: 'Jazz', parent: music.body.id });
    expect(jazz.body.urls.up).toMatch(new RegExp(`/categories/${music.body.id}$`));
    ids.music = music.body.id;
    ids.jazz = jazz.body.id;
    ids.free = (await cal.call('administrator', 'POST', `${NS}/tags`, { name: 'Free entry', slug: 'free' })).body.id;
  });

  it('creates events, one with an inline venue and organizer', async () => {
    const inline = await cal.call('administrator', 'POST', `${NS}/events`, {
      title: 'Harbour Market',
      start_date: '2026-12-05 09:00:00',
      end_date: '2026-12-05 14:00:00',
      venue: { venue: 'Harbour Front', city: 'Portside' },
      organizer: [{ organizer: 'Market Co', email: 'market@example.com' }, ids.jane],
      categories: ['Markets'],
      tags: [ids.free],
      cost: 'Free',
    });
    expect(inline.status).toBe(201);
    expect(inline.body.venue).toMatchObject({ venue: 'Harbour Front', city: 'Portside' });
    expect(inline.body.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Market Co', 'Jane Doe']);
    expect(inline.body.categories[0]).toMatchObject({ name: 'Markets', slug: 'markets', taxonomy: 'cal_events_cat' });
    ids.market = inline.body.id;
    // The inline venue is a real venue, reused when sent again.
    const again = await cal.call('administrator', 'POST', `${NS}/events`, {
      title: 'Harbour Market II',
      start_date: '2026-12-12 09:00:00',
      end_date: '2026-12-12 14:00:00',
      venue: { venue: 'harbour front', city: 'Portside' },
    });
    expect(again.body.venue.id).toBe(inline.body.venue.id);
    ids.market2 = again.body.id;

    const made: number[] = [];
    for (let i = 0; i < 12; i++) {
      const event = await cal.call('administrator', 'POST', `${NS}/events`, {
        title: `Jazz night ${i + 1}`,
        description: i === 3 ? 'A special evening with saxophone' : 'Live music',
        start_date: `2027-01-${String(10 + i).padStart(2, '0')} 19:00:00`,
        end_date: `2027-01-${String(10 + i).padStart(2, '0')} 22:00:00`,
        venue: ids.hall,
        organizer: ids.jane,
        categories: [ids.jazz],
        featured: i === 0,
        cost: ['$10', '$20'],
      });
      expect(event.status).toBe(201);
      made.push(event.body.id);
    }
    ids.firstJazz = made[0]!;
    ids.saxophone = made[3]!;
    expect((await cal.get(`${NS}/events/${made[0]}`)).body).toMatchObject({ cost: '$10 – $20', featured: true, venue: { id: ids.hall } });
  });

  it('lists with each filter', async () => {
    const titles = async (query: string, role: 'anonymous' | 'editor' = 'anonymous') => {
      const answer = await cal.get(`${NS}/events?per_page=50&${query}`, role);
      expect(answer.status).toBe(200);
      expect(answer.header('X-TEC-Total')).toBe(String(answer.body.total));
      return answer.body.events.map((e: { title: string }) => e.title);
    };
    expect(await titles('')).toHaveLength(14);
    expect(await titles('start_date=2027-01-01&end_date=2027-01-12')).toEqual(['Jazz night 1', 'Jazz night 2', 'Jazz night 3']);
    expect(await titles('search=saxophone')).toEqual(['Jazz night 4']);
    expect(await titles('categories=markets')).toEqual(['Harbour Market']);
    expect(await titles(`categories=${ids.music}`)).toEqual([]);
    expect(await titles(`categories=jazz`)).toHaveLength(12);
    expect(await titles(`tags=free`)).toEqual(['Harbour Market']);
    expect(await titles(`venue=${ids.hall}`)).toHaveLength(12);
    expect(await titles(`organizer=${ids.jane}`)).toHaveLength(13);
    expect(await titles('featured=true')).toEqual(['Jazz night 1']);
    expect(await titles('featured=false')).toHaveLength(13);
    expect(await titles('starts_after=2027-01-20')).toEqual(['Jazz night 12']);
    expect(await titles('ends_before=2026-12-31')).toEqual(['Harbour Market', 'Harbour Market II']);
    expect(await titles(`include=${ids.market2},${ids.market}`)).toEqual(['Harbour Market', 'Harbour Market II']);
    expect(await titles('start_date=2027-01-10 20:00:00&strict_dates=true&end_date=2027-01-12 23:00:00')).toEqual([
      'Jazz night 2',
      'Jazz night 3',
    ]);
    expect(await titles('status=draft', 'editor')).toEqual([]);
  });

  it('filters by venue geolocation where venues carry coordinates', async () => {
    const { newVenue } = await import('@siterest/core/testing');
    const located = await cal.site.store.venues.create(newVenue({ title: 'Pier 39', slug: 'pier-39', geoLat: 37.8087, geoLng: -122.4098 }));
    const event = await cal.call('administrator', 'POST', `${NS}/events`, {
      title: 'Sea lions',
      start_date: '2026-12-20 10:00:00',
      end_date: '2026-12-20 12:00:00',
      venue: located.id,
    });
    expect(event.body.venue).toMatchObject({ venue: 'Pier 39', geo_lat: 37.8087, geo_lng: -122.4098 });
    const titles = async (query: string) => (await cal.get(`${NS}/events?${query}`)).body.events.map((e: { title: string }) => e.title);
    expect(await titles('geoloc=true')).toEqual(['Sea lions']);
    expect(await titles('geoloc=true&geoloc_lat=37.80&geoloc_lng=-122.41')).toEqual(['Sea lions']);
    expect(await titles('geoloc=true&geoloc_lat=51.5&geoloc_lng=-0.12')).toEqual([]);
    expect((await cal.get(`${NS}/events?geoloc=true`)).body.rest_url).toContain('geoloc=1');
    await cal.call('administrator', 'DELETE', `${NS}/events/${event.body.id}`);
  });

  it('pages through with next_rest_url until there is none', async () => {
    let url: string | undefined = `${cal.server.url}${NS}/events?per_page=5`;
    const seen: number[] = [];
    let pages = 0;
    while (url) {
      const answer = await cal.get(url.slice(cal.server.url.length));
      expect(answer.status).toBe(200);
      expect(answer.body.total_pages).toBe(3);
      seen.push(...answer.body.events.map((e: { id: number }) => e.id));
      pages++;
      const next: string | undefined = answer.body.next_rest_url;
      // Links are absolute, on the site's address; follow them on the test server.
      url = next?.replace('http://127.0.0.1:8080/api', cal.server.url);
      if (pages > 1) expect(answer.body.previous_rest_url).toBeDefined();
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(14);
    const beyond = await cal.get(`${NS}/events?per_page=5&page=4`);
    expect(beyond.status).toBe(404);
    expect(beyond.body.code).toBe('event-archive-page-not-found');
  });

  it('updates only what it names', async () => {
    // The list form: single reads add json_ld, writes answer without it.
    const before = (await cal.get(`${NS}/events?include=${ids.firstJazz}`)).body.events[0];
    cal.clock.advance(60_000);
    const updated = await cal.call('administrator', 'POST', `${NS}/events/${ids.firstJazz}`, { title: 'Jazz night opener' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      ...before,
      title: 'Jazz night opener',
      modified: '2026-11-21 16:42:37',
      modified_utc: '2026-11-21 16:42:37',
    });
    const moved = await cal.call('administrator', 'PATCH', `${NS}/events/${ids.firstJazz}`, {
      start_date: '2027-02-01 18:00:00',
      end_date: '2027-02-01 21:00:00',
      timezone: 'America/New_York',
      organizer: [],
    });
    expect(moved.body).toMatchObject({
      start_date: '2027-02-01 18:00:00',
      utc_start_date: '2027-02-01 23:00:00',
      timezone: 'America/New_York',
      timezone_abbr: 'EST',
      organizer: [],
      featured: true,
    });
  });

  it('trashes, and answers 410 the second time', async () => {
    const trashed = await cal.call('administrator', 'DELETE', `${NS}/events/${ids.market2}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ status: 'trash', slug: 'harbour-market-ii__trashed' });
    const again = await cal.call('administrator', 'DELETE', `${NS}/events/${ids.market2}`);
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('event-is-in-trash');
    expect((await cal.get(`${NS}/events/${ids.market2}`)).body.code).toBe('event-no-longer-available');
    expect((await cal.get(`${NS}/events?per_page=50`)).body.total).toBe(13);
  });

  it('keeps term counts and linked-post filters in step', async () => {
    const free = (await cal.get(`${NS}/tags/${ids.free}`)).body;
    expect(free.count).toBe(1);
    const venues = await cal.get(`${NS}/venues?has_events=true`);
    expect(venues.body.venues.map((v: { venue: string }) => v.venue).sort()).toEqual(['Harbour Front', 'Main Hall']);
    const forEvent = await cal.get(`${NS}/organizers?event=${ids.market}`);
    expect(forEvent.body.organizers.map((o: { organizer: string }) => o.organizer).sort()).toEqual(['Jane Doe', 'Market Co']);
    const deleted = await cal.call('administrator', 'DELETE', `${NS}/venues/${ids.hall}`);
    expect(deleted.body.status).toBe('trash');
    expect((await cal.call('administrator', 'DELETE', `${NS}/venues/${ids.hall}`)).body.code).toBe('venue-is-in-trash');
  });
});
