import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createSite, silentLogger } from '../src/index.js';
import { zoneOf } from '../src/namespaces/calendar/format/timezones.js';
import { formatWpDate } from '../src/time.js';
import { memoryStore } from '@siterest/store-memory';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Heap in use after a full collection. */
function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

// Event arguments are checked before the caller's rights, and their checks remember recent answers (dates, zone
// names): a request's huge values must not be what they keep.
describe('remembered answers of argument checks', () => {
  it('keep nothing of huge dates or zone names an anonymous caller sends', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger });
    await site.ready();
    const MEGABYTE = 1024 * 1024;
    const send = async (n: number, field: 'start_date' | 'timezone') => {
      // Each value different, as an attacker would make them, and valid: a date with a long fraction, a "UTC…" zone.
      const filler = String(n).padStart(8, '0').repeat(MEGABYTE / 8);
      const value = field === 'start_date' ? `2027-01-01 10:00:00.${filler}` : `UTC+${filler}`;
      const answer = await site.handle({
        method: 'POST',
        path: '/cal/events/v1/events/1',
        query: '',
        headers: { 'content-type': 'application/json' },
        body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ [field]: value })) },
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    };
    // Warm: the code paths' own memory.
    await send(0, 'start_date');
    await send(0, 'timezone');
    const before = heapUsed();
    for (let n = 1; n <= 40; n++) {
      await send(n, 'start_date');
      await send(n, 'timezone');
    }
    // 80 values of a megabyte each: kept, they would hold 80 MB or more.
    expect(heapUsed() - before).toBeLessThan(16 * MEGABYTE);
  });
});

// A host's authenticate hook may pass on role names a client chose (a claim of a token, a header): capability
// checks must not keep what such names are worth.
describe('remembered capabilities of roles', () => {
  it('keep nothing of role names that are no role', async () => {
    const MEGABYTE = 1024 * 1024;
    const site = createSite({
      store: memoryStore(),
      logger: silentLogger,
      authenticate: (request) => ({ id: 7, login: 'claimed', roles: [String(request.headers['x-role'])], credentials: 'header' }),
    });
    await site.ready();
    const send = async (n: number) => {
      const role = String(n).padStart(8, '0').repeat(MEGABYTE / 8);
      const answer = await site.handle({
        method: 'POST',
        path: '/cal/events/v1/events',
        query: '',
        headers: { 'content-type': 'application/json', 'x-role': role },
        body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.from('{"title":"Nope","start_date":"2027-01-01 10:00:00","end_date":"2027-01-01 12:00:00"}') },
      });
      // The role grants nothing: no right to create events.
      expect(answer.status).toBe(403);
    };
    await send(0);
    const before = heapUsed();
    for (let n = 1; n <= 40; n++) await send(n);
    expect(heapUsed() - before).toBeLessThan(16 * MEGABYTE);
  });
});

// Zone names are matched without regard to case, so one zone has as many valid spellings as its letters allow
// (`america/NEW_york`): an author can send a new one with every event. Luxon keeps a zone, and the Intl formatter
// it makes for it, per spelling; the formatters live outside the JS heap, so the process's size tells.
describe('zones of many spellings', () => {
  it('keep luxon from remembering every spelling', async () => {
    const spelling = (n: number) => [...'America/Argentina/ComodRivadavia'].map((c, i) => ((n >> i % 30) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
    const rss = async () => {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 50));
      collect();
      return process.memoryUsage().rss;
    };
    const use = (from: number, to: number) => {
      // Each a second apart: the formatted dates are remembered per zone and second.
      let last = '';
      for (let n = from; n < to; n++) last = formatWpDate(1_800_000_000_000 + n * 1000, zoneOf(spelling(n)));
      return last;
    };
    // The first 10,000 settle what the process keeps anyway (the memo of zones, the allocator's pools).
    expect(use(1, 10_001)).toBe('2027-01-15 07:46:40');
    const before = await rss();
    expect(use(10_001, 20_001)).toBe('2027-01-15 10:33:20');
    // Kept, the next 10,000 spellings take some 140 MB more; without them, under 20.
    expect((await rss()) - before).toBeLessThan(60 * 1024 * 1024);
  }, 60_000);
});
