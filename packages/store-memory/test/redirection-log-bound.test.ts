import { describe, expect, it } from 'vitest';
import { newLogRow } from '@siterest/core/testing';
import { memoryStore } from '../src/index.js';

const all = { filter: {}, orderBy: 'id', direction: 'asc', offset: 0, limit: 10_000 } as const;

describe("memory store: Redirection's logs", () => {
  it('hold at most redirectionLogBytes of rows each, the oldest dropped first', async () => {
    const store = memoryStore({ redirectionLogBytes: 100_000 });
    const logs = store.redirection;
    // Rows of about 1.3 KB: a long URL, as a flood of 404s with made-up paths sends.
    const row = (n: number) => newLogRow({ url: `/missing/${String(n).padStart(6, '0')}/${'x'.repeat(1_000)}`, agent: 'a'.repeat(100), httpCode: 404, sentTo: '' });
    for (let batch = 0; batch < 20; batch++) await logs.notFoundLog.insert(Array.from({ length: 50 }, (_, i) => row(batch * 50 + i)));
    const kept = await logs.notFoundLog.list(all);
    expect(kept.total).toBeGreaterThan(60);
    expect(kept.total).toBeLessThanOrEqual(100_000 / 1_300);
    // The newest rows, in a row up to the last one written.
    expect(kept.items.at(-1)!.url).toContain('/missing/000999/');
    expect(kept.items.map((r) => r.id)).toEqual(Array.from({ length: kept.total }, (_, i) => 1_000 - kept.total + 1 + i));
    // The other log has a bound of its own.
    await logs.redirectLog.insert([newLogRow()]);
    expect((await logs.redirectLog.list(all)).total).toBe(1);
  });

  it('count what deleted, expired and rolled-back rows held, so the bound keeps counting right', async () => {
    const store = memoryStore({ redirectionLogBytes: 50_000 });
    const log = store.redirection.notFoundLog;
    const row = (n: number) => newLogRow({ url: `/r/${n}/${'y'.repeat(1_000)}`, created: n, httpCode: 404, sentTo: '' });
    await log.insert(Array.from({ length: 30 }, (_, i) => row(i)));
    expect(await log.expire(10, 1_000)).toBe(10);
    expect(await log.delete({ urlExact: row(10).url })).toBe(1);
    // A transaction that fails takes back its rows and what they counted.
    await expect(
      store.transaction(async (tx) => {
        await tx.redirection.notFoundLog.insert(Array.from({ length: 30 }, (_, i) => row(100 + i)));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await log.list(all)).total).toBe(19);
    // 19 rows of about 1.2 KB: room for about 20 more before the oldest go.
    await log.insert(Array.from({ length: 15 }, (_, i) => row(200 + i)));
    expect((await log.list(all)).total).toBe(34);
    await log.insert(Array.from({ length: 30 }, (_, i) => row(300 + i)));
    const kept = await log.list(all);
    expect(kept.total).toBeLessThanOrEqual(50_000 / 1_200);
    expect(kept.total).toBeGreaterThan(30);
    expect(kept.items.at(-1)!.created).toBe(329);
  });
});
