import { describe, expect, it } from 'vitest';
import { NS, useRedirectionSite } from './harness.js';

/** redirection/v1 beyond the captures: permissions, validation, bulk actions, groups, logs, settings, plugin. */
describe('redirection/v1', () => {
  const t = useRedirectionSite();

  describe('permissions', () => {
    it('answers anonymous callers 401 and signed-in users without manage_options 403 on every route', async () => {
      for (const [method, path] of [
        ['GET', '/redirect'],
        ['POST', '/redirect'],
        ['GET', '/group'],
        ['GET', '/log'],
        ['GET', '/404'],
        ['GET', '/setting'],
        ['GET', '/plugin'],
        ['GET', '/export/all/csv'],
        ['GET', '/import/plugin'],
        ['POST', '/bulk/redirect/delete'],
      ] as const) {
        expect((await t.api(method, NS + path, undefined, 'anonymous')).status, `${method} ${path}`).toBe(401);
        const editor = await t.api(method, NS + path, undefined, 'editor');
        expect(editor.status, `${method} ${path}`).toBe(403);
        expect(editor.body).toEqual({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } });
      }
    });

    it('lets a user granted one Redirection capability do that, and only that', async () => {
      const user = await t.site.createUser({ login: 'logreader', roles: ['subscriber'] });
      const principal = { id: user.id, login: user.login, roles: user.roles, caps: { redirection_cap_log_manage: true } };
      const call = (path: string) => t.site.handle({ method: 'GET', path: NS + path, headers: {}, principal });
      expect((await call('/log')).status).toBe(200);
      expect((await call('/redirect')).status).toBe(403);
    });
  });

  describe('list parameters', () => {
    it('rejects per_page outside 5–200, bad orderby, direction and page with WordPress errors', async () => {
      const bad = await t.api('GET', `${NS}/redirect?per_page=201`);
      expect(bad.body.data.params.per_page).toBe('per_page must be between 5 (inclusive) and 200 (inclusive)');
      expect((await t.api('GET', `${NS}/group?orderby=url`)).body.data.params.orderby).toBe('orderby is not one of name, id, and .');
      expect((await t.api('GET', `${NS}/log?direction=ASC`)).status).toBe(400);
      expect((await t.api('GET', `${NS}/404?page=-1`)).body.data.params.page).toBe('page must be greater than or equal to 0');
    });

    it('rejects a filterBy that is not an object, or names an unsupported filter', async () => {
      const notArray = await t.api('GET', `${NS}/redirect?filterBy=url`);
      expect(notArray.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): filterBy',
        data: { status: 400, params: { filterBy: 'Filter is not an array' }, details: { filterBy: { code: 'rest_invalid_param', message: 'Filter is not an array', data: { status: 400 } } } },
      });
      const unsupported = await t.api('GET', `${NS}/redirect?filterBy[module]=1`);
      expect(unsupported.body.data.params.filterBy).toBe('Filter type is not supported: module');
      expect((await t.api('GET', `${NS}/404?filterBy[target]=x`)).status).toBe(400);
      // A prototype key never reaches the filter (the query parser drops it), and nothing is polluted.
      expect((await t.api('GET', `${NS}/log?filterBy[__proto__][x]=1`)).status).toBe(200);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it('pages from 0, filters by status, url-match, action and http, orders by source', async () => {
      for (let i = 0; i < 7; i++) await t.redirect({ url: `/list-${i}`, action_data: { url: '/t' }, title: `List ${i}` });
      await t.redirect({ url: '^/list-re/(.*)', regex: true, action_data: { url: '/$1' }, action_code: 307 });
      const page0 = await t.api('GET', `${NS}/redirect?per_page=5&page=0&filterBy[title]=List&orderby=source&direction=asc`);
      expect(page0.body.items.map((r: any) => r.url)).toEqual(['/list-0', '/list-1', '/list-2', '/list-3', '/list-4']);
      expect(page0.body.total).toBe(7);
      const page1 = await t.api('GET', `${NS}/redirect?per_page=5&page=1&filterBy[title]=List&orderby=source&direction=asc`);
      expect(page1.body.items.map((r: any) => r.url)).toEqual(['/list-5', '/list-6']);
      expect((await t.api('GET', `${NS}/redirect?filterBy[url-match]=regular`)).body.total).toBe(1);
      expect((await t.api('GET', `${NS}/redirect?filterBy[http]=307`)).body.total).toBe(1);
      expect((await t.api('GET', `${NS}/redirect?filterBy[action]=error&filterBy[url]=list`)).body.total).toBe(0);
      expect((await t.api('GET', `${NS}/redirect?filterBy[status]=disabled&filterBy[url]=list`)).body.total).toBe(0);
    });
  });

  describe('creating and updating redirects', () => {
    it('answers the plugin errors in their order: matcher, action, source, group', async () => {
      const post = (body: Record<string, unknown>) => t.api('POST', `${NS}/redirect`, body);
      expect((await post({ url: '/x', action_type: 'url', group_id: 1 })).body).toEqual({ code: 'redirect', message: 'Invalid redirect matcher', data: { status: 400, error_code: 297 } });
      expect((await post({ url: '/x', match_type: 'url', action_type: 'teleport', group_id: 1 })).body.message).toBe('Invalid redirect action');
      expect((await post({ url: '', regex: true, match_type: 'url', action_type: 'url', group_id: 1 })).body.message).toBe('Invalid source URL');
      expect((await post({ url: '/x', match_type: 'url', action_type: 'url', group_id: 424242 })).body.message).toBe('Invalid group when creating redirect');
    });

    it('sanitises the source, normalises codes and the saved data', async () => {
      const r = await t.redirect({ url: ' http://127.0.0.1:8080/Some/%E4%B8%AD?A=1 ', action_type: 'error', action_code: 999, title: '<b>Bold</b> title', action_data: { url: '/kept?' } });
      expect(r).toMatchObject({ url: '/Some/中?A=1', match_url: '/some/%e4%b8%ad', action_code: 404, action_data: null, title: 'Bold title' });
      const server = await t.redirect({ url: 'https://other.example/path', action_data: { url: '/here' } });
      expect(server).toMatchObject({ url: '/path', match_type: 'server', action_data: { server: 'http://other.example', url_from: '/here', url_notfrom: '' } });
      const header = await t.redirect({ url: '/h', match_type: 'header', action_data: { name: 'X Bad:Name!', value: 'v', regex: 1, url_from: '/a\r\nSet-Cookie: x' } });
      expect(header.action_data).toEqual({ regex: true, name: 'XBad:Name', value: 'v', url_from: '/a', url_notfrom: '' });
    });

    it('creates one redirect per URL of a list, and nothing without a url', async () => {
      const before = (await t.api('GET', `${NS}/redirect`)).body.total;
      await t.api('POST', `${NS}/redirect`, { url: ['/many-1', '/many-2'], match_type: 'url', action_type: 'url', group_id: 1, action_data: { url: '/t' } });
      await t.api('POST', `${NS}/redirect`, { match_type: 'url', action_type: 'url', group_id: 1, action_data: { url: '/t' } });
      expect((await t.api('GET', `${NS}/redirect`)).body.total).toBe(before + 2);
    });

    it('updates a redirect; an unknown id is the plugin error; omitted fields keep their values', async () => {
      const r = await t.redirect({ url: '/upd', action_data: { url: '/a' }, title: 'Keep me', position: 9 });
      const updated = await t.api('POST', `${NS}/redirect/${r.id}`, { url: '/upd2', action_data: { url: '/b' }, action_type: 'url', match_type: 'url', group_id: 1 });
      expect(updated.body.item).toMatchObject({ id: r.id, url: '/upd2', title: 'Keep me', position: 9, action_data: { url: '/b' } });
      expect((await t.visit('/upd2')).header('location')).toBe('/b');
      expect((await t.api('POST', `${NS}/redirect/99999`, { url: '/x' })).body).toEqual({ code: 'redirect_update_failed', message: 'Invalid redirect details', data: { status: 400, error_code: 318 } });
      expect((await t.api('POST', `${NS}/redirect/abc`, {})).status).toBe(404);
    });
  });

  describe('bulk actions', () => {
    it('disables, enables, resets and deletes by items (a list or a comma string), stopping at an unknown id', async () => {
      const a = await t.redirect({ url: '/bulk-a', action_data: { url: '/t' } });
      const b = await t.redirect({ url: '/bulk-b', action_data: { url: '/t' } });
      await t.api('POST', `${NS}/bulk/redirect/disable`, { items: `${a.id},${b.id}` });
      expect((await t.visit('/bulk-a')).status).toBe(404);
      await t.api('POST', `${NS}/bulk/redirect/enable`, { items: [a.id] });
      expect((await t.visit('/bulk-a')).status).toBe(301);
      await t.flush();
      await t.api('POST', `${NS}/bulk/redirect/reset`, { items: [a.id] });
      expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${a.id}`)).body.items[0]).toMatchObject({ hits: 0, last_access: '-' });
      const failed = await t.api('POST', `${NS}/bulk/redirect/delete`, { items: [a.id, 99999, b.id] });
      expect(failed.body).toEqual({ code: 'redirect_bulk_failed', message: 'Invalid redirect', data: { status: 400, error_code: 350 } });
      expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${a.id}`)).body.total).toBe(0);
      expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${b.id}`)).body.total).toBe(1);
    });

    it('applies a global action to every redirect the filters select', async () => {
      await t.redirect({ url: '/global-1', action_data: { url: '/t' } });
      await t.redirect({ url: '/global-2', action_data: { url: '/t' } });
      const answer = await t.api('POST', `${NS}/bulk/redirect/disable`, { global: true, filterBy: { url: 'global-' } });
      expect(answer.status).toBe(200);
      expect((await t.api('GET', `${NS}/redirect?filterBy[url]=global-&filterBy[status]=disabled`)).body.total).toBe(2);
      expect((await t.api('GET', `${NS}/redirect?filterBy[status]=disabled&filterBy[url]=list-`)).body.total).toBe(0);
      expect((await t.api('POST', `${NS}/bulk/redirect/delete`, { items: Array.from({ length: 10_001 }, (_, i) => i) })).status).toBe(400);
    });
  });

  describe('groups', () => {
    it('lists by name descending, marks the default group, validates name and module', async () => {
      const list = await t.api('GET', `${NS}/group`);
      expect(list.body.items.map((g: any) => g.name)).toEqual(['Redirections', 'Modified Posts']);
      expect(list.body.items[0].default).toBe(true);
      expect((await t.api('POST', `${NS}/group`, { name: 'X', moduleId: 4 })).body.data.params.moduleId).toBe('moduleId must be between 0 (inclusive) and 3 (inclusive)');
      expect((await t.api('POST', `${NS}/group`, { name: 'X', moduleId: 0 })).body.code).toBe('redirect_group_invalid');
      expect((await t.api('POST', `${NS}/group`, { name: 'X' })).body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['moduleId'] } });
      const created = await t.api('POST', `${NS}/group`, { name: `<i>${'Apache rules '.repeat(10)}</i>`, moduleId: 2 });
      const apache = created.body.items.find((g: any) => g.module_id === 2);
      expect(apache).toMatchObject({ name: 'Apache rules Apache rules Apache rules Apache rule', moduleName: 'Apache', redirects: 0, enabled: true });
      expect((await t.api('POST', `${NS}/group/99999`, { name: 'Y', moduleId: 1 })).body).toMatchObject({ code: 'redirect_group_invalid', message: 'Invalid group details' });
      const renamed = await t.api('POST', `${NS}/group/${apache.id}`, { name: 'Nginx', moduleId: 3 });
      expect(renamed.body.item).toMatchObject({ name: 'Nginx', module_id: 3, moduleName: 'Nginx' });
    });

    it('disables a group with its redirects, and deletes it with them', async () => {
      const created = await t.api('POST', `${NS}/group`, { name: 'Temporary', moduleId: 1 });
      const group = created.body.items.find((g: any) => g.name === 'Temporary');
      await t.redirect({ url: '/in-temp', group_id: group.id, action_data: { url: '/t' } });
      await t.api('POST', `${NS}/bulk/group/disable`, { items: [group.id, 99999] });
      expect((await t.visit('/in-temp')).status).toBe(404);
      await t.api('POST', `${NS}/bulk/group/enable`, { items: String(group.id) });
      expect((await t.visit('/in-temp')).status).toBe(301);
      await t.api('POST', `${NS}/bulk/group/delete`, { items: [group.id] });
      expect((await t.api('GET', `${NS}/redirect?filterBy[url]=in-temp`)).body.total).toBe(0);
      expect((await t.visit('/in-temp')).status).toBe(404);
    });
  });

  describe('logs', () => {
    it('groups rows by url, ip or agent, and deletes by id, by grouped value or globally by filter', async () => {
      await t.redirect({ url: '/logged', action_data: { url: '/t' }, match_data: { source: { flag_query: 'ignore' } } });
      for (const agent of ['a1', 'a1', 'a2']) await t.visit('/logged', { headers: { 'user-agent': agent, referer: `https://${agent}.example` } });
      await t.flush();
      const grouped = await t.api('GET', `${NS}/log?groupBy=agent&filterBy[url]=logged`);
      expect(grouped.body).toEqual({ items: [{ count: 2, agent: 'a1', id: 'a1' }, { count: 1, agent: 'a2', id: 'a2' }], total: 2 });
      const afterGlobal = await t.api('POST', `${NS}/bulk/log/delete`, { global: true, filterBy: { referrer: 'a2.example' } });
      expect(afterGlobal.body.items.some((row: any) => row.agent === 'a2')).toBe(false);
      await t.api('POST', `${NS}/bulk/log/delete`, { items: ['a1'], groupBy: 'agent' });
      expect((await t.api('GET', `${NS}/log?filterBy[agent]=a1`)).body.total).toBe(0);
      await t.visit('/nowhere-1');
      await t.flush();
      const rows = await t.api('GET', `${NS}/404?filterBy[url-exact]=/nowhere-1`);
      expect(rows.body.total).toBe(1);
      await t.api('POST', `${NS}/bulk/404/delete`, { items: [rows.body.items[0].id] });
      expect((await t.api('GET', `${NS}/404?filterBy[url-exact]=/nowhere-1`)).body.total).toBe(0);
    });
  });

  describe('settings', () => {
    it('coerces each setting as the plugin does and ignores unknown keys', async () => {
      const saved = await t.api('POST', `${NS}/setting`, {
        expire_redirect: 99,
        expire_404: 'soon',
        redirect_cache: 5,
        ip_logging: 7,
        aliases: ['http://bad com/path', ''],
        relocate: '',
        preferred_domain: 'maybe',
        monitor_types: ['post', 'monkey'],
        monitor_post: 424242,
        headers: [{ type: 'custom header', headerName: 'x-frame options', headerValue: 'DENY\r\nX: y', location: 'site' }, { headerName: 'no type' }],
        unknown: 'ignored',
        __proto__: { polluted: true },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.settings).toMatchObject({
        expire_redirect: 60,
        expire_404: 0,
        redirect_cache: 1,
        ip_logging: 2,
        aliases: ['badcom'],
        preferred_domain: '',
        monitor_types: ['post'],
        monitor_post: 1,
        headers: [{ type: 'Custom-Header', headerName: 'X-Frame-Options', headerValue: 'DENYX: y', location: 'site', headerSettings: {} }],
      });
      expect(saved.body.settings).not.toHaveProperty('unknown');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const relocate = await t.api('POST', `${NS}/setting`, { relocate: 'domain.com' });
      expect(relocate.body.settings.relocate).toBe('http://domain.com');
      await t.api('POST', `${NS}/setting`, { relocate: '', expire_redirect: 7, expire_404: 7, ip_logging: 0 });
    });

    it('rebuilds the four flags when one is posted, and new redirects follow the site defaults', async () => {
      const saved = await t.api('POST', `${NS}/setting`, { flag_trailing: true });
      expect(saved.body.settings).toMatchObject({ flag_query: 'exact', flag_case: false, flag_trailing: true, flag_regex: false });
      const r = await t.redirect({ url: '/follows', action_data: { url: '/t' } });
      expect(r.match_data.source).toEqual({ flag_query: 'exact', flag_case: false, flag_trailing: true, flag_regex: false });
      await t.api('POST', `${NS}/setting`, { flag_case: true, flag_trailing: true, flag_query: 'exact', flag_regex: false });
      expect((await t.api('GET', `${NS}/redirect?filterBy[id]=${r.id}`)).body.items[0].match_data.source.flag_case).toBe(true);
      expect((await t.visit('/FOLLOWS')).status).toBe(301);
    });
  });

  describe('plugin', () => {
    it('reports status, fixes a missing group, tests and deletes (the next use installs again)', async () => {
      expect((await t.api('GET', `${NS}/plugin/test`)).body).toEqual({ success: true });
      expect((await t.api('DELETE', `${NS}/plugin/test`)).body).toEqual({ success: true });
      expect((await t.api('POST', `${NS}/plugin/data`, { upgrade: 'now' })).status).toBe(400);
      expect((await t.api('POST', `${NS}/plugin/data`, {})).body.reason).toBe('Your database does not need updating to 4.2.');
      const fixed = await t.api('POST', `${NS}/plugin`, {});
      expect(fixed.body.status.map((s: any) => s.status)).toEqual(['good', 'good', 'good', 'good', 'good']);
      const deleted = await t.api('POST', `${NS}/plugin/delete`, {});
      expect(deleted.body).toEqual({ location: 'http://127.0.0.1:8080/wp-admin/plugins.php' });
      const groups = await t.api('GET', `${NS}/group`);
      expect(groups.body.items.map((g: any) => [g.id, g.name])).toEqual([[1, 'Redirections'], [2, 'Modified Posts']]);
      expect((await t.api('GET', `${NS}/redirect`)).body.total).toBe(0);
    });
  });
});
