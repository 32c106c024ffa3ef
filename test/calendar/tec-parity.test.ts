import { describe, expect, it } from 'vitest';
import { calendar } from '@siterest/core';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

const when = { start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00' };

/** Answers that differed from The Events Calendar's in a replayed client session, on every store. */
describe.each(storeVariants())('parity with The Events Calendar ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('accepts a cost that is not a string, and stores its values as TEC does', async () => {
    const made = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Object cost', ...when, cost: { amount: 5 } });
    expect([made.status, made.body.cost, made.body.cost_details]).toEqual([
      201,
      '$5',
      { currency_symbol: '', currency_code: '', currency_position: '', values: ['5'] },
    ]);
    const listed = await cal.call('administrator', 'POST', `${NS}/events/${made.body.id}`, { cost: [5, 10] });
    expect([listed.status, listed.body.cost, listed.body.cost_details.values]).toEqual([200, '$5 – $10', ['5', '10']]);
    const numeric = await cal.call('administrator', 'POST', `${NS}/events/${made.body.id}`, { cost: 7.5 });
    expect([numeric.status, numeric.body.cost, numeric.body.cost_details.values]).toEqual([200, '$7.5', ['7.5']]);
  });
});

describe.each(storeVariants())('parity with The Events Calendar: page sizes ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('reads a per_page written with an exponent as PHP\'s absint does, and clamps it to 50', async () => {
    for (const title of ['One', 'Two', 'Three']) await cal.call('administrator', 'POST', `${NS}/events`, { title, ...when });
    await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Hall' });
    const pageOf = async (list: string, perPage: string) => {
      const answer = await cal.get(`${NS}/${list}?per_page=${perPage}`);
      return [answer.status, answer.body[list].length, new URL(answer.body.rest_url).searchParams.get('per_page')];
    };
    expect(await pageOf('events', '2e0')).toEqual([200, 2, '2']);
    expect(await pageOf('events', '0.1e1')).toEqual([200, 1, '1']);
    expect(await pageOf('events', '1.5e1')).toEqual([200, 3, '15']);
    // Not a whole number: refused, as TEC's is_positive_int refuses it.
    const fraction = await cal.get(`${NS}/events?per_page=1.5e0`);
    expect([fraction.status, fraction.body.code]).toEqual([400, 'rest_invalid_param']);
    // Past every 64-bit integer: PHP saturates, and the page holds the 50 at most.
    expect(await pageOf('events', '1e21')).toEqual([200, 3, '50']);
    expect(await pageOf('venues', '3e0')).toEqual([200, 1, '3']);
  });
});

describe.each(storeVariants())('parity with The Events Calendar: searches ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('a search that matches nothing answers an empty list, total 0, for every list', async () => {
    await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Main Hall', city: 'Springfield' });
    await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Jazz Society' });
    await cal.call('administrator', 'POST', `${NS}/categories`, { name: 'Music' });
    await cal.call('administrator', 'POST', `${NS}/tags`, { name: 'Outdoor' });
    await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Jazz Night', ...when });
    for (const [list, extra] of [
      ['venues', ''],
      ['organizers', ''],
      ['events', ''],
      ['categories', '&hide_empty=0'],
      ['tags', '&hide_empty=0'],
    ] as const) {
      for (const role of ['anonymous', 'administrator'] as const) {
        // The unfiltered list first: its cached answer must not stand in for the search.
        expect((await cal.get(`${NS}/${list}?${extra.slice(1)}`, role)).body.total).toBeGreaterThan(0);
        const answer = await cal.get(`${NS}/${list}?search=zzzz${extra}`, role);
        expect([list, role, answer.status, answer.body[list], answer.body.total, answer.header('X-TEC-Total')]).toEqual([list, role, 200, [], 0, '0']);
      }
    }
  });
});

describe.each(storeVariants().flatMap((store) => (['express', 'fastify'] as const).map((adapter) => ({ store, adapter, label: `${store.label}, ${adapter}` }))))(
  'parity with The Events Calendar: Allow on a missing record ($label)',
  ({ store, adapter }) => {
  const cal = useCalendar({ store, adapter });

  it('lists every method the matched route allows the caller, whichever endpoint failed', async () => {
    const venue = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Main Hall' });
    const organizer = await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Jazz Society' });
    const event = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Jazz Night', ...when });
    const category = await cal.call('administrator', 'POST', `${NS}/categories`, { name: 'Music' });
    const tag = await cal.call('administrator', 'POST', `${NS}/tags`, { name: 'Outdoor' });
    for (const [list, id] of [
      ['venues', venue.body.id],
      ['organizers', organizer.body.id],
      ['events', event.body.id],
      ['categories', category.body.id],
      ['tags', tag.body.id],
    ] as const) {
      const existing = (await cal.get(`${NS}/${list}/${id}`, 'administrator')).header('Allow');
      expect(existing?.split(', ').length).toBeGreaterThan(1);
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
        const answer = await cal.call('administrator', method, `${NS}/${list}/999999`, method === 'GET' || method === 'DELETE' ? undefined : {});
        if (answer.status === 404 && answer.body.code === 'rest_no_route') continue;
        expect([list, method, answer.status >= 400, answer.header('Allow')]).toEqual([list, method, true, existing]);
      }
      const anonymous = await cal.call('anonymous', 'DELETE', `${NS}/${list}/999999`);
      expect([list, anonymous.header('Allow')]).toEqual([list, (await cal.get(`${NS}/${list}/${id}`)).header('Allow')]);
    }
  });
  },
);

describe.each(storeVariants())('parity with The Events Calendar: venue and organizer fields ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const keys = (body: Record<string, unknown>) => Object.keys(body).filter((key) => !['json_ld'].includes(key));

  it('writes the state-or-province from what each create and update sends, and leaves out what is empty', async () => {
    const hall = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Main Hall', city: 'Springfield', state: 'IL', country: 'United States' });
    expect([hall.status, hall.body.stateprovince]).toEqual([201, 'IL']);
    // A partial update that names none of state, province or state-or-province empties it, as TEC's save does.
    const partial = await cal.call('administrator', 'POST', `${NS}/venues/${hall.body.id}`, { city: 'Shelbyville' });
    expect([partial.status, partial.body.city, partial.body.state, 'stateprovince' in partial.body]).toEqual([200, 'Shelbyville', 'IL', false]);
    // The state counts only with no country, "US" or "United States"; else the province.
    const abroad = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Abroad', state: 'Kent', country: 'United Kingdom' });
    expect([abroad.status, 'stateprovince' in abroad.body]).toEqual([201, false]);
    const full = await cal.call('administrator', 'POST', `${NS}/venues/${abroad.body.id}`, {
      venue: 'Abroad',
      address: '1 Front Street',
      city: 'Toronto',
      country: 'Canada',
      state: 'ON',
      province: 'Ontario',
      zip: 'M5V',
      phone: '+1 416 555 0100',
      website: 'http://example.com/abroad',
    });
    expect([full.status, full.body.stateprovince]).toEqual([200, 'Ontario']);
    expect(keys(full.body)).toEqual(keys((await cal.get(`${NS}/venues/${abroad.body.id}`)).body));
    const us = await cal.call('administrator', 'POST', `${NS}/venues/${abroad.body.id}`, { state: 'NY', country: 'US', province: 'Ontario' });
    expect(us.body.stateprovince).toBe('NY');
    const given = await cal.call('administrator', 'POST', `${NS}/venues/${abroad.body.id}`, { stateprovince: 'Somewhere', state: 'NY' });
    expect(given.body.stateprovince).toBe('Somewhere');
    // Emptied fields leave the answer, on venues and organizers alike.
    const emptied = await cal.call('administrator', 'POST', `${NS}/venues/${abroad.body.id}`, { phone: '', website: '', zip: '' });
    expect(['phone', 'website', 'zip', 'stateprovince'].filter((key) => key in emptied.body)).toEqual([]);
    const organizer = await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Jazz Society', phone: '555', email: 'jazz@example.com' });
    expect([organizer.body.phone, 'website' in organizer.body]).toEqual(['555', false]);
    const organizerEmptied = await cal.call('administrator', 'POST', `${NS}/organizers/${organizer.body.id}`, { phone: '' });
    expect([organizerEmptied.status, 'phone' in organizerEmptied.body, 'email' in organizerEmptied.body]).toEqual([200, false, true]);
  });
});

describe.each(storeVariants())('parity with The Events Calendar: JSON-LD offers ($label)', (variant) => {
  const usd = useCalendar({ store: variant });
  const euro = useCalendar({ store: variant, settings: { currency_code: 'EUR', currency_symbol: '€' } });

  it('gives the currency code setting as priceCurrency, never the symbol', async () => {
    for (const [cal, code] of [
      [usd, 'USD'],
      [euro, 'EUR'],
    ] as const) {
      const made = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Priced', ...when, cost: '$5' });
      expect(made.body.cost_details.currency_symbol).toBe('$');
      const single = await cal.get(`${NS}/events/${made.body.id}`);
      expect(single.body.json_ld.offers).toMatchObject({ '@type': 'Offer', price: '5', priceCurrency: code });
    }
  });
});

describe.each(storeVariants())('parity with The Events Calendar: term list order ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('orders ascending only for ASC in any case; any other order is descending', async () => {
    for (const list of ['categories', 'tags']) {
      for (const name of ['Bravo', 'Alpha', 'Charlie']) await cal.call('administrator', 'POST', `${NS}/${list}`, { name });
      const names = async (query: string) => (await cal.get(`${NS}/${list}?hide_empty=0${query}`)).body[list].map((term: { name: string }) => term.name);
      const ascending = ['Alpha', 'Bravo', 'Charlie'];
      const descending = [...ascending].reverse();
      expect(await names('')).toEqual(ascending);
      for (const order of ['asc', 'ASC', 'Asc']) expect([order, await names(`&order=${order}`)]).toEqual([order, ascending]);
      for (const order of ['desc', 'sideways', 'ascending']) expect([order, await names(`&order=${order}`)]).toEqual([order, descending]);
      // An unknown orderby sorts by name, in the order asked.
      expect(await names('&orderby=sideways&order=desc')).toEqual(descending);
      expect(await names('&orderby=NAME')).toEqual(ascending);
    }
  });
});

describe.each(storeVariants())('parity with The Events Calendar: password-protected posts through wp/v2 ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const WP = '/wp/v2';

  it('sets a password through WordPress\'s post route, with its permission rules and answer shape', async () => {
    const made = await cal.call('author', 'POST', `${NS}/events`, { title: 'Members only', ...when, description: 'Secret agenda', cost: '$5', all_day: false });
    const id = made.body.id as number;
    // Others may not edit the author's event; anonymous callers neither.
    const refused = await cal.call('contributor', 'POST', `${WP}/cal_events/${id}`, { password: 'x' });
    expect([refused.status, refused.body.code]).toEqual([403, 'rest_cannot_edit']);
    expect((await cal.call('anonymous', 'POST', `${WP}/cal_events/${id}`, { password: 'x' })).status).toBe(401);
    expect((await cal.call('author', 'POST', `${WP}/cal_events/999999`, { password: 'x' })).body.code).toBe('rest_post_invalid_id');
    expect((await cal.call('author', 'POST', `${WP}/cal_venue/${id}`, { password: 'x' })).body.code).toBe('rest_post_invalid_id');

    const set = await cal.call('author', 'POST', `${WP}/cal_events/${id}`, { password: 'letmein', title: 'Members only!', excerpt: 'Short' });
    expect(set.status).toBe(200);
    expect(Object.keys(set.body)).toEqual([
      'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt',
      'author', 'featured_media', 'template', 'meta', 'tags', 'cal_events_cat', 'permalink_template', 'generated_slug', 'class_list', '_links',
    ]);
    expect(set.body).toMatchObject({
      id,
      password: 'letmein',
      status: 'publish',
      type: 'cal_events',
      title: { raw: 'Members only!', rendered: 'Members only!' },
      content: { raw: 'Secret agenda', rendered: '<p>Secret agenda</p>\n', protected: true, block_version: 0 },
      excerpt: { raw: 'Short', rendered: '<p>Short</p>\n', protected: true },
      author: cal.users.author.id,
      featured_media: 0,
    });
    expect(set.body.meta).toMatchObject({ _EventCost: '$5', _EventCurrencySymbol: '$', _EventAllDay: false });
    expect(set.body._links.self[0]).toEqual({ href: `http://127.0.0.1:8080/api${WP}/cal_events/${id}`, targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH'] } });

    // Read: anonymous callers get the post with its content withheld; a wrong password is refused.
    const view = await cal.get(`${WP}/cal_events/${id}`);
    expect([view.status, view.body.content, view.body.excerpt, 'password' in view.body]).toEqual([
      200,
      { rendered: '', protected: true },
      { rendered: '', protected: true },
      false,
    ]);
    expect((await cal.get(`${WP}/cal_events/${id}?password=wrong`)).body.code).toBe('rest_post_incorrect_password');
    expect((await cal.get(`${WP}/cal_events/${id}?password=letmein`)).body.content.rendered).toBe('<p>Secret agenda</p>\n');
    expect((await cal.get(`${WP}/cal_events/${id}?context=edit`)).body.code).toBe('rest_forbidden_context');

    // The calendar's own routes now treat the event as protected, as TEC does.
    const listed = (await cal.get(`${NS}/events?include=${id}`)).body.events[0];
    expect(listed).toMatchObject({ title: 'Members only!', description: '', excerpt: '', all_day: null, cost: '' });
    expect((await cal.get(`${NS}/events/${id}`)).body.code).toBe('event-password-protected');
    const unlocked = await cal.get(`${NS}/events/${id}?password=letmein`);
    expect([unlocked.status, unlocked.body.description, 'json_ld' in unlocked.body]).toEqual([200, '<p>Secret agenda</p>', false]);

    // Removing the password, publishing rules and drafts of the same route.
    const cleared = await cal.call('author', 'PATCH', `${WP}/cal_events/${id}`, { password: '', status: 'draft', slug: 'members' });
    expect([cleared.body.password, cleared.body.status, cleared.body.content.protected]).toEqual(['', 'draft', false]);
    expect('json_ld' in (await cal.get(`${NS}/events/${id}`, 'author')).body).toBe(true);
    const contributorEvent = await cal.call('contributor', 'POST', `${NS}/events`, { title: 'Pending', ...when });
    const publish = await cal.call('contributor', 'POST', `${WP}/cal_events/${contributorEvent.body.id}`, { status: 'publish' });
    expect([publish.status, publish.body.code]).toEqual([403, 'rest_cannot_publish']);
  });

  it('serves venues and organizers the same way, and lists the routes in the index', async () => {
    const venue = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Club', city: 'Springfield' });
    const organizer = await cal.call('administrator', 'POST', `${NS}/organizers`, { organizer: 'Society', phone: '555' });
    const protectedVenue = await cal.call('administrator', 'POST', `${WP}/cal_venue/${venue.body.id}`, { password: 'pw', date: '2026-11-01T10:00:00' });
    expect(protectedVenue.body).toMatchObject({ type: 'cal_venue', password: 'pw', date: '2026-11-01T10:00:00', date_gmt: '2026-11-01T10:00:00' });
    expect(protectedVenue.body.meta).toMatchObject({ _VenueCity: 'Springfield' });
    const venueList = (await cal.get(`${NS}/venues`)).body.venues.find((v: { id: number }) => v.id === venue.body.id);
    expect(venueList).toMatchObject({ venue: [], city: '' });
    const venueSingle = await cal.get(`${NS}/venues/${venue.body.id}?password=pw`);
    expect([venueSingle.body.city, 'json_ld' in venueSingle.body]).toEqual(['Springfield', false]);
    // An event at a protected venue gets `location: false` in its JSON-LD, as TEC's venue JSON-LD is empty.
    const event = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'At the club', ...when, venue: venue.body.id });
    expect((await cal.get(`${NS}/events/${event.body.id}`)).body.json_ld.location).toBe(false);
    const org = await cal.call('administrator', 'PUT', `${WP}/cal_organizer/${organizer.body.id}`, { title: { raw: 'Society & Co' } });
    expect(org.body.title).toEqual({ raw: 'Society & Co', rendered: 'Society &#038; Co' });
    const index = (await cal.get('/')).body.routes;
    for (const type of ['cal_venue', 'cal_organizer', 'cal_events']) {
      expect(index[`${WP}/${type}/(?P<id>[\\d]+)`].methods).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    }
  });
});

describe.each(storeVariants())('parity with WordPress: the calendar\'s posts through wp/v2 ($label)', (variant) => {
  const cal = useCalendar({ store: variant });
  const WP = '/wp/v2';

  it('cuts an excerpt made from the content to excerpt_length words, as wp_trim_words does, and never a stored one', async () => {
    const description = 'One two three four five six seven eight';
    const made = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Words', ...when, description });
    const excerptOf = async (query: string) => (await cal.get(`${WP}/cal_events/${made.body.id}${query}`)).body.excerpt.rendered;
    expect(await excerptOf('')).toBe(`<p>${description}</p>\n`);
    expect(await excerptOf('?excerpt_length=3')).toBe('<p>One two three [&hellip;]</p>\n');
    expect(await excerptOf('?excerpt_length=8')).toBe(`<p>${description}</p>\n`);
    expect(await excerptOf('?excerpt_length=2000000000000')).toBe(`<p>${description}</p>\n`);
    // PHP's preg_split limit of count + 1: 0 keeps no word, -1 and -2 (no limit) drop the last word, below that
    // (no split) only the "more" is left.
    expect(await excerptOf('?excerpt_length=0')).toBe('<p> [&hellip;]</p>\n');
    expect(await excerptOf('?excerpt_length=-1')).toBe('<p>One two three four five six seven [&hellip;]</p>\n');
    expect(await excerptOf('?excerpt_length=-2')).toBe('<p>One two three four five six seven [&hellip;]</p>\n');
    expect(await excerptOf('?excerpt_length=-3')).toBe('<p> [&hellip;]</p>\n');
    // A number past every float: PHP's `(int)` of the string reads INF, which it casts to 0.
    expect(await excerptOf('?excerpt_length=1e999')).toBe('<p> [&hellip;]</p>\n');
    // PHP (since 7.1) casts a number string with an exponent or a fraction through its value: "3e0" is 3.
    expect(await excerptOf('?excerpt_length=3e0')).toBe('<p>One two three [&hellip;]</p>\n');
    expect(await excerptOf('?excerpt_length=0.2e1')).toBe('<p>One two [&hellip;]</p>\n');
    const refused = await cal.get(`${WP}/cal_events/${made.body.id}?excerpt_length=some`);
    expect([refused.status, refused.body.code, refused.body.data.params]).toEqual([400, 'rest_invalid_param', { excerpt_length: 'excerpt_length is not of type integer.' }]);
    // An update's answer is cut too: the posts controller reads the value wherever it was sent.
    const updated = await cal.call('administrator', 'POST', `${WP}/cal_events/${made.body.id}?excerpt_length=2`, { title: 'Words!' });
    expect([updated.status, updated.body.excerpt.rendered]).toEqual([200, '<p>One two [&hellip;]</p>\n']);
    // Unvalidated there, a keyed value is an array to PHP, and `(int)` of an array that holds anything is 1.
    const keyed = await cal.call('administrator', 'POST', `${WP}/cal_events/${made.body.id}?excerpt_length[a]=5`, { title: 'Words!!' });
    expect([keyed.status, keyed.body.excerpt.rendered]).toEqual([200, '<p>One [&hellip;]</p>\n']);
    const stored = await cal.call('administrator', 'POST', `${WP}/cal_events/${made.body.id}`, { excerpt: 'A stored excerpt of six words' });
    expect(stored.status).toBe(200);
    expect(await excerptOf('?excerpt_length=1')).toBe('<p>A stored excerpt of six words</p>\n');
  });
});

describe.each(storeVariants())('password protection from server-side code ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('sets and removes a post password through the library API', async () => {
    const made = await cal.call('administrator', 'POST', `${NS}/events`, { title: 'Board meeting', ...when, description: 'Minutes' });
    // A list answered (and cached) before the change must not outlive it.
    expect((await cal.get(`${NS}/events?include=${made.body.id}`)).body.events[0].description).toBe('<p>Minutes</p>');
    const updated = await calendar.setPostPassword(cal.site.store, made.body.id, 'board');
    expect(updated).toMatchObject({ id: made.body.id, password: 'board' });
    expect((await cal.get(`${NS}/events?include=${made.body.id}`)).body.events[0]).toMatchObject({ description: '', all_day: null });
    expect((await cal.get(`${NS}/events/${made.body.id}?password=board`)).body.description).toBe('<p>Minutes</p>');
    await calendar.setPostPassword(cal.site.store, made.body.id, '');
    expect((await cal.get(`${NS}/events/${made.body.id}`)).body.description).toBe('<p>Minutes</p>');
    expect(await calendar.setPostPassword(cal.site.store, 999999, 'x')).toBeNull();
    await expect(calendar.setPostPassword(cal.site.store, made.body.id, 'x'.repeat(256))).rejects.toThrow(TypeError);
  });
});

describe.each(storeVariants())('deviations kept on purpose ($label)', (variant) => {
  const cal = useCalendar({ store: variant });

  it('links an existing tag given by name, reads UTC+2 as two hours, and changes only named fields', async () => {
    const tag = await cal.call('administrator', 'POST', `${NS}/tags`, { name: 'Outdoor' });
    const made = await cal.call('administrator', 'POST', `${NS}/events`, {
      title: 'Picnic',
      start_date: '2027-06-01 10:00:00',
      end_date: '2027-06-01 12:00:00',
      timezone: 'UTC+2',
      tags: ['Outdoor'],
      featured: true,
      website: 'http://example.com/picnic',
    });
    expect(made.body.tags.map((t: { id: number }) => t.id)).toEqual([tag.body.id]);
    expect((await cal.get(`${NS}/tags?hide_empty=0`)).body.total).toBe(1);
    expect([made.body.utc_start_date, made.body.utc_end_date]).toEqual(['2027-06-01 08:00:00', '2027-06-01 10:00:00']);
    const updated = await cal.call('administrator', 'POST', `${NS}/events/${made.body.id}`, { title: 'Picnic (moved)' });
    expect(updated.body).toMatchObject({ title: 'Picnic (moved)', featured: true, website: 'http://example.com/picnic', date: made.body.date });
  });
});
