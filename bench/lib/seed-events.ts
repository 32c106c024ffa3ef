import { calendar, type SiteStore } from '@siterest/core';
import { newEvent, newOrganizer, newVenue } from '@siterest/core/testing';

const CITIES = ['Springfield', 'Riverside', 'Portside', 'Hillview', 'Lakeside'];
const WORDS = ['Jazz', 'Market', 'Workshop', 'Concert', 'Festival', 'Talk', 'Run', 'Fair', 'Night', 'Matinee'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function utc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
}

/**
 * A benchmark calendar through the store: `count` published events spread over the 24 months after `nowMs`,
 * with venues, organizers, categories and tags, the shape of a busy real site.
 */
export async function seedBenchEvents(store: SiteStore, count: number, nowMs: number): Promise<void> {
  const venues: number[] = [];
  for (let i = 0; i < 50; i++) {
    venues.push((await store.venues.create(newVenue({ title: `Venue ${i}`, slug: `venue-${i}`, city: CITIES[i % CITIES.length]!, address: `${i} Main Street` }))).id);
  }
  const organizers: number[] = [];
  for (let i = 0; i < 20; i++) organizers.push((await store.organizers.create(newOrganizer({ title: `Organizer ${i}`, slug: `organizer-${i}`, email: `org${i}@example.com` }))).id);
  const categories: number[] = [];
  for (const word of WORDS) {
    categories.push((await store.terms.create({ taxonomy: calendar.CATEGORY_TAXONOMY, name: word, slug: word.toLowerCase(), description: '', parentId: 0 })).id);
  }
  const tags: number[] = [];
  for (const tag of ['free', 'outdoor', 'weekend', 'kids', 'evening']) {
    tags.push((await store.terms.create({ taxonomy: calendar.TAG_TAXONOMY, name: tag, slug: tag, description: '', parentId: 0 })).id);
  }
  const span = 730 * 86_400_000;
  for (let i = 0; i < count; i++) {
    const start = nowMs + Math.floor((span * i) / count) + 3_600_000;
    const word = WORDS[i % WORDS.length]!;
    await store.events.create(
      newEvent({
        title: `${word} ${i}`,
        content: `<p>${word} number ${i}: an evening of music &amp; talk.</p>`,
        slug: `${word.toLowerCase()}-${i}`,
        startDate: utc(start),
        endDate: utc(start + 7_200_000),
        startDateUtc: utc(start),
        endDateUtc: utc(start + 7_200_000),
        timezone: 'UTC+0',
        cost: i % 3 === 0 ? ['Free'] : ['$15', '$25'],
        venueIds: [venues[i % venues.length]!],
        organizerIds: [organizers[i % organizers.length]!],
        categoryIds: [categories[i % categories.length]!],
        tagIds: [tags[i % tags.length]!],
        featured: i % 17 === 0,
      }),
    );
  }
}
