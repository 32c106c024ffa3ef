import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

/** wp_insert_post on a post leaving the trash gives it back the slug it had, unique again. */
describe.each(storeVariants())('a post leaving the trash ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const event = (title: string) => cal.call('administrator', 'POST', `${NS}/events`, { title, start_date: '2026-12-05 09:00:00', end_date: '2026-12-05 14:00:00' });

  it('gets its slug back when nothing took it meanwhile', async () => {
    const created = (await event('Winter Fair')).body;
    expect(created.slug).toBe('winter-fair');
    expect((await cal.call('administrator', 'DELETE', `${NS}/events/${created.id}`)).body.slug).toBe('winter-fair__trashed');
    // Still in the trash: an edit keeps the suffix.
    expect((await cal.call('administrator', 'POST', `${NS}/events/${created.id}`, { excerpt: 'Mulled wine' })).body.slug).toBe('winter-fair__trashed');
    const restored = await cal.call('administrator', 'POST', `${NS}/events/${created.id}`, { status: 'publish' });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ status: 'publish', slug: 'winter-fair' });
    expect((await cal.get(`${NS}/events/by-slug/winter-fair`)).body.id).toBe(created.id);
  });

  it('gets it made unique when another post took it, in place of a slug the request names (as WordPress)', async () => {
    const first = (await event('Spring Fair')).body;
    await cal.call('administrator', 'DELETE', `${NS}/events/${first.id}`);
    const second = (await event('Spring Fair')).body;
    expect(second.slug).toBe('spring-fair');
    const restored = await cal.call('administrator', 'POST', `${NS}/events/${first.id}`, { status: 'draft', slug: 'elsewhere' });
    expect(restored.body).toMatchObject({ status: 'draft', slug: 'spring-fair-2' });
  });

  it('does the same for venues and organizers', async () => {
    const venue = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Old Mill' })).body;
    expect((await cal.call('administrator', 'DELETE', `${NS}/venues/${venue.id}`)).body.slug).toBe('old-mill__trashed');
    expect((await cal.call('administrator', 'POST', `${NS}/venues/${venue.id}`, { status: 'publish' })).body).toMatchObject({ status: 'publish', slug: 'old-mill' });
    const organizer = (await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Mill Friends' })).body;
    await cal.call('administrator', 'DELETE', `${NS}/organizers/${organizer.id}`);
    await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Mill Friends' });
    expect((await cal.call('administrator', 'POST', `${NS}/organizers/${organizer.id}`, { status: 'publish' })).body).toMatchObject({ slug: 'mill-friends-2' });
  });
});
