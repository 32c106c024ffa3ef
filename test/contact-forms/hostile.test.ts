import { describe, expect, it } from 'vitest';
import { rawRequest } from '@siterest/core/testing';
import { storeVariants } from '../support/stores.js';
import { hidden, multipartBody, NS, useFormsSite, BROWSER_UA } from './harness.js';

/** Hostile values every body field and query param of the namespace must survive with a 4xx or a 200. */
const HOSTILE: unknown[] = [
  null,
  true,
  12,
  -1e308,
  '',
  '0',
  '[text* __proto__]',
  '[[[[[[[[[[[[[[[[[[',
  `[text x "${'a'.repeat(5000)}`,
  ['a', ['b', { c: 'd' }]],
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
  { subject: ['x'], body: { a: 1 } },
  '\u0000\u202e\ud800',
  'x'.repeat(250_000),
];

for (const variant of storeVariants()) describe(`contact-forms/v1 and popups/v1 under hostile input (${variant.label})`, () => {
  const t = useFormsSite({ store: variant, siteOptions: { logger: { error: (m: string, d?: unknown) => console.error(m, d), warn() {}, info() {} } } });

  it('never answers a 500 to hostile JSON writes', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Target' }, t.admin)).body.id;
    for (const value of HOSTILE) {
      for (const field of ['title', 'locale', 'form', 'mail', 'mail_2', 'messages', 'additional_settings', 'context', 'id']) {
        const create = await t.json('POST', `${NS}/contact-forms`, { [field]: value, context: 'save' }, t.admin);
        expect(create.status, `${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeLessThan(500);
        const update = await t.json('PUT', `${NS}/contact-forms/${id}`, { [field]: value, context: 'save' }, t.admin);
        expect(update.status).toBeLessThan(500);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const read = await t.json('GET', `${NS}/contact-forms/${id}`, undefined, t.admin);
    expect(read.status).toBe(200);
  });

  it('trims a template that is one long run of spaces in linear time (PHP trim; the regex it replaced was quadratic)', async () => {
    const form = `[text a]${' '.repeat(190_000)}[submit "Send"]`;
    const started = performance.now();
    const saved = await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Spaces', form, additional_settings: form, messages: { mail_sent_ok: `a${' '.repeat(9_000)}b` } }, t.admin);
    expect(saved.status, saved.raw.slice(0, 300)).toBeLessThan(300);
    expect(saved.raw).toContain('[text a]');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('validates fields that are long runs of spaces or backslashes in linear time, for anyone who posts the form', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Runs', form: '[tel t] [email e] [url u] [text x]' }, t.admin)).body.id;
    const run = `1${' '.repeat(100_000)}1`;
    const started = performance.now();
    // A run of backslashes that no zero follows: wp_kses_no_null's `\\+0+` was retried from each of them (11 s).
    const response = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['t', run], ['e', `a@b${' '.repeat(100_000)}.c`], ['u', run], ['x', `a${'\\'.repeat(100_000)}b`]]);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('validation_failed');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('filters the template of an editor without unfiltered_html as kses does: URL schemes after entities, style declarations', async () => {
    const user = await t.site.createUser({ login: `filtered-${variant.label.length}`, roles: ['editor'] });
    const principal = { id: user.id, login: user.login, roles: user.roles, caps: { unfiltered_html: false } };
    const form = '<a href="&#106;avascript:alert(1)">x</a><p style="color: red; behavior: url(x.htc)">[text a]</p><span style="x:(">y</span>';
    const saved = await t.site.handle({
      method: 'POST',
      path: `${NS}/contact-forms`,
      query: 'context=save',
      headers: { 'content-type': 'application/json' },
      body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ title: 'Filtered', form })) },
      principal,
    });
    expect(saved.status, saved.body).toBe(200);
    const template = (JSON.parse(saved.body) as { properties: { form: { content: string } } }).properties.form.content;
    expect(template).toBe('<a href="alert(1)">x</a><p style="color: red">[text a]</p><span>y</span>');
  });

  it('never answers a 500 to hostile list queries and feedback posts', async () => {
    const id = (
      await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Everything', form: '[text* a] [checkbox c "x"] [file f] [quiz q "1?|1"] [date d min:+1_week] [number n min:1]' }, t.admin)
    ).body.id;
    for (const query of ['per_page=-5&offset=-3', 'orderby[]=title&order[x]=1', 'search[a]=b', `search=${'%22'.repeat(300)}`, 'per_page=99999999999999999999', 'orderby=rand%20title%20x']) {
      const listed = await t.json("GET", `${NS}/contact-forms?${query}`, undefined, t.admin);
      expect(listed.status, `${query}: ${listed.raw.slice(0, 300)}`).toBe(200);
    }
    const parts: Array<[string, string]> = [
      ['a', '\u0000'.repeat(10)],
      ['c[][x][y]', 'x'],
      ['c[__proto__][polluted]', '1'],
      ['_wpcf7_container_post', '99999999999999999999999'],
      ['q', 'x\ud800\u0000'],
      ['_wpcf7_quiz_answer_q[]', 'x'],
      ['d', '9999-99-99'],
      ['n', 'NaN'],
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['bad\udc00name', 'z\u0000'],
    ];
    const response = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ...parts]);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('validation_failed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const filename of ['../../../etc/passwd\u0000.png', '..\\..\\boot.ini.png', '../../../etc/passwd.png']) {
      const upload = await rawRequest(`${t.server.url}${NS}/contact-forms/${id}/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW', 'User-Agent': BROWSER_UA },
        body: multipartBody([...hidden(id), ['f', { filename, content: 'x' }], ['a', 'ok']]),
      });
      expect(upload.status, filename).toBeLessThan(500);
    }
    for (const pid of ['1e9', '-5', '%00', 'x'.repeat(5000), '9'.repeat(40)]) {
      expect((await t.json('GET', `/popups/v1/analytics/open?pid=${pid}`)).status).toBeLessThan(500);
    }
  });
});
