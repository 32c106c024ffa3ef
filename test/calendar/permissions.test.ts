import { describe, expect, it } from 'vitest';
import { newEvent } from '@siterest/core/testing';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2027-03-01 10:00:00',
  end_date: '2027-03-01 12:00:00',
  ...extra,
});

describe.each(storeVariants())('calendar permissions ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('refuses anonymous writes with 401 and signed-in users without the right with 403', async () => {
    for (const [method, path, body] of [
      ['POST', `${NS}/events`, event('x')],
      ['POST', `${NS}/venues`, { venue: 'x' }],
      ['POST', `${NS}/organizers`, { organizer: 'x' }],
      ['POST', `${NS}/categories`, { name: 'x' }],
      ['POST', `${NS}/tags`, { name: 'x' }],
    ] as const) {
      const anonymous = await cal.call('anonymous', method, path, body);
      expect([path, anonymous.status, anonymous.body.code]).toEqual([path, 401, 'rest_forbidden']);
      const subscriber = await cal.call('subscriber', method, path, body);
      expect([path, subscriber.status, subscriber.body.code]).toEqual([path, 403, 'rest_forbidden']);
    }
  });

  it('checks bad parameters before permissions (400 beats 401)', async () => {
    const missing = await cal.call('anonymous', 'POST', `${NS}/events`, { start_date: '2027-01-01', end_date: '2027-01-01' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_missing_callback_param');
  });

  it('scales a status back for those who may not publish', async () => {
    const contributor = await cal.call('contributor', 'POST', `${NS}/events`, event('By a contributor', { status: 'publish' }));
    expect(contributor.status).toBe(201);
    expect(contributor.body.status).toBe('pending');
    const contributorDefault = await cal.call('contributor', 'POST', `${NS}/events`, event('Contributor default'));
    expect(contributorDefault.body.status).toBe('draft');
    const author = await cal.call('author', 'POST', `${NS}/events`, event('By an author'));
    expect(author.body.status).toBe('publish');
    const venue = await cal.call('contributor', 'POST', `${NS}/venues`, { venue: 'Contributor hall', status: 'publish' });
    expect(venue.body.status).toBe('pending');
  });

  it('lets authors and contributors edit only their own events; editors edit all', async () => {
    const mine = (await cal.call('author', 'POST', `${NS}/events`, event('Author event'))).body.id;
    const theirs = (await cal.call('administrator', 'POST', `${NS}/events`, event('Admin event'))).body.id;
    expect((await cal.call('author', 'POST', `${NS}/events/${mine}`, { title: 'Renamed' })).status).toBe(200);
    const refused = await cal.call('author', 'POST', `${NS}/events/${theirs}`, { title: 'Hijacked' });
    expect(refused.status).toBe(403);
    expect((await cal.call('author', 'DELETE', `${NS}/events/${theirs}`)).status).toBe(403);
    expect((await cal.call('editor', 'POST', `${NS}/events/${theirs}`, { title: 'Edited by editor' })).status).toBe(200);
    const draft = (await cal.call('contributor', 'POST', `${NS}/events`, event('Contributor draft'))).body.id;
    expect((await cal.call('contributor', 'PUT', `${NS}/events/${draft}`, { title: 'Still a draft' })).status).toBe(200);
    expect((await cal.call('contributor', 'PUT', `${NS}/events/${theirs}`, { title: 'Nope' })).status).toBe(403);
    // An id that is no event: the generic right lets the handler answer 404.
    expect((await cal.call('editor', 'POST', `${NS}/events/987654`, { title: 'x' })).body.code).toBe('rest-event-not-found');
    expect((await cal.call('anonymous', 'DELETE', `${NS}/events/987654`)).status).toBe(401);
  });

  it('lets authors manage categories but only editors manage tags', async () => {
    expect((await cal.call('author', 'POST', `${NS}/categories`, { name: 'Author category' })).status).toBe(201);
    expect((await cal.call('author', 'POST', `${NS}/tags`, { name: 'Author tag' })).status).toBe(403);
    expect((await cal.call('contributor', 'POST', `${NS}/categories`, { name: 'Contributor category' })).status).toBe(403);
    expect((await cal.call('editor', 'POST', `${NS}/tags`, { name: 'Editor tag' })).status).toBe(201);
  });

  it('shows drafts only to those who may read them', async () => {
    const draft = (await cal.call('administrator', 'POST', `${NS}/events`, event('Hidden draft', { status: 'draft' }))).body;
    expect(draft.slug).toBe('');
    expect(draft.date_utc).toBe('0000-00-00 00:00:00');
    const anonymous = await cal.get(`${NS}/events/${draft.id}`);
    expect([anonymous.status, anonymous.body.code]).toEqual([403, 'event-not-accessible']);
    expect((await cal.get(`${NS}/events/${draft.id}`, 'editor')).status).toBe(200);
    const asAnonymous = await cal.get(`${NS}/events?status=draft`);
    expect([asAnonymous.status, asAnonymous.body.code]).toEqual([400, 'rest_invalid_param']);
    const asEditor = await cal.get(`${NS}/events?per_page=50`, 'editor');
    expect(asEditor.body.events.map((e: { id: number }) => e.id)).toContain(draft.id);
    expect(asEditor.body.rest_url).toContain('status=any');
    const publicList = await cal.get(`${NS}/events?per_page=50`);
    expect(publicList.body.events.map((e: { id: number }) => e.id)).not.toContain(draft.id);
    // Publishing a floating draft gives it today's date and a slug.
    cal.clock.advance(3_600_000);
    const published = await cal.call('administrator', 'PATCH', `${NS}/events/${draft.id}`, { status: 'publish' });
    expect(published.body).toMatchObject({ status: 'publish', slug: 'hidden-draft', date: '2026-11-21 17:41:37', date_utc: '2026-11-21 17:41:37' });
  });

  it('hides password-protected content unless the password is given', async () => {
    const stored = await cal.site.store.events.create(
      newEvent({ title: 'Members only', content: 'Secret agenda', password: 'letmein', slug: 'members-only', cost: ['$5'], startDateUtc: '2027-04-01 10:00:00', startDate: '2027-04-01 10:00:00' }),
    );
    const locked = await cal.get(`${NS}/events/${stored.id}`);
    expect([locked.status, locked.body.code]).toEqual([403, 'event-password-protected']);
    const unlocked = await cal.get(`${NS}/events/${stored.id}?password=letmein`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.description).toBe('<p>Secret agenda</p>');
    const listed = (await cal.get(`${NS}/events?include=${stored.id}`)).body.events[0];
    expect(listed).toMatchObject({
      title: 'Members only',
      description: '',
      cost: '',
      cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
      all_day: null,
      featured: null,
      categories: [],
      venue: [],
    });
    expect(Object.keys(listed.cost_details)).toEqual(['currency_symbol', 'currency_position', 'currency_code', 'values']);
    expect((await cal.get(`${NS}/events?include=${stored.id}&password=letmein`)).body.events[0].description).toBe('<p>Secret agenda</p>');
  });

  it('keeps trashed venues from anonymous readers but shows them to editors', async () => {
    const venue = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Closing hall' })).body;
    await cal.call('administrator', 'DELETE', `${NS}/venues/${venue.id}`);
    expect((await cal.get(`${NS}/venues/${venue.id}`)).body.code).toBe('venue-not-accessible');
    expect((await cal.get(`${NS}/venues/${venue.id}`, 'editor')).body.status).toBe('trash');
  });

  it('advertises in Allow only the methods the caller may use', async () => {
    const id = (await cal.call('administrator', 'POST', `${NS}/events`, event('Allow check'))).body.id;
    expect((await cal.get(`${NS}/events/${id}`)).header('Allow')).toBe('GET');
    expect((await cal.get(`${NS}/events/${id}`, 'administrator')).header('Allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    expect((await cal.get(`${NS}/events/${id}`, 'contributor')).header('Allow')).toBe('GET');
    expect((await cal.get(`${NS}/categories`, 'author')).header('Allow')).toBe('GET, POST');
  });
});
