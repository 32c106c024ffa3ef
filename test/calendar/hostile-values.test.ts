import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar, type Role } from './harness.js';

const valid = { title: 'Valid', start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00' };
const HUGE = '9223372036854775808'; // 2^63: past PostgreSQL's bigint
const NUL = 'a\u0000b';

/** [method, path, body, status, code, the params a 400 names] */
type Case = [string, string, unknown, number, string, string[]?];

/**
 * Values PostgreSQL cannot take (ids past bigint, pages past any table, NUL characters, dates outside its years)
 * get the answer WordPress gives (a 404 for an event that does not exist, a 400 naming the parameter), the same
 * on every store, and never a 500.
 */
describe.each(storeVariants())('values past what a database holds ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  const check = async (cases: Case[], role: Role = 'administrator') => {
    const seen: unknown[] = [];
    const expected: unknown[] = [];
    for (const [method, path, body, status, code, params] of cases) {
      const answer = await cal.call(role, method, NS + path, body);
      seen.push([method, path, answer.status, answer.body?.code ?? '', ...(params ? [Object.keys(answer.body?.data?.params ?? {})] : [])]);
      expected.push([method, path, status, code, ...(params ? [params] : [])]);
    }
    expect(seen).toEqual(expected);
  };

  it('answers ids past 2^63 as ids of nothing', async () => {
    await check([
      ['GET', `/events/${HUGE}`, undefined, 404, 'rest-event-not-found'],
      ['GET', '/events/99999999999999999999999', undefined, 404, 'rest-event-not-found'],
      ['GET', '/events/9007199254740993', undefined, 404, 'rest-event-not-found'],
      ['POST', `/events/${HUGE}`, { title: 'x' }, 404, 'rest-event-not-found'],
      ['DELETE', `/events/${HUGE}`, undefined, 404, 'rest-event-not-found'],
      ['GET', `/venues/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['GET', `/organizers/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['DELETE', `/venues/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['GET', `/categories/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['GET', `/tags/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['DELETE', `/categories/${HUGE}`, undefined, 400, 'rest_invalid_param', ['id']],
      ['GET', `/events?categories=${HUGE}`, undefined, 400, 'rest_invalid_param', ['categories']],
      ['GET', `/events?venue=${HUGE}`, undefined, 400, 'rest_invalid_param', ['venue']],
      ['GET', `/events?post_parent=${HUGE}`, undefined, 400, 'rest_invalid_param', ['post_parent']],
      ['GET', `/events?include=${HUGE}`, undefined, 200, ''],
      ['GET', `/categories?include=${HUGE}`, undefined, 400, 'rest_invalid_param', ['include']],
      ['GET', `/categories?post=${HUGE}`, undefined, 400, 'rest_invalid_param', ['post']],
      ['GET', `/venues?event=${HUGE}`, undefined, 400, 'rest_invalid_param', ['event']],
      ['POST', '/events', { ...valid, author: HUGE }, 400, 'rest_invalid_param', ['author']],
      ['POST', '/events', { ...valid, venue: Number(HUGE) }, 400, 'rest_invalid_param', ['venue']],
      ['POST', '/categories', { name: 'Child', parent: HUGE }, 400, 'rest_invalid_param', ['parent']],
      // An unknown numeric term id in an event write is skipped, as TEC skips it.
      ['POST', '/events', { ...valid, categories: [HUGE] }, 201, ''],
    ]);
  });

  it('answers pages past the end of any list as past the end', async () => {
    await check(
      [
        ['GET', '/events?page=1e21', undefined, 404, 'event-archive-page-not-found'],
        ['GET', `/events?page=${HUGE}`, undefined, 404, 'event-archive-page-not-found'],
        ['GET', '/venues?page=1e21', undefined, 404, 'venue-archive-page-not-found'],
        ['GET', `/organizers?page=${HUGE}`, undefined, 404, 'organizer-archive-page-not-found'],
        ['GET', '/categories?page=1e21&hide_empty=false', undefined, 200, ''],
        ['GET', `/tags?page=${HUGE}`, undefined, 200, ''],
        ['GET', '/events?per_page=1e21', undefined, 200, ''],
      ],
      'anonymous',
    );
  });

  it('refuses NUL characters in text parameters, searches included', async () => {
    const event = (await cal.call('administrator', 'POST', `${NS}/events`, valid)).body;
    const venue = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Hall' })).body;
    const query = encodeURIComponent(NUL);
    await check([
      ['GET', `/events?search=${query}`, undefined, 400, 'rest_invalid_param', ['search']],
      ['GET', `/venues?search=${query}`, undefined, 400, 'rest_invalid_param', ['search']],
      ['GET', `/organizers?search=${query}`, undefined, 400, 'rest_invalid_param', ['search']],
      ['GET', `/categories?search=${query}`, undefined, 400, 'rest_invalid_param', ['search']],
      ['GET', `/tags?slug=${query}`, undefined, 400, 'rest_invalid_param', ['slug']],
      ['GET', `/events/by-slug/${query}`, undefined, 400, 'rest_invalid_param', ['slug']],
      ['GET', `/events?categories=${query}`, undefined, 400, 'rest_invalid_param', ['categories']],
      ['POST', '/events', { ...valid, title: NUL }, 400, 'rest_invalid_param', ['title']],
      ['POST', '/events', { ...valid, description: NUL, excerpt: NUL, slug: NUL }, 400, 'rest_invalid_param', ['description', 'slug', 'excerpt']],
      ['POST', `/events/${event.id}`, { title: NUL }, 400, 'rest_invalid_param', ['title']],
      ['POST', '/venues', { venue: NUL, city: NUL }, 400, 'rest_invalid_param', ['venue', 'city']],
      ['POST', `/venues/${venue.id}`, { address: NUL }, 400, 'rest_invalid_param', ['address']],
      ['POST', '/organizers', { organizer: 'Org', email: NUL }, 400, 'rest_invalid_param', ['email']],
      ['POST', '/categories', { name: NUL }, 400, 'rest_invalid_param', ['name']],
      ['POST', '/tags', { name: 'Tag', description: NUL, slug: NUL }, 400, 'rest_invalid_param', ['description', 'slug']],
      ['POST', '/events', { ...valid, venue: { venue: NUL } }, 400, 'rest_invalid_param', ['venue']],
    ]);
  });

  it('refuses dates outside the years 1 to 9999 and accepts those inside', async () => {
    const outside = ['9999-99-99', '99999-01-01', '253402300800', '-62167219200', '99999999999999999', '1e21', '@99999999999999', '+99999 years'];
    const cases: Case[] = [];
    for (const date of outside) {
      const query = encodeURIComponent(date);
      cases.push(['GET', `/events?start_date=${query}`, undefined, 400, 'rest_invalid_param', ['start_date']]);
      cases.push(['GET', `/events?ends_before=${query}`, undefined, 400, 'rest_invalid_param', ['ends_before']]);
      cases.push(['POST', '/events', { ...valid, start_date: date }, 400, 'rest_invalid_param', ['start_date']]);
      cases.push(['POST', '/events', { ...valid, date_utc: date }, 400, 'rest_invalid_param', ['date_utc']]);
    }
    cases.push(['GET', '/events?start_date=0001-01-03', undefined, 200, '']);
    cases.push(['POST', '/events', { ...valid, end_date: '9999-12-30 12:00:00' }, 201, '']);
    await check(cases);
    const far = (await cal.get(`${NS}/events?ends_after=9999-01-01`, 'administrator')).body;
    expect(far.events.map((e: { end_date: string }) => e.end_date)).toEqual(['9999-12-30 12:00:00']);
  });
});
