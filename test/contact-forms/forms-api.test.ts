import { describe, expect, it } from 'vitest';
import { contactForms, headerValue } from '@siterest/core';
import { rawRequest } from '@siterest/core/testing';
import { BROWSER_UA, hidden, multipartBody, NS, toAnswer, useFormsSite } from './harness.js';

describe('contact-forms/v1: forms', () => {
  const t = useFormsSite({ siteOptions: { bodyLimit: 64 * 1024 } });

  it('refuses everyone without the capability with 403 wpcf7_forbidden, never 401', async () => {
    for (const auth of [undefined, t.subscriber]) {
      const list = await t.json('GET', `${NS}/contact-forms`, undefined, auth);
      expect(list.status).toBe(403);
      expect(list.body).toEqual({ code: 'wpcf7_forbidden', message: 'You are not allowed to access contact forms.', data: { status: 403 } });
      const create = await t.json('POST', `${NS}/contact-forms`, { title: 'x' }, auth);
      expect(create.body).toEqual({ code: 'wpcf7_forbidden', message: 'You are not allowed to create a contact form.', data: { status: 403 } });
      const read = await t.json('GET', `${NS}/contact-forms/1`, undefined, auth);
      expect(read.body).toEqual({ code: 'wpcf7_forbidden', message: 'You are not allowed to access the requested contact form.', data: { status: 403 } });
    }
  });

  it('previews a new form without context=save, saves it with, and answers the shapes of Contact Form 7', async () => {
    const preview = await t.json('POST', `${NS}/contact-forms`, { title: 'Preview only' }, t.editor);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ id: null, slug: null, title: 'Preview only', locale: 'en_US', config_errors: [] });
    expect(await contactForms(t.site).list()).toEqual([]);

    const created = await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Contact form 1' }, t.editor);
    expect(Object.keys(created.body)).toEqual(['id', 'slug', 'title', 'locale', 'properties', 'config_errors']);
    expect(Object.keys(created.body.properties)).toEqual(['form', 'mail', 'mail_2', 'messages', 'additional_settings']);
    expect(created.body.properties.mail).toEqual({
      subject: '[_site_title] "[your-subject]"',
      sender: '[_site_title] <wordpress@127.0.0.1>'.replace('wordpress@127.0.0.1', 'admin@example.org'),
      body: 'From: [your-name] <[your-email]>\nSubject: [your-subject]\n\nMessage Body:\n[your-message]\n\n-- \nThis e-mail was sent from a contact form on [_site_title] ([_site_url])',
      recipient: '[_site_admin_email]',
      additional_headers: 'Reply-To: [your-email]',
      attachments: '',
      use_html: 0,
      exclude_blank: 0,
    });
    expect(created.body.properties.additional_settings).toEqual({ content: '', settings: [] });
    expect(created.body.config_errors).toEqual([]);
    const id = created.body.id;

    const list = await t.json('GET', `${NS}/contact-forms`, undefined, t.editor);
    expect(list.body).toEqual([{ id, hash: expect.stringMatching(/^[0-9a-f]{7}$/), slug: 'contact-form-1', title: 'Contact form 1', locale: 'en_US' }]);
    expect(list.header('x-wp-total')).toBeUndefined();

    const read = await t.json('GET', `${NS}/contact-forms/${id}`, undefined, t.editor);
    expect(Object.keys(read.body)).toEqual(['id', 'slug', 'title', 'locale', 'properties']);
    expect(read.body.properties).toEqual(created.body.properties);
  });

  it('updates only what the request names, reports configuration errors and deletes', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Quote' }, t.admin)).body.id;
    const updated = await t.json(
      'PATCH',
      `${NS}/contact-forms/${id}?context=save`,
      {
        mail: { sender: 'Quotes <quotes@elsewhere.example>' },
        messages: { mail_sent_ok: '  Thanks, [your-name]!  ' },
        additional_settings: 'demo_mode: on\nnot a setting\nskip_mail: off',
      },
      t.admin,
    );
    expect(updated.status).toBe(200);
    const mail = updated.body.properties.mail;
    expect(Object.keys(mail)).toEqual(['active', 'subject', 'sender', 'recipient', 'body', 'additional_headers', 'attachments', 'use_html', 'exclude_blank']);
    expect(mail).toMatchObject({ active: true, sender: 'Quotes <quotes@elsewhere.example>', recipient: '[_site_admin_email]', use_html: false });
    expect(updated.body.properties.messages.mail_sent_ok).toBe('Thanks, [your-name]!');
    expect(updated.body.properties.messages.validation_error).toBe('One or more fields have an error. Please check and try again.');
    expect(updated.body.properties.additional_settings.settings).toEqual({ 0: ['demo_mode', true], 2: ['skip_mail', false] });
    // demo_mode skips the mail checks; without it the broken recipient is reported.
    const broken = await t.json('PATCH', `${NS}/contact-forms/${id}?context=save`, { mail: { recipient: 'nobody' } }, t.admin);
    expect(broken.body.config_errors).toEqual([]);
    const live = await t.json('PATCH', `${NS}/contact-forms/${id}?context=save`, { additional_settings: '' }, t.admin);
    expect(live.body.config_errors).toEqual({
      'mail.recipient': [{ message: 'Invalid mailbox syntax is used.', link: 'https://contactform7.com/configuration-errors/invalid-mailbox-syntax' }],
    });
    expect(live.body.properties.mail.sender).toBe('Quotes <quotes@elsewhere.example>');
    const notFound = await t.json('POST', `${NS}/contact-forms/99999`, { title: 'x' }, t.admin);
    expect(notFound.body).toEqual({ code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } });
    const exists = await t.json('POST', `${NS}/contact-forms`, { id: 5, title: 'x' }, t.admin);
    expect(exists.body).toEqual({ code: 'wpcf7_post_exists', message: 'Cannot create existing contact form.', data: { status: 400 } });
    const badType = await t.json('POST', `${NS}/contact-forms?context=save`, { title: ['x'] }, t.admin);
    expect(badType.status).toBe(400);
    expect(badType.body.code).toBe('rest_invalid_param');
    const deleted = await t.json('DELETE', `${NS}/contact-forms/${id}`, undefined, t.admin);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await t.json('DELETE', `${NS}/contact-forms/${id}`, undefined, t.admin)).status).toBe(404);
  });

  it('serves the validation schema and the refill', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Schema', form: '[email* e] [number n min:1] [select s "A" "B"] [quiz q "2+2?|4"]' }, t.admin)).body.id;
    const schema = await t.json('GET', `${NS}/contact-forms/${id}/feedback/schema`);
    expect(schema.body).toEqual({
      version: 'Contact Form 7 SWV Schema 2024-02',
      locale: 'en_US',
      rules: [
        { rule: 'number', field: 'n', error: 'Please enter a number.' },
        { rule: 'minnumber', field: 'n', threshold: '1', error: 'This field has a too small number.' },
        { rule: 'required', field: 'e', error: 'Please fill out this field.' },
        { rule: 'email', field: 'e', error: 'Please enter an email address.' },
        { rule: 'maxlength', field: 'e', threshold: 400, error: 'This field has a too long input.' },
        { rule: 'enum', field: 's', accept: ['A', 'B'], error: 'Undefined value was submitted through this field.' },
      ],
    });
    const options = await t.json('OPTIONS', `${NS}/contact-forms/${id}/feedback/schema`);
    expect(Object.keys(options.body)).toEqual(['namespace', 'methods', 'endpoints', 'schema']);
    expect(options.body.schema).toMatchObject({ title: 'Contact Form 7 SWV', properties: { rules: { items: { required: ['rule'] } } } });
    const index = await t.json('GET', NS);
    expect(index.body.routes['/contact-forms/v1/contact-forms/(?P<id>\\d+)/feedback/schema']).toEqual({
      namespace: 'contact-forms/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: [] }],
    });
    expect(Object.keys(index.body.routes)).toEqual([
      '/contact-forms/v1',
      '/contact-forms/v1/contact-forms',
      '/contact-forms/v1/contact-forms/(?P<id>\\d+)',
      '/contact-forms/v1/contact-forms/(?P<id>\\d+)/feedback',
      '/contact-forms/v1/contact-forms/(?P<id>\\d+)/feedback/schema',
      '/contact-forms/v1/contact-forms/(?P<id>\\d+)/refill',
    ]);
    const refill = await t.json('GET', `${NS}/contact-forms/${id}/refill`);
    expect(refill.body).toEqual({ quiz: { q: ['2+2?', expect.stringMatching(/^[0-9a-f]{32}$/)] } });
    const plain = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Plain' }, t.admin)).body.id;
    expect((await t.json('GET', `${NS}/contact-forms/${plain}/refill`)).raw).toBe('[]');
    expect((await t.json('GET', `${NS}/contact-forms/99999/refill`)).body.code).toBe('wpcf7_not_found');
    expect((await t.json('GET', `${NS}/contact-forms/99999/feedback/schema`)).status).toBe(404);
  });

  it('answers bad feedback posts with the reference’s errors, never a 500', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Inbox', form: '[text your-name] [file f limit:10kb]' }, t.admin)).body.id;
    const url = `${t.server.url}${NS}/contact-forms/${id}/feedback`;
    const json = await rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"your-name":"x"}' });
    expect(toAnswer(json).body).toEqual({ code: 'wpcf7_unsupported_media_type', message: 'The request payload format is not supported.', data: { status: 415 } });
    const urlencoded = await rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '_wpcf7_unit_tag=x' });
    expect(urlencoded.status).toBe(415);
    const unknown = await t.multipart(`${NS}/contact-forms/99999/feedback`, hidden(99999));
    expect(unknown.body).toEqual({ code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } });
    const noTag = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [['your-name', 'x'], ['_wpcf7_unit_tag', '<>!']]);
    expect(noTag.body).toEqual({ code: 'wpcf7_unit_tag_not_found', message: 'There is no valid unit tag.', data: { status: 400 } });
    const bigFile = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['f', { filename: 'a.png', content: Buffer.alloc(20 * 1024) }]]);
    expect(bigFile.body.invalid_fields).toEqual([{ field: 'f', message: 'The uploaded file is too large.', idref: null, error_id: `wpcf7-f${id}-o1-ve-f` }]);
    const overLimit = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['f', { filename: 'a.png', content: Buffer.alloc(70 * 1024) }]]);
    expect(overLimit.status).toBe(413);
    expect(overLimit.body.code).toBe('rest_payload_too_large');
    const truncated = multipartBody([...hidden(id), ['your-name', 'x']]).subarray(0, 200);
    const malformed = await rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW', 'User-Agent': BROWSER_UA }, body: truncated });
    expect(malformed.status).toBe(400);
    expect(toAnswer(malformed).body.code).toBe('rest_invalid_body');
    const noBoundary = await rawRequest(url, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).toBe(400);
  });
});

describe('contact-forms/v1: rate limit', () => {
  const t = useFormsSite({ forms: { rateLimit: { max: 3, windowSeconds: 60 } } });

  it('answers 429 in the error envelope once an address posts too often, until the window ends', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Limited', form: '[text your-name]' }, t.admin)).body.id;
    const post = () => t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['your-name', 'x']]);
    for (let i = 0; i < 3; i++) expect((await post()).body.status).toBe('mail_sent');
    const limited = await post();
    expect(limited.status).toBe(429);
    const retry = Number(limited.header('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      code: 'wpcf7_too_many_requests',
      message: `Too many submissions from your address. Please try again in ${retry} seconds.`,
      data: { status: 429, retry_after: retry },
    });
    t.clock.advance(retry * 1000);
    expect((await post()).body.status).toBe('mail_sent');
  });
});

describe('contact-forms/v1: rate limit per sender network', () => {
  const t = useFormsSite({ forms: { rateLimit: { max: 2, windowSeconds: 60 }, remoteIp: (request) => headerValue(request.headers, 'x-test-ip') ?? '' } });

  it('counts an IPv6 /64 as one sender, an IPv4 address as one, and a long address under its first 200 characters', async () => {
    const id = (await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Per network', form: '[text your-name]' }, t.admin)).body.id;
    const post = (ip: string) => t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['your-name', 'x']], { 'X-Test-IP': ip });
    expect((await post('2001:db8:1:2::1')).body.status).toBe('mail_sent');
    expect((await post('2001:db8:1:2:ffff::9')).body.status).toBe('mail_sent');
    expect((await post('2001:0db8:0001:0002:0000:0000:0000:0077')).status).toBe(429);
    expect((await post('2001:db8:1:3::1')).body.status).toBe('mail_sent');
    for (const ip of ['192.0.2.1', '192.0.2.1']) expect((await post(ip)).body.status).toBe('mail_sent');
    expect((await post('192.0.2.1')).status).toBe(429);
    expect((await post('192.0.2.2')).body.status).toBe('mail_sent');
    const long = 'x'.repeat(300);
    for (const suffix of ['a', 'b']) expect((await post(`${long}${suffix}`)).body.status).toBe('mail_sent');
    expect((await post(`${long}c`)).status).toBe(429);
  });
});
