import { describe, expect, it } from 'vitest';
import { antispambot, decodeAntispambot } from '../../src/namespaces/calendar/format/antispambot.js';
import { parseCostInput } from '../../src/namespaces/calendar/format/cost.js';
import { escJs } from '../../src/namespaces/calendar/format/escape.js';
import { tecExcerpt } from '../../src/namespaces/calendar/format/excerpt.js';
import {
  eventJsonLd,
  eventJsonLdUrl,
  jsonLdDate,
  jsonLdName,
  jsonLdValidFrom,
  organizerJsonLd,
  venueJsonLd,
} from '../../src/namespaces/calendar/format/json-ld.js';
import { resolveSettings } from '../../src/settings.js';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../../src/store/records.js';
import { newEvent, newOrganizer, newVenue } from '../../src/testing/fixtures.js';
import { captureJson, captureRequestBody, captureText, translate } from './captures.js';

/* The capture site: home http://127.0.0.1:8080, UTC by offset, "$"/USD/prefix, pretty permalinks. */
const SETTINGS = resolveSettings({ url: 'http://127.0.0.1:8080' });
const CREATED = '2026-11-21 16:41:38';

/** Records as the capture site stored them: created at CREATED, with the id WordPress gave them. */
const STAMP = { date: CREATED, dateGmt: CREATED, modified: CREATED, modifiedGmt: CREATED };

function venueFrom(capture: string, id: number): VenueRecord {
  const body = captureRequestBody(capture)!;
  const venue = newVenue({
    ...STAMP,
    title: body.venue,
    content: body.description ?? '',
    address: body.address ?? '',
    city: body.city ?? '',
    country: body.country ?? '',
    province: body.province ?? '',
    state: body.state ?? '',
    zip: body.zip ?? '',
    phone: body.phone ?? '',
    website: body.website ?? '',
    stateProvince: body.stateprovince ?? body.state ?? body.province ?? '',
  });
  return { ...venue, id };
}

function organizerFrom(fields: { id: number; organizer: string; description?: string; email?: string; phone?: string; website?: string }): OrganizerRecord {
  const organizer = newOrganizer({
    ...STAMP,
    title: fields.organizer,
    content: fields.description ?? '',
    phone: fields.phone ?? '',
    website: fields.website ?? '',
    email: fields.email ?? '',
  });
  return { ...organizer, id: fields.id };
}

/** An event as the create capture stored it (dates/zone from the response, raw fields from the request). */
function eventFrom(capture: string, id: number): EventRecord {
  const body = captureRequestBody(capture)!;
  const wire = captureJson(capture);
  const cost = parseCostInput(body.cost ?? '')!;
  const event = newEvent({
    ...STAMP,
    title: body.title,
    content: body.description ?? '',
    excerpt: body.excerpt ?? '',
    status: wire.status,
    startDate: wire.start_date,
    endDate: wire.end_date,
    startDateUtc: wire.utc_start_date,
    endDateUtc: wire.utc_end_date,
    timezone: wire.timezone,
    allDay: wire.all_day,
    cost: cost.rows,
    currencySymbol: cost.currencySymbol,
    currencyCode: cost.currencyCode,
    currencyPosition: cost.currencyPosition,
  });
  return { ...event, id };
}

const VENUE_5 = venueFrom('016-venue-create', 5);
const VENUE_6 = venueFrom('017-venue-create-minimal', 6);
const VENUE_13: VenueRecord = { ...venueFrom('017-venue-create-minimal', 13), title: 'Harbour Front', city: 'Portside', country: 'United Kingdom' };
const JANE = organizerFrom({ ...captureRequestBody('019-organizer-create')!, id: 7 });
const ACME = organizerFrom({ ...captureRequestBody('020-organizer-create-minimal')!, id: 8 });
const MARKET = organizerFrom({ id: 14, organizer: 'Market Co', email: 'market@example.com' });

/** JSON text with every `email` decoded, so random antispambot output compares. */
function normalized(value: unknown): string {
  return JSON.stringify(value, (key, v) => (key === 'email' && typeof v === 'string' ? decodeAntispambot(v) : v));
}

describe('eventJsonLd reproduces the captured json_ld (key order included)', () => {
  interface Case {
    capture: string;
    about: string;
    from: string;
    id: number;
    permalink: string;
    venue?: VenueRecord;
    organizer?: OrganizerRecord;
  }
  const jazzNight = { permalink: 'http://127.0.0.1:8080/event/jazz-night/', venue: VENUE_5, organizer: JANE };
  it.each<Case>([
    { capture: '048-event-single', about: 'venue, two organizers (only the first appears) and a cost', from: '021-event-create-full', id: 9, ...jazzNight },
    { capture: '049-event-single-all-day', about: 'all-day UTC+0 event, free, empty venue address', from: '022-event-create-all-day', id: 10, permalink: 'http://127.0.0.1:8080/event/park-clean-up-day/', venue: VENUE_6 },
    { capture: '050-event-single-inline-linked', about: 'inline venue and organizer, no cost → no offers', from: '025-event-create-inline-venue-organizer', id: 15, permalink: 'http://127.0.0.1:8080/event/pop-up-market/', venue: VENUE_13, organizer: MARKET },
    { capture: '051-event-single-by-slug', about: 'by slug, same as 048', from: '021-event-create-full', id: 9, ...jazzNight },
    { capture: '053-event-single-draft-authed', about: 'a draft, with the quirky url', from: '026-event-create-draft', id: 16, permalink: 'http://127.0.0.1:8080/?post_type=cal_events&p=16' },
  ])('$capture: $about', ({ capture, from, id, permalink, venue, organizer }) => {
    const wire = translate(captureJson(capture).json_ld);
    const built = eventJsonLd({
      event: eventFrom(from, id),
      permalink,
      settings: SETTINGS,
      ...(venue ? { venue: { venue } } : {}),
      ...(organizer ? { organizer: { organizer } } : {}),
    });
    expect(normalized(built)).toBe(normalized(wire));
  });

  it('053: the draft keeps the quirky url', () => {
    const built = eventJsonLd({ event: eventFrom('026-event-create-draft', 16), permalink: 'http://127.0.0.1:8080/?post_type=cal_events&p=16', settings: SETTINGS });
    expect(built.url).toBe('http://127.0.0.1:8080/?post_type=cal_events&p=16%2F/');
  });

  it('serialises with the escaped newline exactly as on the wire', () => {
    const built = eventJsonLd({ event: eventFrom('021-event-create-full', 9), permalink: 'http://127.0.0.1:8080/event/jazz-night/', settings: SETTINGS });
    const phpJson = JSON.stringify(built.description).replace(/\//g, '\\/');
    expect(captureText('048-event-single')).toContain(`"description":${phpJson}`);
  });
});

describe('venueJsonLd / organizerJsonLd reproduce 048–051, 058, 059, 062', () => {
  it('058/059: venue Place without @context, url empty, website as sameAs', () => {
    for (const name of ['058-venue-single', '059-venue-single-by-slug']) {
      expect(JSON.stringify(venueJsonLd({ venue: VENUE_5 }))).toBe(JSON.stringify(captureJson(name).json_ld));
    }
  });

  it('embedded venues in 048–050', () => {
    expect(JSON.stringify(venueJsonLd({ venue: VENUE_5 }))).toBe(JSON.stringify(captureJson('048-event-single').venue.json_ld));
    expect(JSON.stringify(venueJsonLd({ venue: VENUE_6 }))).toBe(JSON.stringify(captureJson('049-event-single-all-day').venue.json_ld));
    expect(JSON.stringify(venueJsonLd({ venue: VENUE_13 }))).toBe(JSON.stringify(captureJson('050-event-single-inline-linked').venue.json_ld));
  });

  it('062: organizer Person with antispambot e-mail', () => {
    expect(normalized(organizerJsonLd({ organizer: JANE }))).toBe(normalized(captureJson('062-organizer-single').json_ld));
  });

  it('embedded organizers in 048 and 050 (one without any contact data)', () => {
    const [jane, acme] = captureJson('048-event-single').organizer;
    expect(normalized(organizerJsonLd({ organizer: JANE }))).toBe(normalized(jane.json_ld));
    expect(JSON.stringify(organizerJsonLd({ organizer: ACME }))).toBe(JSON.stringify(acme.json_ld));
    expect(normalized(organizerJsonLd({ organizer: MARKET }))).toBe(normalized(captureJson('050-event-single-inline-linked').organizer[0].json_ld));
  });

  it('describes each venue by its own texts, however they split between excerpt and content', () => {
    // Descriptions are remembered by their texts: texts that read the same run together must not share one.
    const split = [
      { excerpt: 'Harbour', content: ' front, by the pier.' },
      { excerpt: 'Harbour front,', content: ' by the pier.' },
      { excerpt: '', content: 'Harbour front, by the pier.' },
      { excerpt: '7:Harbour', content: '' },
      { excerpt: '', content: '7:Harbour' },
    ];
    const own = split.map((texts) => escJs(tecExcerpt(texts)));
    expect(new Set(own.slice(0, 3)).size).toBe(3);
    for (const order of [split, [...split].reverse(), split]) {
      for (const texts of order) expect(venueJsonLd({ venue: { ...VENUE_5, ...texts } }).description).toBe(own[split.indexOf(texts)]);
    }
  });

  it('uses the province outside the United States and the combined field first', () => {
    const base = { ...VENUE_5, country: 'Canada', state: 'XX', province: 'Ontario', stateProvince: '' };
    expect(venueJsonLd({ venue: base }).address.addressRegion).toBe('Ontario');
    expect(venueJsonLd({ venue: { ...base, stateProvince: 'ON' } }).address.addressRegion).toBe('ON');
  });
});

describe('eventJsonLd details', () => {
  const event = eventFrom('021-event-create-full', 9);

  it('adds the image after description, hidden linked posts as false, event status', () => {
    const built = eventJsonLd({
      event,
      permalink: 'http://127.0.0.1:8080/event/jazz-night/',
      settings: SETTINGS,
      imageUrl: 'http://127.0.0.1:8080/wp-content/uploads/jazz.jpg',
      venue: 'hidden',
      organizer: 'hidden',
      status: 'canceled',
    });
    expect(Object.keys(built)).toEqual([
      '@context', '@type', 'name', 'description', 'image', 'url', 'eventAttendanceMode', 'eventStatus',
      'startDate', 'endDate', 'location', 'organizer', 'offers', 'performer',
    ]);
    expect(built.location).toBe(false);
    expect(built.organizer).toBe(false);
    expect(built.eventStatus).toBe('https://schema.org/EventCancelled');
  });

  it('gives priceCurrency as a currency code: the event\'s own, else the site\'s default (never the symbol)', () => {
    const withSymbol = eventJsonLd({ event: { ...event, cost: ['$120'], currencySymbol: '$', currencyPosition: 'prefix' }, permalink: 'http://x/e/', settings: SETTINGS });
    expect(withSymbol.offers).toMatchObject({ price: '120', priceCurrency: 'USD' });
    const euro = eventJsonLd({ event: { ...event, cost: ['120'] }, permalink: 'http://x/e/', settings: { ...SETTINGS, currency_code: 'EUR' } });
    expect(euro.offers).toMatchObject({ priceCurrency: 'EUR' });
    const own = eventJsonLd({ event: { ...event, cost: ['120'], currencyCode: 'GBP' }, permalink: 'http://x/e/', settings: { ...SETTINGS, currency_code: 'EUR' } });
    expect(own.offers).toMatchObject({ priceCurrency: 'GBP' });
  });

  it('describes from the trimmed content when there is no excerpt', () => {
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const built = eventJsonLd({ event: { ...event, excerpt: '', content: `<p>${long}</p>` }, permalink: 'http://x/e/', settings: SETTINGS });
    expect(built.description).toBe(`&lt;p&gt;${Array.from({ length: 55 }, (_, i) => `w${i}`).join(' ')} [&hellip;]&lt;/p&gt;\\n`);
  });

  it('prefixes protected and private titles and escapes quotes for JS', () => {
    expect(jsonLdName({ title: "Bob's \"Party\"", status: 'publish', password: '' })).toBe('Bob&#8217;s &#8220;Party&#8221;');
    expect(jsonLdName({ title: 'Secret', status: 'publish', password: 'pw' })).toBe('Protected: Secret');
    expect(jsonLdName({ title: 'Secret', status: 'private', password: '' })).toBe('Private: Secret');
    expect(jsonLdName({ title: 'It\'s <b>"x"</b>', status: 'publish', password: '' })).toBe('It&#8217;s &lt;b&gt;&#8220;x&#8221;&lt;/b&gt;');
  });
});

describe('JSON-LD helpers', () => {
  it('jsonLdDate writes ISO 8601 with the event offset', () => {
    expect(jsonLdDate('2027-01-15 19:00:00', 'America/New_York', SETTINGS)).toBe('2027-01-15T19:00:00-05:00');
    expect(jsonLdDate('2027-07-15 19:00:00', 'America/New_York', SETTINGS)).toBe('2027-07-15T19:00:00-04:00');
    expect(jsonLdDate('2027-02-01 00:00:00', 'UTC+0', SETTINGS)).toBe('2027-02-01T00:00:00+00:00');
    expect(jsonLdDate('2027-02-01 10:00:00', 'UTC+5.5', SETTINGS)).toBe('2027-02-01T10:00:00+05:30');
    expect(jsonLdDate('2027-02-01 10:00:00', '', SETTINGS)).toBe('2027-02-01T10:00:00+00:00');
    // Upstream cannot rebuild "UTC+05:30" and leaves the UTC value in database format.
    expect(jsonLdDate('2027-02-01 10:00:00', 'UTC+05:30', SETTINGS)).toBe('2027-02-01 04:30:00');
  });

  it('jsonLdValidFrom is midnight UTC of the post date', () => {
    expect(jsonLdValidFrom('2026-11-21 16:41:38', 'F j, Y')).toBe('2026-11-21T00:00:00+00:00');
    expect(jsonLdValidFrom('2026-11-05 16:41:38', 'd/m/Y')).toBe('2026-05-11T00:00:00+00:00');
    expect(jsonLdValidFrom('2026-11-21 16:41:38', 'd/m/Y')).toBe('1970-01-01T00:00:00+00:00');
  });

  it('eventJsonLdUrl slashes pretty permalinks and keeps plain ones', () => {
    expect(eventJsonLdUrl('http://127.0.0.1:8080/event/jazz-night/', true)).toBe('http://127.0.0.1:8080/event/jazz-night/');
    expect(eventJsonLdUrl('http://127.0.0.1:8080/event/jazz-night', true)).toBe('http://127.0.0.1:8080/event/jazz-night/');
    expect(eventJsonLdUrl('http://127.0.0.1:8080/?cal_events=jazz-night', false)).toBe('http://127.0.0.1:8080/?cal_events=jazz-night');
  });

  it('eventJsonLdUrl keeps a query value whose escapes do not decode (PHP urldecode never fails)', () => {
    expect(eventJsonLdUrl('http://127.0.0.1:8080/?cal_events=%ff&p=1', true)).toBe('http://127.0.0.1:8080/?cal_events=%ff&p=1%2F/');
  });
});

describe('antispambot', () => {
  it('mixes plain characters and decimal entities, @ always encoded', () => {
    const coin = (() => {
      let i = 0;
      return () => (i++ % 2 === 0 ? 0.2 : 0.7);
    })();
    expect(antispambot('jane@example.com', { random: coin })).toBe('&#106;a&#110;e&#64;e&#120;a&#109;p&#108;e&#46;c&#111;m');
  });
  it('round-trips through decodeAntispambot, hex encoding and UTF-8 included', () => {
    for (let n = 0; n < 20; n++) {
      expect(decodeAntispambot(antispambot('jöe+tag@exämple.com', { hexEncoding: true }))).toBe('jöe+tag@exämple.com');
    }
    expect(decodeAntispambot('j&#97;&#110;&#101;&#64;&#101;xa&#109;&#112;&#108;e&#46;co&#109;')).toBe('jane@example.com');
  });
});
