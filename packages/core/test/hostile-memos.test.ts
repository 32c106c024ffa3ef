import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createSite, silentLogger } from '../src/index.js';
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
