import { calendar, type SiteStore } from '@siterest/core';
import { newEvent, newOrganizer, newVenue } from '@siterest/core/testing';

const CITIES = [
  { city: 'Springfield', state: 'IL', zip: '62701', country: 'United States', zone: 'America/Chicago' },
  { city: 'Portland', state: 'OR', zip: '97201', country: 'United States', zone: 'America/Los_Angeles' },
  { city: 'Brooklyn', state: 'NY', zip: '11201', country: 'United States', zone: 'America/New_York' },
  { city: 'Berlin', state: '', zip: '10115', country: 'Germany', zone: 'Europe/Berlin' },
  { city: 'London', state: '', zip: 'EC1A 1BB', country: 'United Kingdom', zone: 'Europe/London' },
  { city: 'Sydney', state: 'NSW', zip: '2000', country: 'Australia', zone: 'Australia/Sydney' },
  { city: 'Reykjavík', state: '', zip: '101', country: 'Iceland', zone: 'UTC' },
];
const WORDS = ['Jazz', 'Market', 'Workshop', 'Concert', 'Festival', 'Talk', 'Run', 'Fair', 'Night', 'Matinee'];
const PARAGRAPHS = [
  'Join us for an evening of live music &amp; conversation. Doors open at 6 pm; the first set starts at 7 pm sharp.',
  'Tickets are available at the door or online. Children under 12 enter free when accompanied by an adult — bring the whole family!',
  'The venue is step-free; please <a href="https://example.org/accessibility">read our accessibility notes</a> or call ahead if you need assistance.',
  "Food trucks will be on site all evening: tacos, noodles, vegan bowls and the city's \"best\" ice cream.",
  'Parking is limited. We recommend public transport: lines 4, 12 and the night bus stop right outside.',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function utc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of an instant in a named zone, as stored (`Y-m-d H:i:s`). */
function local(ms: number, zone: string): string {
  let format = localFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    localFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:00`;
}

/** A description of two to four paragraphs with entities, links and quotes, as real events have. */
function description(i: number, word: string): string {
  const count = 2 + (i % 3);
  const paragraphs = [`<p><strong>${word} #${i}</strong> — ${PARAGRAPHS[i % PARAGRAPHS.length]}</p>`];
  for (let k = 1; k < count; k++) paragraphs.push(`<p>${PARAGRAPHS[(i + k) % PARAGRAPHS.length]}</p>`);
  if (i % 4 === 0) paragraphs.push('<ul><li>Bring a friend</li><li>Arrive early</li><li>Have fun</li></ul>');
  return paragraphs.join('\n');
}

/**
 * A benchmark calendar through the store: `count` published events spread over the 24 months after `nowMs`, in
 * the named time zones of their venues (a zone's abbreviation and offsets are worked out per event, as on a real
 * site), with multi-paragraph descriptions, excerpts, costs, websites, venues with full addresses, organizers,
 * categories and tags. On PostgreSQL the tables are analyzed afterwards, as autovacuum would do on a live site.
 */
export async function seedBenchEvents(store: SiteStore, count: number, nowMs: number): Promise<void> {
  const venues: Array<{ id: number; zone: string }> = [];
  for (let i = 0; i < 50; i++) {
    const place = CITIES[i % CITIES.length]!;
    const venue = await store.venues.create(
      newVenue({
        title: `The ${WORDS[i % WORDS.length]} Hall ${i}`,
        slug: `venue-${i}`,
        content: `<p>A ${place.city} landmark since 19${10 + i}.</p>`,
        address: `${100 + i} Main Street`,
        city: place.city,
        state: place.state,
        stateProvince: place.state,
        zip: place.zip,
        country: place.country,
        phone: `+1 555 01${pad(i)}`,
        website: `https://venue-${i}.example.org/`,
      }),
    );
    venues.push({ id: venue.id, zone: place.zone });
  }
  const organizers: number[] = [];
  for (let i = 0; i < 20; i++) {
    const organizer = newOrganizer({ title: `Organizer ${i} & Friends`, slug: `organizer-${i}`, email: `org${i}@example.com`, phone: `+44 20 7946 0${pad(i)}`, website: `https://org-${i}.example.org/` });
    organizers.push((await store.organizers.create(organizer)).id);
  }
  const categories: number[] = [];
  for (const word of WORDS) {
    categories.push((await store.terms.create({ taxonomy: calendar.CATEGORY_TAXONOMY, name: word, slug: word.toLowerCase(), description: `All ${word.toLowerCase()} events`, parentId: 0 })).id);
  }
  const tags: number[] = [];
  for (const tag of ['free', 'outdoor', 'weekend', 'kids', 'evening']) {
    tags.push((await store.terms.create({ taxonomy: calendar.TAG_TAXONOMY, name: tag, slug: tag, description: '', parentId: 0 })).id);
  }
  const span = 730 * 86_400_000;
  for (let i = 0; i < count; i++) {
    const start = nowMs + Math.floor((span * i) / count) + 3_600_000;
    const end = start + (i % 5 === 0 ? 26 : 2) * 3_600_000;
    const word = WORDS[i % WORDS.length]!;
    const venue = venues[i % venues.length]!;
    await store.events.create(
      newEvent({
        title: `${word} ${i}: "Live" at the Hall`,
        content: description(i, word),
        excerpt: i % 2 === 0 ? `${word} night — tickets from $15.` : '',
        slug: `${word.toLowerCase()}-${i}`,
        startDate: local(start, venue.zone),
        endDate: local(end, venue.zone),
        startDateUtc: utc(start),
        endDateUtc: utc(end),
        timezone: venue.zone,
        cost: i % 3 === 0 ? ['Free'] : ['$15', '$25'],
        currencySymbol: '$',
        currencyCode: 'USD',
        currencyPosition: 'prefix',
        website: i % 2 === 0 ? `https://tickets.example.org/${i}` : null,
        venueIds: [venue.id],
        organizerIds: i % 4 === 0 ? [organizers[i % organizers.length]!, organizers[(i + 7) % organizers.length]!] : [organizers[i % organizers.length]!],
        categoryIds: [categories[i % categories.length]!],
        tagIds: i % 3 === 0 ? [tags[i % tags.length]!, tags[(i + 2) % tags.length]!] : [tags[i % tags.length]!],
        featured: i % 17 === 0,
      }),
    );
  }
  const pg = store as { sql?: { query<T>(text: string, values?: unknown[]): Promise<T[]> }; schema?: string };
  if (store.name === 'postgres' && pg.sql && pg.schema) {
    // Every table of the schema, the ones the triggers fill too (event_search, event_day_counts): a list first read
    // with no statistics on one of them is planned as on an empty table, which no live site is.
    const rows = await pg.sql.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [pg.schema]);
    await pg.sql.query(`ANALYZE ${rows.map(({ tablename }) => `"${pg.schema}"."${tablename}"`).join(', ')}`);
  }
}
