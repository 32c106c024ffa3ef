import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { memoryStore } from '@siterest/store-memory';
import { DEMO_EVENTS } from '../src/demo/calendar.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const weekendTitles = new Set(DEMO_EVENTS.filter((e) => e.tags?.includes('Weekend')).map((e) => e.title));

describe('the demo calendar', () => {
  // One start for each day of the week: the events must fit the days their names and tags promise whenever it is seeded.
  it.each(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'])(
    'puts events named after a weekday on that weekday, and weekend events on the weekend (seeded on %s)',
    async (today) => {
      const site = createSite({ store: memoryStore(), clock: manualClock(`${today}T09:00:00Z`), logger: silentLogger });
      await site.createUser({ login: 'admin', roles: ['administrator'] });
      await seedDemoSite(site);
      const { items } = await site.store.events.list({ statuses: 'any', orderBy: 'start', offset: 0, limit: 500 });
      expect(items).toHaveLength(DEMO_EVENTS.length);
      const dayOf = (wallClock: string) => DateTime.fromFormat(wallClock, 'yyyy-MM-dd HH:mm:ss').weekday;
      let named = 0;
      for (const event of items) {
        const weekday = WEEKDAYS.findIndex((name) => event.title.includes(name)) + 1;
        if (weekday > 0) {
          named++;
          expect(`${event.title} on ${WEEKDAYS[dayOf(event.startDate) - 1]}`).toBe(`${event.title} on ${WEEKDAYS[weekday - 1]}`);
        }
        if (weekendTitles.has(event.title)) {
          const days = new Set([dayOf(event.startDate), dayOf(event.endDate)]);
          expect(days.has(6) || days.has(7), `${event.title} (${event.startDate} – ${event.endDate})`).toBe(true);
        }
      }
      expect(named).toBeGreaterThan(0);
    },
  );
});
