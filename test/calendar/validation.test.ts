import { describe, expect, it } from 'vitest';
import { rawRequest } from '@siterest/core/testing';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

const valid = { title: 'Valid', start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00' };

describe.each(storeVariants())('calendar input validation ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const invalid = async (method: string, path: string, body: unknown, param: string) => {
    const answer = await cal.call('administrator', method, path, body);
    expect([answer.status, answer.body.code, Object.keys(answer.body.data.params ?? {})]).toEqual([400, 'rest_invalid_param', [param]]);
    return answer.body;
  };

  it('refuses bad list parameters with rest_invalid_param', async () => {
    for (const [query, param] of [
      ['per_page=0', 'per_page'],
      ['per_page=-3', 'per_page'],
      ['per_page=abc', 'per_page'],
      ['page=0', 'page'],
      ['page=1.5', 'page'],
      ['start_date=notadate', 'start_date'],
      ['end_date=31/31/2027', 'end_date'],
      ['starts_after=soon-ish', 'starts_after'],
      ['categories=nope', 'categories'],
      ['tags=999', 'tags'],
      ['venue=abc', 'venue'],
      ['organizer=12345', 'organizer'],
      ['featured=maybe', 'featured'],
      ['include=1,x', 'include'],
      ['strict_dates=', 'strict_dates'],
      ['status=bogus', 'status'],
      ['ticketed=true', 'ticketed'],
      ['post_parent=4242', 'post_parent'],
    ]) {
      const answer = await cal.get(`${NS}/events?${query}`, 'administrator');
      expect([query, answer.status, answer.body.code, Object.keys(answer.body.data.params)]).toEqual([query, 400, 'rest_invalid_param', [param]]);
    }
    const ticketed = await cal.get(`${NS}/events?ticketed=1`);
    expect(ticketed.body.data.params.ticketed).toBe('Event Tickets plugin is not activated.');
    expect(ticketed.body.data.details.ticketed.code).toBe('event-tickets-not-active');
  });

  it('caps pages at 50 events', async () => {
    const answer = await cal.get(`${NS}/events?per_page=500`);
    expect(answer.status).toBe(200);
    expect(answer.body.rest_url).toContain('per_page=50');
  });

  it('refuses bad event fields', async () => {
    await invalid('POST', `${NS}/events`, { ...valid, title: '' }, 'title');
    await invalid('POST', `${NS}/events`, { ...valid, title: 42 }, 'title');
    await invalid('POST', `${NS}/events`, { ...valid, start_date: 'someday' }, 'start_date');
    await invalid('POST', `${NS}/events`, { ...valid, start_date: 1700000000 }, 'start_date');
    await invalid('POST', `${NS}/events`, { ...valid, timezone: 'Mars/Olympus' }, 'timezone');
    await invalid('POST', `${NS}/events`, { ...valid, website: 'not a url' }, 'website');
    await invalid('POST', `${NS}/events`, { ...valid, status: 'published' }, 'status');
    await invalid('POST', `${NS}/events`, { ...valid, author: 999 }, 'author');
    await invalid('POST', `${NS}/events`, { ...valid, show_map: 'perhaps' }, 'show_map');
    await invalid('POST', `${NS}/events`, { ...valid, all_day: 'yes' }, 'all_day');
    await invalid('POST', `${NS}/events`, { ...valid, cost: { amount: [5] } }, 'cost');
    await invalid('POST', `${NS}/events`, { ...valid, venue: 999 }, 'venue');
    await invalid('POST', `${NS}/events`, { ...valid, organizer: [1, 'x'] }, 'organizer');
    // Featured images need the media library, which siterest does not have yet.
    await invalid('POST', `${NS}/events`, { ...valid, image: 'https://example.org/a.jpg' }, 'image');
    await invalid('POST', `${NS}/venues`, { venue: 'Hall', show_map: true }, 'show_map');
    await invalid('POST', `${NS}/venues`, { venue: 'Hall', website: 'nope' }, 'website');
    await invalid('POST', `${NS}/organizers`, { organizer: 'Org', image: '12' }, 'image');
    await invalid('POST', `${NS}/categories`, { name: 'Child', parent: 9999 }, 'parent');
  });

  it('names the missing parameters', async () => {
    const answer = await cal.call('administrator', 'POST', `${NS}/events`, { description: 'no title or dates' });
    expect(answer.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date, end_date',
      data: { status: 400, params: ['title', 'start_date', 'end_date'] },
    });
  });

  it('answers inline venue and organizer problems with TEC codes', async () => {
    const noName = await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, venue: { city: 'Nowhere' } });
    expect([noName.status, noName.body.code]).toEqual([400, 'could-not-create-venue']);
    const badId = await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, organizer: [{ id: 424242 }] });
    expect([badId.status, badId.body.code, badId.body.message]).toEqual([400, 'invalid-linked-post-id', 'The provided linked post ID is not valid']);
    const badField = await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, venue: { venue: 'X', website: 'bad url' } });
    expect([badField.status, badField.body.code]).toEqual([400, 'rest_invalid_param']);
    // Nothing half-made was left behind by the failed writes.
    expect((await cal.get(`${NS}/venues?search=Nowhere`)).body.total).toBe(0);
    expect((await cal.get(`${NS}/events`)).body.total).toBe(0);
  });

  it('rolls back an event write that fails after creating its inline venue', async () => {
    const before = (await cal.get(`${NS}/venues`, 'administrator')).body.total;
    const failing = await cal.call('administrator', 'POST', `${NS}/events`, {
      ...valid,
      venue: { venue: 'Brand new hall' },
      organizer: [{ organizer: 'Fine org' }, { id: 777777 }],
    });
    expect(failing.body.code).toBe('invalid-linked-post-id');
    expect((await cal.get(`${NS}/venues`, 'administrator')).body.total).toBe(before);
    expect((await cal.get(`${NS}/organizers?search=Fine`, 'administrator')).body.total).toBe(0);
  });

  it('reads dates in every format TEC accepts, in the event time zone', async () => {
    const create = async (extra: Record<string, unknown>) => (await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, ...extra })).body;
    expect(await create({ start_date: '2027-05-01', end_date: '2027-05-01' })).toMatchObject({ start_date: '2027-05-01 00:00:00', end_date: '2027-05-01 00:00:00' });
    expect(await create({ start_date: '2027-05-01T18:30:00Z', end_date: '2027-05-01T20:00:00Z', timezone: 'Europe/Paris' })).toMatchObject({
      start_date: '2027-05-01 20:30:00',
      utc_start_date: '2027-05-01 18:30:00',
      timezone_abbr: 'CEST',
    });
    expect(await create({ start_date: '1809000000', end_date: '1809003600' })).toMatchObject({ utc_start_date: '2027-04-29 12:00:00', utc_end_date: '2027-04-29 13:00:00' });
    expect(await create({ start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' })).toMatchObject({ start_date: '2026-11-22 09:00:00', end_date: '2026-11-22 11:00:00' });
    expect(await create({ start_date: 'next wednesday 4pm', end_date: 'next wednesday 6pm' })).toMatchObject({ start_date: '2026-11-25 16:00:00' });
  });

  it('snaps all-day events to whole days and never ends before the start', async () => {
    const allDay = (await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, all_day: true, start_date: '2027-06-01 15:00:00', end_date: '2027-06-03 09:00:00' })).body;
    expect(allDay).toMatchObject({ all_day: true, start_date: '2027-06-01 00:00:00', end_date: '2027-06-03 23:59:59' });
    const backwards = (await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, start_date: '2027-06-10 15:00:00', end_date: '2027-06-10 09:00:00' })).body;
    expect(backwards).toMatchObject({ end_date: '2027-06-10 15:00:00', utc_end_date: '2027-06-10 15:00:00' });
  });

  it('never answers 500 to malformed bodies', async () => {
    for (const body of ['{"title":', '[]', '"just a string"', 'null', '{"title":{"nested":true},"start_date":[],"end_date":{}}']) {
      const answer = await rawRequest(`${cal.server.url}${NS}/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: cal.users.administrator.auth },
        body,
      });
      expect([body, answer.status < 500]).toEqual([body, true]);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });
});
