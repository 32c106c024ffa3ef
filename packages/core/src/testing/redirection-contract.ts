import { describe, expect, it } from 'vitest';
import type { NewRedirect, NewRedirectLog } from '../store/redirection.js';
import type { SiteStore } from '../store/repositories.js';

export function newRedirect(overrides: Partial<NewRedirect> = {}): NewRedirect {
  return {
    url: '/old',
    matchUrl: '/old',
    matchData: null,
    regex: false,
    position: 0,
    groupId: 1,
    status: 'enabled',
    actionType: 'url',
    actionCode: 301,
    actionData: { url: '/new' },
    matchType: 'url',
    title: null,
    hits: 0,
    lastAccess: 0,
    ...overrides,
  };
}

export function newLogRow(overrides: Partial<NewRedirectLog> = {}): NewRedirectLog {
  return {
    created: 1_000,
    url: '/old',
    domain: 'http://example.org',
    ip: '',
    agent: 'agent/1',
    referrer: null,
    httpCode: 301,
    requestMethod: 'GET',
    requestData: null,
    sentTo: '/new',
    redirectionId: 1,
    redirectBy: 'redirection',
    ...overrides,
  };
}

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id);

/** Redirection's part of the store contract: redirects, groups, logs and settings, and that none of it moves the change version. */
export function redirectionStoreContract(current: () => SiteStore): void {
  describe('redirection', () => {
    const repos = () => current().redirection;
    const group = async (name = 'G', moduleId = 1) => (await repos().groups.create({ name, moduleId, status: 'enabled', position: 0 })).id;

    it('installs once: default groups and settings, even when asked twice at the same time', async () => {
      const build = (groupIds: number[]) => ({ last_group_id: groupIds[0] });
      const results = await Promise.all([
        repos().install([{ name: 'Redirections', moduleId: 1, status: 'enabled', position: 0 }, { name: 'Modified Posts', moduleId: 1, status: 'enabled', position: 1 }], build),
        repos().install([{ name: 'Redirections', moduleId: 1, status: 'enabled', position: 0 }, { name: 'Modified Posts', moduleId: 1, status: 'enabled', position: 1 }], build),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const groups = await repos().groups.all();
      expect(groups.map((g) => g.name)).toEqual(['Redirections', 'Modified Posts']);
      expect(await repos().getSettings()).toEqual({ last_group_id: groups[0]!.id });
      await repos().setSettings({ flag_case: true, nested: { a: [1] } });
      expect(await repos().getSettings()).toEqual({ flag_case: true, nested: { a: [1] } });
    });

    it('creates redirects last in their group, filters, orders and pages them', async () => {
      const g1 = await group('One');
      const g2 = await group('Two');
      const a = await repos().redirects.create(newRedirect({ groupId: g1, url: '/alpha', title: 'First' }), { appendPosition: true });
      const b = await repos().redirects.create(newRedirect({ groupId: g1, url: '/Beta', regex: true, matchUrl: 'regex' }), { appendPosition: true });
      const c = await repos().redirects.create(newRedirect({ groupId: g2, url: '/gamma', position: 7, actionType: 'error', actionCode: 410, actionData: null }), { appendPosition: false });
      expect([a.position, b.position, c.position]).toEqual([0, 1, 7]);
      expect(await repos().redirects.get(a.id)).toEqual(a);
      const list = async (filter: object, orderBy: 'id' | 'url' | 'position' = 'id', direction: 'asc' | 'desc' = 'asc') =>
        ids((await repos().redirects.list({ filter, orderBy, direction, offset: 0, limit: 10 })).items);
      expect(await list({})).toEqual([a.id, b.id, c.id]);
      expect(await list({}, 'id', 'desc')).toEqual([c.id, b.id, a.id]);
      expect(await list({}, 'url')).toEqual([a.id, b.id, c.id]);
      expect(await list({ groupId: g1 })).toEqual([a.id, b.id]);
      expect(await list({ regex: true })).toEqual([b.id]);
      expect(await list({ url: 'BETA' })).toEqual([b.id]);
      expect(await list({ title: 'firs' })).toEqual([a.id]);
      expect(await list({ actionCode: 410 })).toEqual([c.id]);
      expect(await list({ target: '/new' })).toEqual([a.id, b.id]);
      expect(await list({ ids: [c.id, a.id] })).toEqual([a.id, c.id]);
      const page = await repos().redirects.list({ filter: {}, orderBy: 'id', direction: 'asc', offset: 1, limit: 1 });
      expect(page).toEqual({ items: [b], total: 3 });
      expect(ids(await repos().redirects.all({ status: 'enabled' }))).toEqual([a.id, b.id, c.id]);
      expect([...(await repos().redirects.countByGroup())].sort()).toEqual([[g1, 2], [g2, 1]].sort());
      await expect(repos().redirects.create(newRedirect({ groupId: 999_999 }), { appendPosition: true })).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('updates, enables, disables, resets and deletes by filter', async () => {
      const g = await group();
      const r = await repos().redirects.create(newRedirect({ groupId: g, hits: 5, lastAccess: 99 }), { appendPosition: true });
      const updated = await repos().redirects.update(r.id, { url: '/changed', title: 'T', matchData: { source: { flag_case: false } } });
      expect(updated).toMatchObject({ url: '/changed', title: 'T', hits: 5, matchData: { source: { flag_case: false } } });
      expect(await repos().redirects.update(r.id + 1000, { url: '/x' })).toBeNull();
      expect(await repos().redirects.setStatus({ ids: [r.id] }, 'disabled')).toBe(1);
      expect((await repos().redirects.get(r.id))?.status).toBe('disabled');
      expect(await repos().redirects.resetHits({})).toBe(1);
      expect(await repos().redirects.get(r.id)).toMatchObject({ hits: 0, lastAccess: 0 });
      expect(await repos().redirects.delete({ ids: [r.id] })).toBe(1);
      expect(await repos().redirects.get(r.id)).toBeNull();
    });

    it('counts concurrent hits exactly', async () => {
      const g = await group();
      const r = await repos().redirects.create(newRedirect({ groupId: g }), { appendPosition: true });
      await Promise.all(Array.from({ length: 20 }, (_, i) => repos().redirects.recordHits([{ id: r.id, count: 5, at: 1000 + i }])));
      expect(await repos().redirects.get(r.id)).toMatchObject({ hits: 100, lastAccess: 1019 });
    });

    it('cascades group status to its redirects and deletes a group with them', async () => {
      const g = await group();
      const r = await repos().redirects.create(newRedirect({ groupId: g }), { appendPosition: true });
      expect(await repos().groups.setStatus({ ids: [g] }, 'disabled')).toBe(1);
      expect((await repos().groups.get(g))?.status).toBe('disabled');
      expect((await repos().redirects.get(r.id))?.status).toBe('disabled');
      const page = await repos().groups.list({ filter: { name: 'g' }, orderBy: 'name', direction: 'desc', offset: 0, limit: 10 });
      expect(ids(page.items)).toEqual([g]);
      expect(await repos().groups.update(g, { name: 'Renamed', moduleId: 2 })).toMatchObject({ name: 'Renamed', moduleId: 2 });
      expect(ids((await repos().redirects.all({ moduleId: 2 })))).toEqual([r.id]);
      expect(await repos().redirects.all({ moduleId: 2, enabledGroups: true })).toEqual([]);
      expect(await repos().groups.delete({ ids: [g] })).toBe(1);
      expect(await repos().redirects.get(r.id)).toBeNull();
    });

    it('finds nothing for a module or HTTP code past 32 bits, as for any other that names no row', async () => {
      const g = await group('Wide');
      await repos().redirects.create(newRedirect({ groupId: g }), { appendPosition: true });
      await repos().redirectLog.insert([newLogRow({ url: '/wide' })]);
      for (const wide of [2 ** 31, -(2 ** 31) - 1, 2 ** 63, 1.5]) {
        const groups = await repos().groups.list({ filter: { moduleId: wide }, orderBy: 'name', direction: 'asc', offset: 0, limit: 10 });
        expect([wide, groups.items, groups.total]).toEqual([wide, [], 0]);
        expect([wide, await repos().redirects.all({ moduleId: wide })]).toEqual([wide, []]);
        const logs = await repos().redirectLog.list({ filter: { httpCode: wide }, orderBy: 'id', direction: 'desc', offset: 0, limit: 10 });
        expect([wide, logs.items, logs.total]).toEqual([wide, [], 0]);
      }
    });

    it('keeps both logs apart, filters, groups, deletes and expires their rows', async () => {
      await repos().redirectLog.insert([
        newLogRow({ url: '/a', ip: '192.168.1.1', created: 1 }),
        newLogRow({ url: '/a', ip: '192.168.1.2', referrer: 'https://ref.example', created: 2 }),
        newLogRow({ url: '/b', ip: '10.0.0.1', requestData: { headers: { Accept: '*/*' } }, created: 3 }),
      ]);
      await repos().notFoundLog.insert([newLogRow({ url: '/missing', httpCode: 404, sentTo: '', redirectionId: 0, redirectBy: '' })]);
      const list = async (filter: object) => (await repos().redirectLog.list({ filter, orderBy: 'id', direction: 'desc', offset: 0, limit: 10 })).items.map((r) => r.url);
      expect(await list({})).toEqual(['/b', '/a', '/a']);
      expect(await list({ ipContains: '192.168' })).toHaveLength(2);
      expect(await list({ ip: '10.0.0.1' })).toEqual(['/b']);
      expect(await list({ referrer: 'REF' })).toEqual(['/a']);
      expect(await list({ urlExact: '/b' })).toEqual(['/b']);
      const rows = await repos().redirectLog.list({ filter: {}, orderBy: 'id', direction: 'asc', offset: 0, limit: 10 });
      expect(rows.items[2]).toMatchObject({ requestData: { headers: { Accept: '*/*' } }, referrer: null });
      expect(await repos().redirectLog.groups({ filter: {}, field: 'url', direction: 'desc', offset: 0, limit: 10 })).toEqual({
        items: [{ value: '/a', count: 2 }, { value: '/b', count: 1 }],
        total: 2,
      });
      expect((await repos().notFoundLog.list({ filter: {}, orderBy: 'id', direction: 'desc', offset: 0, limit: 10 })).total).toBe(1);
      expect(await repos().redirectLog.delete({ fieldIn: { field: 'url', values: ['/a'] } })).toBe(2);
      expect(await repos().redirectLog.expire(10, 100)).toBe(1);
      expect((await repos().redirectLog.list({ filter: {}, orderBy: 'id', direction: 'desc', offset: 0, limit: 10 })).total).toBe(0);
      expect((await repos().notFoundLog.list({ filter: {}, orderBy: 'id', direction: 'desc', offset: 0, limit: 10 })).total).toBe(1);
    });

    it('imports a batch whole, or nothing of it', async () => {
      const g = await group();
      const count = await repos().importBatch({
        groups: [{ ref: 7, name: 'From file', moduleId: 1, status: 'enabled', position: 0 }],
        redirects: [
          { ...newRedirect({ url: '/one' }), groupRef: 7, appendPosition: true },
          { ...newRedirect({ url: '/two', groupId: g }), appendPosition: true },
        ],
      });
      expect(count).toBe(2);
      const before = (await repos().redirects.all({})).length;
      const groupsBefore = (await repos().groups.all()).length;
      await expect(
        repos().importBatch({
          groups: [{ ref: 1, name: 'Half', moduleId: 1, status: 'enabled', position: 0 }],
          redirects: [
            { ...newRedirect({ url: '/three' }), groupRef: 1, appendPosition: true },
            { ...newRedirect({ url: '/four', groupId: 999_999 }), appendPosition: true },
          ],
        }),
      ).rejects.toBeTruthy();
      expect((await repos().redirects.all({})).length).toBe(before);
      expect((await repos().groups.all()).length).toBe(groupsBefore);
    });

    it('leaves the change version alone: hits and logs never invalidate cached calendar answers', async () => {
      const store = current();
      if (!store.changeVersion) throw new Error('a store must report its change version');
      const g = await group();
      const before = await store.changeVersion();
      const r = await repos().redirects.create(newRedirect({ groupId: g }), { appendPosition: true });
      await repos().redirects.recordHits([{ id: r.id, count: 1, at: 5 }]);
      await repos().redirectLog.insert([newLogRow()]);
      await repos().notFoundLog.insert([newLogRow()]);
      await repos().setSettings({ a: 1 });
      await repos().groups.setStatus({}, 'disabled');
      expect(await store.changeVersion()).toBe(before);
    });

    it('uninstalls: nothing of Redirection remains', async () => {
      const g = await group();
      await repos().redirects.create(newRedirect({ groupId: g }), { appendPosition: true });
      await repos().setSettings({ a: 1 });
      await repos().uninstall();
      expect(await repos().groups.all()).toEqual([]);
      expect(await repos().redirects.all({})).toEqual([]);
      expect(await repos().getSettings()).toBeNull();
    });
  });
}
