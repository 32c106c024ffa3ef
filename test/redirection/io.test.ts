import { describe, expect, it } from 'vitest';
import { rawRequest } from '@siterest/core/testing';
import { NS, useRedirectionSite, type RedirectionSite } from './harness.js';
import { APACHE, NGINX, apacheAccepts, nginxAccepts } from './servers.js';

/** A multipart upload of one file, as the plugin's admin page sends it. */
async function upload(t: RedirectionSite, groupId: number | string, filename: string | null, content: string | Buffer): Promise<{ status: number; body: any }> {
  const boundary = '----siterest-test-boundary';
  const parts: Buffer[] = [];
  if (filename !== null) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
    parts.push(Buffer.from('\r\n'));
  } else {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const response = await rawRequest(`${t.server.url}${NS}/import/file/${groupId}`, {
    method: 'POST',
    headers: { Authorization: t.auth.administrator, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(parts),
  });
  return { status: response.status, body: JSON.parse(response.body) };
}

const exported = async (t: RedirectionSite, module: string, format: string) => (await t.api('GET', `${NS}/export/${module}/${format}`)).body.data as string;

/** Redirects every format can carry (nginx: plain and regex URL redirects only). */
const URL_REDIRECTS = [
  { url: '/plain', action_data: { url: '/target' }, action_code: 301 },
  { url: '/temporary', action_data: { url: 'https://example.org/x' }, action_code: 302 },
  { url: '^/blog/([0-9]+)/(.*)$', regex: true, action_data: { url: '/posts/$2' }, action_code: 302 },
];
const MORE_REDIRECTS = [
  { url: '/case-sensitive.html', action_data: { url: '/t#top' }, action_code: 307, match_data: { source: { flag_case: false, flag_trailing: false, flag_query: 'pass', flag_regex: false } } },
  { url: '/with?query=1', action_data: { url: '/q' }, action_code: 308 },
  { url: '/gone', action_type: 'error', action_code: 410 },
  { url: '/forbidden', action_type: 'error', action_code: 404 },
];

describe('export and import', () => {
  const source = useRedirectionSite();
  const target = useRedirectionSite();

  it('round-trips every format: export, import into a fresh site, export again gives the same file', async () => {
    for (const body of [...URL_REDIRECTS, ...MORE_REDIRECTS]) await source.redirect(body);
    for (const [format, filename, bodies] of [
      ['csv', 'redirects.csv', [...URL_REDIRECTS, ...MORE_REDIRECTS]],
      ['apache', '.htaccess', [...URL_REDIRECTS, ...MORE_REDIRECTS]],
      ['nginx', 'redirects.nginx', URL_REDIRECTS],
    ] as const) {
      // Start from the same content on both sides, the redirects this format can carry.
      await source.api('POST', `${NS}/bulk/redirect/delete`, { global: true });
      await target.api('POST', `${NS}/bulk/redirect/delete`, { global: true });
      for (const body of bodies) await source.redirect(body);
      const first = await exported(source, '1', format);
      const imported = await upload(target, 1, filename, first);
      expect(imported, format).toEqual({ status: 200, body: { imported: bodies.length } });
      expect(await exported(target, '1', format), format).toBe(first);
    }
  });

  it('takes a format named in the query before the path\'s, as WordPress orders parameters, and ignores one that names none', async () => {
    await source.api('POST', `${NS}/bulk/redirect/delete`, { global: true });
    await source.redirect(URL_REDIRECTS[0]!);
    const csv = await exported(source, '1', 'csv');
    const nginx = await exported(source, '1', 'nginx');
    expect((await source.api('GET', `${NS}/export/1/csv?format=nginx`)).body.data).toBe(nginx);
    for (const query of ['format=', 'format=constructor', 'format=__proto__', 'format[]=csv', 'format=xml']) {
      const answer = await source.api('GET', `${NS}/export/1/csv?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.body.data, query).toBe(csv);
    }
  });

  it('round-trips JSON: groups and redirects come back the same but for their ids', async () => {
    await source.api('POST', `${NS}/bulk/redirect/delete`, { global: true });
    for (const body of [...URL_REDIRECTS, ...MORE_REDIRECTS]) await source.redirect({ ...body, title: 'Τίτλος "quoted"' });
    await source.api('POST', `${NS}/bulk/group/delete`, { items: [2] });
    await target.api('POST', `${NS}/bulk/group/delete`, { global: true });
    const first = await exported(source, 'all', 'json');
    expect(first).toContain('\\u03a4');
    const imported = await upload(target, 0, 'export.json', first);
    expect(imported.body.imported).toBe(URL_REDIRECTS.length + MORE_REDIRECTS.length);
    const second = await exported(target, 'all', 'json');
    const normal = (text: string) => {
      const data = JSON.parse(text);
      return { groups: data.groups.map(({ id, ...g }: any) => g), redirects: data.redirects.map(({ id, group_id, ...r }: any) => r) };
    };
    expect(normal(second)).toEqual(normal(first));
    // The imported redirects work at once.
    expect((await target.visit('/plain')).status).toBe(301);
  });

  it('exports only enabled redirects of enabled groups for a module, everything for "all"', async () => {
    await source.api('POST', `${NS}/bulk/redirect/delete`, { global: true });
    const a = await source.redirect({ url: '/enabled', action_data: { url: '/t' } });
    const b = await source.redirect({ url: '/disabled', action_data: { url: '/t' } });
    await source.api('POST', `${NS}/bulk/redirect/disable`, { items: [b.id] });
    const module = (await source.api('GET', `${NS}/export/1/csv`)).body;
    expect(module.total).toBe(1);
    expect(module.data).toContain('"/enabled"');
    const all = (await source.api('GET', `${NS}/export/all/csv`)).body;
    expect(all.total).toBe(2);
    expect(all.data).toContain('"/disabled","/t",0,301,"url",0,"","disabled"');
    expect((await source.api('GET', `${NS}/export/2/apache`)).body).toEqual({ data: '\n', total: 0 });
    expect((await source.api('GET', `${NS}/export/4/csv`)).status).toBe(404);
    expect(a.id).toBeGreaterThan(0);
  });

  it.skipIf(!NGINX)('writes an nginx file that nginx -t accepts (skipped without nginx: apt-get install nginx-light)', async () => {
    for (const body of [...URL_REDIRECTS, ...MORE_REDIRECTS, { url: '^/odd path/(\\d{2});x$', regex: true, action_data: { url: '/a b;c' } }]) await source.redirect(body);
    const file = await exported(source, 'all', 'nginx');
    const check = nginxAccepts(file);
    expect(check.output).toContain('test is successful');
    expect(check.ok).toBe(true);
    // The check can fail: a broken file is refused.
    expect(nginxAccepts('server { rewrite ; }').ok).toBe(false);
  });

  it.skipIf(!APACHE)('writes an .htaccess whose RewriteRules Apache accepts (skipped without apache2: apt-get install apache2)', async () => {
    for (const body of [
      ...URL_REDIRECTS,
      ...MORE_REDIRECTS,
      { url: '/agent', match_type: 'agent', action_data: { agent: 'Mozilla 5 (Bot)', regex: false, url_from: '/bots', url_notfrom: '' } },
      { url: '/host', match_type: 'server', action_data: { server: 'old.example.org', url_from: '/new-host' } },
    ]) {
      await source.redirect(body);
    }
    const file = await exported(source, 'all', 'apache');
    expect(file).toContain('RewriteCond %{HTTP_HOST} ^old\\.example\\.org$ [NC]');
    const check = apacheAccepts(file);
    expect(check.output).toContain('Syntax OK');
    expect(apacheAccepts('RewriteRule ^a b c d [R=301]\n').ok).toBe(false);
  });

  describe('bad input', () => {
    it('answers the plugin errors for a missing file and an unknown group', async () => {
      expect(await upload(target, 1, null, '')).toEqual({ status: 400, body: { code: 'redirect_import_invalid_file', message: 'Invalid file', data: { status: 400, error_code: 164 } } });
      expect((await upload(target, 424242, 'x.csv', '/a,/b\n')).body.code).toBe('redirect_import_invalid_group');
    });

    it('refuses malformed CSV and JSON with a clear 400 and imports nothing of them', async () => {
      const before = (await target.api('GET', `${NS}/redirect`)).body.total;
      const groups = (await target.api('GET', `${NS}/group`)).body.total;
      const group = (await target.api('GET', `${NS}/group?orderby=id&direction=asc`)).body.items[0].id;
      const csv = await upload(target, group, 'broken.csv', '/ok,/fine\n"/never,/closed\n');
      expect(csv.status).toBe(400);
      expect(csv.body.code).toBe('redirect_import_invalid_file');
      const json = await upload(target, group, 'broken.json', '{"groups": [{"id": 1, "name": "Half"}], "redirects": [');
      expect(json.status).toBe(400);
      expect((await target.api('GET', `${NS}/redirect`)).body.total).toBe(before);
      expect((await target.api('GET', `${NS}/group`)).body.total).toBe(groups);
    });

    it('imports nothing from an .htaccess without rules, and stores a regex that does not compile (it never matches)', async () => {
      const group = (await target.api('GET', `${NS}/group?orderby=id&direction=asc`)).body.items[0].id;
      expect(await upload(target, group, '.htaccess', 'Options -Indexes\n<Files x>\nDeny from all\n</Files>\n\u0000\u0001garbage')).toEqual({ status: 200, body: { imported: 0 } });
      expect((await upload(target, group, 'rules.csv', 'source,target,regex\n^/broken(,/x,1\n')).body).toEqual({ imported: 1 });
      expect((await target.visit('/broken(')).status).toBe(404);
    });

    it('refuses a file over the import limit, and a body over the site limit, with 413', async () => {
      const group = (await target.api('GET', `${NS}/group?orderby=id&direction=asc`)).body.items[0].id;
      const big = await upload(target, group, 'big.csv', Buffer.alloc(6 * 1024 * 1024, 'a'));
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('redirect_import_too_large');
      const huge = await upload(target, group, 'huge.csv', Buffer.alloc(11 * 1024 * 1024, 'a'));
      expect(huge.status).toBe(413);
    });
  });

  it('answers import/plugin as the plugin does with nothing to import', async () => {
    expect((await target.api('GET', `${NS}/import/plugin`)).body).toEqual({ importers: [] });
    expect((await target.api('POST', `${NS}/import/plugin`, { plugin: ['rank-math'] })).body).toEqual({ imported: 0 });
    expect((await target.api('POST', `${NS}/import/plugin/rank-math`, {})).body).toEqual({ imported: 0 });
  });
});
