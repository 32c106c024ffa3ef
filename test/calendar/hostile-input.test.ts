import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { rawRequest } from '@siterest/core/testing';
import { NS, useCalendar } from './harness.js';

const valid = { title: 'Valid', start_date: '2027-01-10 10:00:00', end_date: '2027-01-10 12:00:00' };

const variants = storeVariants().flatMap((store) => [
  { label: `${store.label}, Express`, store, adapter: 'express' as const },
  { label: `${store.label}, Fastify`, store, adapter: 'fastify' as const },
]);

/** Whether anything was written onto Object.prototype (the server runs in this process). */
function prototypeKeys(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).filter((key) => !BUILT_IN_PROTOTYPE_KEYS.has(key));
}
const BUILT_IN_PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
const OBJECT_STATICS = { entries: Object.entries, keys: Object.keys, assign: Object.assign };

/** Request input built to break the server: odd keys, huge strings, hostile markup. Each item of the answer is WordPress's. */
describe.each(variants)('hostile request input ($label)', { timeout: 120_000 }, ({ store, adapter }) => {
  const cal = useCalendar({ store, adapter });

  it('_fields naming __proto__ or constructor filters like any unknown field and touches no prototype', async () => {
    const attacks = [
      '__proto__.principal,__proto__.caps,__proto__.edit_cal_events,__proto__.publish_cal_events,__proto__.unfiltered_html',
      '__proto__.principal',
      'constructor.entries',
      'constructor.prototype.x',
      'constructor.keys,constructor.assign.x',
      '__proto__',
      'id,__proto__.x',
    ];
    const seen: unknown[] = [];
    for (const fields of attacks) {
      for (const path of ['/', `${NS}/events`, `${NS}/categories`, `${NS}/venues`]) {
        const answer = await cal.get(`${path}?_fields=${encodeURIComponent(fields)}`);
        seen.push([path, fields, answer.status, typeof answer.body]);
      }
    }
    expect(seen).toEqual(seen.map((row) => [(row as string[])[0], (row as string[])[1], 200, 'object']));
    expect(prototypeKeys()).toEqual([]);
    expect({ entries: Object.entries, keys: Object.keys, assign: Object.assign }).toEqual(OBJECT_STATICS);
    // Nothing was granted: anonymous still may not create, and lists still answer.
    const create = await cal.call('anonymous', 'POST', `${NS}/events`, { ...valid, description: '<script>x</script>' });
    expect([create.status, create.body.code]).toEqual([401, 'rest_forbidden']);
    expect((await cal.get(`${NS}/events`)).status).toBe(200);
    const fields = await cal.get(`${NS}/categories?_fields=total,__proto__.x,constructor`);
    expect(fields.body).toEqual({ total: expect.any(Number) });
  });

  it('keys named __proto__ or constructor in the query string or the body change nothing', async () => {
    const body = JSON.parse(`{"title": "Proto", "start_date": "2027-01-10 10:00:00", "end_date": "2027-01-10 12:00:00",
      "__proto__": {"status": "publish", "principal": {"id": 1, "roles": ["administrator"]}},
      "venue": {"venue": "Proto venue", "__proto__": {"status": "publish"}, "constructor": {"prototype": {"x": 1}}}}`);
    const created = await cal.call('contributor', 'POST', `${NS}/events?__proto__[principal][roles][]=administrator&constructor[prototype][x]=1`, body);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('draft');
    expect(prototypeKeys()).toEqual([]);
    const list = await cal.get(`${NS}/events?__proto__[status]=draft&constructor=1`);
    expect(list.status).toBe(200);
    expect(list.body.events.map((e: { title: string }) => e.title)).not.toContain('Proto');
  });

  it('filters markup as kses does for authors without unfiltered_html: entity-hidden schemes, venue and organizer texts', async () => {
    const link = '<a href="&#106;avascript:alert(1)">one</a> <a href="jav&#x09;ascript:alert(2)">two</a> <a href="java&Tab;script&colon;alert(3)">three</a> <a href="https://example.org/ok">ok</a>';
    const hostile = '<script>alert(4)</script><img src=x onerror=alert(5)>';
    const event = await cal.call('author', 'POST', `${NS}/events`, {
      ...valid,
      title: `Title ${link}`,
      description: `<p>${link}</p>`,
      venue: { venue: `Hall ${hostile}${link}`, address: `Street ${hostile}`, city: `City ${link}`, phone: hostile, website: 'javascript://example.org/%0Aalert(7)' },
      organizer: [{ organizer: `Org ${hostile}`, email: `<a href="&#x6A;avascript:alert(8)">x</a>@example.org`, phone: hostile }],
    });
    expect([event.status, event.body.data?.params]).toEqual([201, undefined]);
    const read = await cal.get(`${NS}/events/${event.body.id}`, 'administrator');
    const texts = [read.body.title, read.body.description, read.body.website, JSON.stringify(read.body.venue), JSON.stringify(read.body.organizer)];
    for (const text of texts) {
      expect(text).not.toMatch(/javascript|<script|onerror|&#106;|&#x6A;/i);
    }
    expect(read.body.description).toContain('href="https://example.org/ok"');
    expect(read.body.venue.venue).toContain('Hall');
    expect(read.body.venue.address).toContain('Street');
    // Direct venue writes are filtered the same way.
    const venue = await cal.call('author', 'POST', `${NS}/venues`, { venue: `Direct ${hostile}`, address: link, website: 'javascript://example.org/%0Aalert(9)' });
    expect(venue.status).toBe(201);
    expect(JSON.stringify(venue.body)).not.toMatch(/javascript|<script|onerror/i);
    // An administrator has unfiltered_html: the markup is kept as sent, as in WordPress.
    const trusted = await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Trusted <em>hall</em>' });
    expect(trusted.body.venue).toBe('Trusted <em>hall</em>');
  });

  it('keeps only the style declarations safecss_filter_attr keeps, for authors without unfiltered_html', async () => {
    const styled = '<p style="color: red; background: url(javascript:alert(1)); width: expression(alert(2))">a</p><span style="behavior: url(x.htc)">b</span>';
    const event = await cal.call('author', 'POST', `${NS}/events`, { ...valid, description: styled });
    expect(event.status).toBe(201);
    const read = await cal.get(`${NS}/events/${event.body.id}`, 'administrator');
    expect(read.body.description).toContain('<p style="color: red">a</p>');
    expect(read.body.description).toContain('<span>b</span>');
    // An administrator has unfiltered_html: the markup is kept as sent (the description is shown with wpautop).
    const trusted = await cal.call('administrator', 'POST', `${NS}/events`, { ...valid, description: styled });
    expect(trusted.body.description).toContain('url(javascript:alert(1)); width: expression(alert(2))">a</p>');
    expect(trusted.body.description).toContain('<span style="behavior: url(x.htc)">b</span>');
  });

  it('transforms huge hostile texts in linear time: slugs, names, term lookups', async () => {
    const huge = ['<'.repeat(200_000), '&'.repeat(200_000), '&a'.repeat(100_000), '%'.repeat(200_000), '<a'.repeat(100_000), '😀'.repeat(50_000)];
    const timings: Array<[string, number, number]> = [];
    const timed = async (label: string, run: () => Promise<{ status: number }>) => {
      const started = performance.now();
      const answer = await run();
      timings.push([label, answer.status, performance.now() - started]);
      return answer;
    };
    for (const [i, text] of huge.entries()) {
      await timed(`list categories ${i}`, () => cal.call('anonymous', 'GET', `${NS}/events`, { categories: text, tags: text, search: text.slice(0, 1000) }));
      await timed(`create ${i}`, () => cal.call('editor', 'POST', `${NS}/events`, { ...valid, title: text, slug: text, categories: [text], tags: text }));
      await timed(`term ${i}`, () => cal.call('editor', 'POST', `${NS}/categories`, { name: `x${text}`, slug: text, description: text }));
      await timed(`venue ${i}`, () => cal.call('author', 'POST', `${NS}/venues`, { venue: `v${text}`, address: text }));
    }
    expect(timings.filter(([, status]) => status >= 500)).toEqual([]);
    // A quadratic transform held the server for about 20 s on the first of these; linear ones take milliseconds
    // (the bound leaves room for a busy machine and PGlite indexing a 200,000-character title).
    expect(timings.filter(([, , ms]) => ms > 5000)).toEqual([]);
  });

  it('reads an event whose texts are long runs of spaces in linear time (its JSON-LD trims them as PHP does)', async () => {
    const spaces = `a${' '.repeat(150_000)}b `;
    const created = await cal.call('editor', 'POST', `${NS}/events`, { ...valid, title: `T${spaces}`, description: spaces, excerpt: spaces });
    expect(created.status).toBe(201);
    const started = performance.now();
    const read = await cal.get(`${NS}/events/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.json_ld).toBeDefined();
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('parses long costs in linear time and refuses costs past 10,000 characters', async () => {
    const numbers = (count: number) => Array.from({ length: count }, (_, i) => `$${i}.50`).join(', ');
    const started = performance.now();
    const long = await cal.call('editor', 'POST', `${NS}/events`, { ...valid, cost: numbers(1000).slice(0, 10_000) });
    expect(long.status).toBe(201);
    expect(long.body.cost_details.values.length).toBeGreaterThan(900);
    const read = await cal.get(`${NS}/events/${long.body.id}`);
    expect(read.body.cost).toMatch(/^\$0\.50 – \$\d+\.50$/);
    const tooLong = [numbers(15_000), Array.from({ length: 120_000 }, (_, i) => String(i)), '1,'.repeat(60_000)];
    const answers = [];
    for (const cost of tooLong) answers.push(await cal.call('editor', 'POST', `${NS}/events`, { ...valid, cost }));
    expect(answers.map((a) => [a.status, a.body.code, Object.keys(a.body.data?.params ?? {})])).toEqual(
      tooLong.map(() => [400, 'rest_invalid_param', ['cost']]),
    );
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('refuses another author without edit_others_* and the private status without publish_*, as WordPress', async () => {
    const admin = cal.users.administrator.id;
    const seen: unknown[] = [];
    for (const role of ['contributor', 'author'] as const) {
      const own = await cal.call(role, 'POST', `${NS}/events`, { ...valid, author: cal.users[role].id });
      expect(own.status).toBe(201);
      const ownVenue = await cal.call(role, 'POST', `${NS}/venues`, { venue: `${role} venue` });
      expect(ownVenue.status).toBe(201);
      const attempts: Array<[string, string, Record<string, unknown>]> = [
        ['POST', `${NS}/events`, { ...valid, author: admin }],
        ['POST', `${NS}/events/${own.body.id}`, { author: admin }],
        ['POST', `${NS}/venues`, { venue: 'Handed over', author: admin }],
        ['POST', `${NS}/venues/${ownVenue.body.id}`, { author: admin }],
        ['POST', `${NS}/organizers`, { organizer: 'Handed over', author: String(admin) }],
      ];
      for (const [method, path, body] of attempts) {
        const answer = await cal.call(role, method, path, body);
        seen.push([role, path, 'author', answer.status, answer.body.code]);
      }
      if (role === 'contributor') {
        for (const [path, body] of [[`${NS}/events`, { ...valid, status: 'private' }], [`${NS}/events/${own.body.id}`, { status: 'private' }], [`${NS}/venues`, { venue: 'Private', status: 'private' }]] as const) {
          const answer = await cal.call(role, 'POST', path, body);
          seen.push([role, path, 'private', answer.status, answer.body.code]);
        }
      }
      const kept = await cal.get(`${NS}/events/${own.body.id}`, 'administrator');
      expect([Number(kept.body.author), kept.body.status]).toEqual([cal.users[role].id, role === 'author' ? 'publish' : 'draft']);
    }
    const expected = seen.map((row) => {
      const [role, path, what] = row as [string, string, string];
      return what === 'author' ? [role, path, what, 403, 'rest_cannot_edit_others'] : [role, path, what, 403, 'rest_cannot_publish'];
    });
    expect(seen).toEqual(expected);
    // An editor may do both.
    const editor = await cal.call('editor', 'POST', `${NS}/events`, { ...valid, author: admin, status: 'private' });
    expect([editor.status, Number(editor.body.author), editor.body.status]).toEqual([201, admin, 'private']);
  });

  it('answers lone surrogates and JSON nested past 512 levels as PHP\'s json_decode fails: 400 rest_invalid_json', async () => {
    const send = (body: string) =>
      rawRequest(`${cal.server.url}${NS}/events`, {
        method: 'POST',
        headers: { Authorization: cal.users.editor.auth, 'Content-Type': 'application/json' },
        body,
      });
    const deep = (levels: number) => `{"title":"Deep","start_date":"2027-01-10 10:00:00","end_date":"2027-01-10 12:00:00","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const cases: Array<[string, string, number, number | null]> = [
      ['lone high surrogate', '{"title":"a\\ud800b","start_date":"2027-01-10 10:00:00","end_date":"2027-01-10 12:00:00"}', 400, 10],
      ['lone low surrogate in a key', '{"\\udc00":1,"title":"x"}', 400, 10],
      ['nested 600 levels', deep(600), 400, 1],
      ['nested 200,000 levels', deep(200_000), 400, 1],
      ['nested 511 levels', deep(510), 201, null],
      ['a pair is fine', '{"title":"\\ud83d\\ude00","start_date":"2027-01-10 10:00:00","end_date":"2027-01-10 12:00:00"}', 201, null],
    ];
    const seen = [];
    for (const [label, body] of cases) {
      const answer = await send(body);
      const parsed = JSON.parse(answer.body);
      seen.push([label, answer.status, answer.status === 400 ? parsed.code : null, parsed.data?.json_error_code ?? null]);
    }
    expect(seen).toEqual(cases.map(([label, , status, code]) => [label, status, status === 400 ? 'rest_invalid_json' : null, code]));
  });

  it('decodes any query string as PHP does, never a 500, and keeps free text URL-encoded in rest_url', async () => {
    const queries = [
      '?id=%F0%9D%94%98%F0%9D%94%AB',
      '?search=%F0%9D%94%98%F0%9D%94%AB',
      '?search=%',
      '?search=%E0%A4%A',
      '?search=%ED%A0%80',
      '?categories=%zz&tags=%',
      '?venue=%E0&organizer=%',
      '?start_date=%FF',
      '?%=%&%%=1',
      '?search[%]=x',
    ];
    const seen = [];
    for (const query of queries) {
      for (const path of [`${NS}/events`, `${NS}/venues`, `${NS}/categories`, `${NS}/events/%E0%A4`]) {
        const answer = await cal.get(path + query);
        seen.push([path + query, answer.status < 500, typeof answer.body?.code === 'string' || answer.status === 200]);
      }
    }
    expect(seen).toEqual(seen.map(([label]) => [label, true, true]));
    const lenient = await cal.get(`${NS}/events?search=a%20b%`);
    expect(lenient.status).toBe(200);
    expect(lenient.body.rest_url).toContain('&search=a+b%25&');
    const hostile = await cal.get(`${NS}/events?search=${encodeURIComponent('"><script>alert(1)</script>&status=draft x')}`);
    expect(hostile.body.rest_url).toContain('&search=%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E%26status%3Ddraft+x&');
    expect(hostile.body.rest_url).not.toMatch(/[<>"]/);
  });

  it('refuses out-of-range timestamps in updates too, and never stores an invalid date', async () => {
    const event = (await cal.call('administrator', 'POST', `${NS}/events`, valid)).body;
    const venue = (await cal.call('administrator', 'POST', `${NS}/venues`, { venue: 'Dated' })).body;
    const outside = ['99999-01-01', '+99999 years', '@99999999999999', '253402300800', 'next monday + 99999999 days', '9999-99-99'];
    const seen = [];
    for (const date of outside) {
      for (const [path, body] of [
        [`${NS}/events/${event.id}`, { start_date: date }],
        [`${NS}/events/${event.id}`, { end_date: date }],
        [`${NS}/events/${event.id}`, { date }],
        [`${NS}/events/${event.id}`, { date_utc: date }],
        [`${NS}/venues/${venue.id}`, { date }],
        [`${NS}/venues/${venue.id}`, { date_utc: date }],
      ] as const) {
        const answer = await cal.call('administrator', 'POST', path, body);
        seen.push([date, path, Object.keys(body)[0], answer.status, answer.body.code]);
      }
    }
    expect(seen).toEqual(seen.map(([date, path, key]) => [date, path, key, 400, 'rest_invalid_param']));
    const reads = [await cal.get(`${NS}/events/${event.id}`, 'administrator'), await cal.get(`${NS}/venues/${venue.id}`, 'administrator'), await cal.get(`${NS}/events`, 'administrator')];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(read.raw).not.toMatch(/Invalid ?Date|NaN/);
    }
  });
});
