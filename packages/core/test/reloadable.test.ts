import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_RETRY_MS, Reloadable } from '../src/namespaces/redirection/runtime/reloadable.js';

/** A value loaded by a function the test controls: each load takes the next outcome. */
function loader() {
  const outcomes: Array<{ value: string } | { error: Error }> = [];
  let loads = 0;
  const events = { servingLast: vi.fn(), recovered: vi.fn(), loaded: vi.fn() };
  const reloadable = new Reloadable(async () => {
    loads++;
    const next = outcomes.shift();
    if (!next) throw new Error('no outcome queued');
    if ('error' in next) throw next.error;
    return next.value;
  }, events);
  return {
    reloadable,
    events,
    loads: () => loads,
    succeed: (value: string) => outcomes.push({ value }),
    fail: () => outcomes.push({ error: new Error('store unavailable') }),
  };
}

describe('Reloadable', () => {
  afterEach(() => vi.useRealTimers());

  it('loads once, keeps the value until forgotten, and fails without a value loaded before', async () => {
    const { reloadable, loads, succeed, fail } = loader();
    fail();
    await expect(reloadable.getOrLast()).rejects.toThrow('store unavailable');
    succeed('a');
    expect(await reloadable.getOrLast()).toBe('a');
    expect(await reloadable.get()).toBe('a');
    expect(loads()).toBe(2);
    reloadable.forget();
    succeed('b');
    expect(await reloadable.get()).toBe('b');
    expect(reloadable.current).toBe('b');
  });

  it('serves requests the value loaded last while loads fail, retries at most every RELOAD_RETRY_MS, and keeps the next value loaded', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { reloadable, events, loads, succeed, fail } = loader();
    succeed('a');
    await reloadable.get();
    reloadable.forget();
    fail();
    // The request that meets the failure waits for it, then gets the value from before; the REST API's read fails.
    expect(await reloadable.getOrLast()).toBe('a');
    expect(events.servingLast).toHaveBeenCalledTimes(1);
    fail();
    await expect(reloadable.get()).rejects.toThrow('store unavailable');
    const tried = loads();
    // Within the retry's wait no load is tried.
    for (let i = 0; i < 100; i++) expect(await reloadable.getOrLast()).toBe('a');
    expect(loads()).toBe(tried);
    // After it, one load in the background: the request does not wait for it.
    vi.setSystemTime(Date.now() + RELOAD_RETRY_MS);
    succeed('b');
    expect(await reloadable.getOrLast()).toBe('a');
    expect(loads()).toBe(tried + 1);
    await vi.waitFor(() => expect(reloadable.current).toBe('b'));
    expect(await reloadable.getOrLast()).toBe('b');
    expect(events.recovered).toHaveBeenCalledTimes(1);
    expect(events.servingLast).toHaveBeenCalledTimes(1);
  });

  it('does not keep a value whose load was under way when it was forgotten', async () => {
    const { reloadable, succeed } = loader();
    succeed('old');
    const before = reloadable.get();
    reloadable.forget();
    succeed('new');
    expect(await before).toBe('old');
    expect(reloadable.current).toBeNull();
    expect(await reloadable.get()).toBe('new');
  });

  it('serves nothing from before once cleared', async () => {
    const { reloadable, succeed, fail } = loader();
    succeed('a');
    await reloadable.get();
    reloadable.clear();
    fail();
    await expect(reloadable.getOrLast()).rejects.toThrow('store unavailable');
  });
});
