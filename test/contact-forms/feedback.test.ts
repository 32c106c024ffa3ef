import { describe, expect, it } from 'vitest';
import { contactForms } from '@siterest/core';
import { serveWithFastify } from '../../packages/adapter-fastify/test/serve.js';
import { storeVariants } from '../support/stores.js';
import { hidden, NS, useFormsSite, type FormsSite, type Part } from './harness.js';

/** A form with every standard tag type, mailing the chosen department (a pipe) with the upload attached. */
const EVERY_TAG = `<label> Name [text* your-name id:name-field minlength:2] </label>
[email* your-email]
[url your-site]
[tel your-phone]
[number your-age min:18 max:120]
[range your-mood min:1 max:10]
[date your-date min:2026-01-01 max:2026-12-31]
[textarea your-message maxlength:50]
[select* your-topic "Support|support@example.org" "Sales|sales@example.org"]
[checkbox your-extras "Newsletter" "Catalogue"]
[radio your-plan default:1 "Basic" "Pro"]
[acceptance your-consent] I agree to the terms [/acceptance]
[quiz your-quiz "What is 1+1?|2"]
[file your-file filetypes:txt|pdf limit:1kb]
[honeypot your-website]
[submit "Send"]`;

const MAIL = {
  subject: '[_site_title] "[your-name]"',
  sender: 'Forms <forms@example.org>',
  recipient: '[your-topic]',
  body: 'From [your-name] <[your-email]>\nExtras: [your-extras]\nPlan: [your-plan]\n[your-consent]\nFile: [your-file]\nSent [_date] from [_remote_ip] via [_contact_form_title]\n\n[your-message]',
  additional_headers: 'Reply-To: [your-email]\nX-Form: [_contact_form_title]',
  attachments: '[your-file]',
};

async function createForm(t: FormsSite, body: Record<string, unknown>): Promise<number> {
  const created = await t.json('POST', `${NS}/contact-forms?context=save`, body, t.admin);
  expect(created.status).toBe(200);
  return created.body.id;
}

async function quizAnswer(t: FormsSite, id: number): Promise<Part[]> {
  const refill = await t.json('GET', `${NS}/contact-forms/${id}/refill`);
  expect(refill.status).toBe(200);
  const [question, hash] = refill.body.quiz['your-quiz'];
  expect(question).toBe('What is 1+1?');
  return [
    ['your-quiz', '2'],
    ['_wpcf7_quiz_answer_your-quiz', hash],
  ];
}

function validParts(id: number, quiz: Part[]): Part[] {
  return [
    ...hidden(id),
    ['your-name', 'Ada Lovelace'],
    ['your-email', 'ada@example.org'],
    ['your-site', 'https://ada.example.org'],
    ['your-phone', '+44 (20) 7946-0000'],
    ['your-age', '36'],
    ['your-mood', '7'],
    ['your-date', '2026-12-10'],
    ['your-message', 'Hello from the engine.'],
    ['your-topic', 'Sales'],
    ['your-extras[]', 'Newsletter'],
    ['your-extras[]', 'Catalogue'],
    ['your-plan', 'Pro'],
    ['your-consent', '1'],
    ...quiz,
    ['your-file', { filename: 'notes.txt', content: 'analytical engine', type: 'text/plain' }],
    ['your-website', ''],
  ];
}

function feedbackSuite(label: string, options: Parameters<typeof useFormsSite>[0]) {
  describe(`feedback over HTTP (${label})`, () => {
    let aborted = 0;
    const t = useFormsSite({
      ...options,
      forms: {
        rateLimit: false,
        beforeSendMail: (event) => {
          if (event.fields.some(([name, value]) => name === 'your-message' && value === 'please abort')) {
            aborted++;
            event.abort('Stopped by the site.');
          }
        },
      },
    });
    let id = 0;
    const post = (parts: Part[], headers?: Record<string, string>) => t.multipart(`${NS}/contact-forms/${id}/feedback`, parts, headers);

    it('creates the form with every tag type and describes its fields', async () => {
      id = await createForm(t, { title: 'Everything', form: EVERY_TAG, mail: MAIL });
      const read = await t.json('GET', `${NS}/contact-forms/${id}`, undefined, t.admin);
      const fields = read.body.properties.form.fields;
      expect(fields.map((f: any) => f.type)).toEqual([
        'text*', 'email*', 'url', 'tel', 'number', 'range', 'date', 'textarea', 'select*', 'checkbox', 'radio', 'acceptance', 'quiz', 'file', 'honeypot', 'submit',
      ]);
      expect(fields[8]).toEqual({
        type: 'select*',
        basetype: 'select',
        name: 'your-topic',
        options: [],
        raw_values: ['Support|support@example.org', 'Sales|sales@example.org'],
        labels: ['Support', 'Sales'],
        values: ['Support', 'Sales'],
        pipes: [
          ['Support', 'support@example.org'],
          ['Sales', 'sales@example.org'],
        ],
        content: '',
      });
      expect(fields[11]).toMatchObject({ name: 'your-consent', content: 'I agree to the terms' });
      expect(fields[0]).toMatchObject({ name: 'your-name', options: ['id:name-field', 'minlength:2'] });
    });

    it('answers validation_failed with every invalid field, in Contact Form 7’s order and key order', async () => {
      const response = await post([
        ...hidden(id),
        ['your-name', 'A'],
        ['your-email', 'not-an-email'],
        ['your-site', 'ftp:/broken'],
        ['your-phone', '12-ab'],
        ['your-age', '12'],
        ['your-mood', '11'],
        ['your-date', '2027-01-05'],
        ['your-message', 'x'.repeat(51)],
        ['your-topic', 'Marketing'],
        ['your-extras[]', 'Stickers'],
        ['your-plan', 'Enterprise'],
        ['your-quiz', '3'],
        ['_wpcf7_quiz_answer_your-quiz', 'wrong'],
        ['your-file', { filename: 'virus.exe', content: 'MZ' }],
      ]);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['contact_form_id', 'status', 'message', 'invalid_fields', 'posted_data_hash', 'into', 'quiz']);
      expect(response.body).toMatchObject({ contact_form_id: id, status: 'validation_failed', message: 'One or more fields have an error. Please check and try again.', posted_data_hash: '', into: `#wpcf7-f${id}-o1` });
      const byField = Object.fromEntries(response.body.invalid_fields.map((f: any) => [f.field, f.message]));
      expect(byField).toEqual({
        'your-extras': 'Undefined value was submitted through this field.',
        'your-plan': 'Undefined value was submitted through this field.',
        'your-date': 'This field has a too late date.',
        'your-age': 'This field has a too small number.',
        'your-mood': 'This field has a too large number.',
        'your-topic': 'Undefined value was submitted through this field.',
        'your-name': 'This field has a too short input.',
        'your-email': 'Please enter an email address.',
        'your-site': 'Please enter a URL.',
        'your-phone': 'Please enter a telephone number.',
        'your-message': 'This field has a too long input.',
        'your-quiz': 'The answer to the quiz is incorrect.',
      });
      // Module order (checkbox, date, file, number, select, text, textarea), then the allowed values, then the quiz.
      expect(response.body.invalid_fields.map((f: any) => f.field)).toEqual([
        'your-date', 'your-age', 'your-mood', 'your-name', 'your-email', 'your-site', 'your-phone', 'your-message', 'your-extras', 'your-plan', 'your-topic', 'your-quiz',
      ]);
      expect(response.body.invalid_fields.find((f: any) => f.field === 'your-name')).toEqual({
        field: 'your-name',
        message: 'This field has a too short input.',
        idref: 'name-field',
        error_id: `wpcf7-f${id}-o1-ve-your-name`,
      });
      expect(Object.keys(response.body.invalid_fields[0])).toEqual(['field', 'message', 'idref', 'error_id']);
      // Required fields left empty.
      const empty = await post([...hidden(id), ['your-file', { filename: '', content: '' }]]);
      expect(empty.body.invalid_fields.map((f: any) => [f.field, f.message])).toEqual(
        expect.arrayContaining([
          ['your-name', 'Please fill out this field.'],
          ['your-email', 'Please fill out this field.'],
          ['your-topic', 'Please fill out this field.'],
          ['your-plan', 'Please fill out this field.'],
        ]),
      );
      // Nothing is stored for a failed validation.
      expect((await contactForms(t.site).submissions({ formId: id })).total).toBe(0);
    });

    it('rejects files by type and size', async () => {
      const quiz = await quizAnswer(t, id);
      const base = validParts(id, quiz).filter(([name]) => name !== 'your-file');
      const big = await post([...base, ['your-file', { filename: 'big.txt', content: Buffer.alloc(2048, 97) }]]);
      expect(big.body.status).toBe('validation_failed');
      expect(big.body.invalid_fields).toEqual([{ field: 'your-file', message: 'The uploaded file is too large.', idref: null, error_id: `wpcf7-f${id}-o1-ve-your-file` }]);
      const type = await post([...base, ['your-file', { filename: 'run.php', content: '<?php' }]]);
      expect(type.body.invalid_fields).toEqual([{ field: 'your-file', message: 'You are not allowed to upload files of this type.', idref: null, error_id: `wpcf7-f${id}-o1-ve-your-file` }]);
    });

    it('answers acceptance_missing when the terms are not accepted', async () => {
      const quiz = await quizAnswer(t, id);
      const response = await post(validParts(id, quiz).filter(([name]) => name !== 'your-consent'));
      expect(response.body).toEqual({
        contact_form_id: id,
        status: 'acceptance_missing',
        message: 'You must accept the terms and conditions before sending your message.',
        posted_data_hash: '',
        into: `#wpcf7-f${id}-o1`,
        invalid_fields: [],
        quiz: { 'your-quiz': ['What is 1+1?', expect.stringMatching(/^[0-9a-f]{32}$/)] },
      });
    });

    it('answers spam for a missing User-Agent or a filled honeypot, and keeps the submission as spam', async () => {
      const quiz = await quizAnswer(t, id);
      const noAgent = await post(validParts(id, quiz), { 'User-Agent': 'x' });
      expect(noAgent.body).toMatchObject({ status: 'spam', message: 'There was an error trying to send your message. Please try again later.', posted_data_hash: '' });
      const parts = validParts(id, quiz).map((part): Part => (part[0] === 'your-website' ? ['your-website', 'http://spam.example'] : part));
      const honeypot = await post(parts);
      expect(honeypot.body.status).toBe('spam');
      const stored = await contactForms(t.site).submissions({ formId: id, status: 'spam' });
      expect(stored.total).toBe(2);
      expect(stored.items[0]!.spamLog).toEqual([{ agent: 'honeypot', reason: 'The honeypot field "your-website" was filled in.' }]);
      expect(stored.items[1]!.spamLog).toEqual([{ agent: 'wpcf7', reason: 'User-Agent string is unnaturally short.' }]);
    });

    it('answers aborted when a before-send hook stops the mail', async () => {
      const quiz = await quizAnswer(t, id);
      const parts = validParts(id, quiz).map((part): Part => (part[0] === 'your-message' ? ['your-message', 'please abort'] : part));
      const response = await post(parts);
      expect(response.body).toMatchObject({ status: 'aborted', message: 'Stopped by the site.', posted_data_hash: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(aborted).toBe(1);
      expect((await contactForms(t.site).submissions({ formId: id, status: 'aborted' })).total).toBe(1);
    });

    it('answers mail_sent, stores the submission with its file and keeps the mail in the outbox', async () => {
      const quiz = await quizAnswer(t, id);
      const response = await post(validParts(id, quiz), { Referer: 'http://127.0.0.1:8080/contact/' });
      expect(Object.keys(response.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'into', 'invalid_fields', 'quiz']);
      expect(response.body).toMatchObject({ contact_form_id: id, status: 'mail_sent', message: 'Thank you for your message. It has been sent.', invalid_fields: [] });
      expect(response.body.posted_data_hash).toMatch(/^[0-9a-f]{32}$/);

      const admin = contactForms(t.site);
      const [stored] = (await admin.submissions({ formId: id, status: 'mail_sent' })).items;
      expect(stored).toBeDefined();
      expect(new Map(stored!.fields)).toEqual(
        new Map<string, string | string[]>([
          ['your-name', 'Ada Lovelace'],
          ['your-email', 'ada@example.org'],
          ['your-site', 'https://ada.example.org'],
          ['your-phone', '+44 (20) 7946-0000'],
          ['your-age', '36'],
          ['your-mood', '7'],
          ['your-date', '2026-12-10'],
          ['your-message', 'Hello from the engine.'],
          ['your-topic', ['sales@example.org']],
          ['your-extras', ['Newsletter', 'Catalogue']],
          ['your-plan', ['Pro']],
          ['your-consent', ['1']],
          ['your-file', expect.stringMatching(/^[0-9a-f]{32}$/)],
        ]),
      );
      expect(stored!.files).toEqual([
        { field: 'your-file', key: expect.stringMatching(/^contact-forms\/[0-9a-f]{16}\/notes\.txt$/), filename: 'notes.txt', contentType: 'text/plain', size: 17, md5: expect.any(String) },
      ]);
      expect((await admin.file(stored!.files[0]!.key))?.toString()).toBe('analytical engine');
      expect(stored!.meta).toMatchObject({ remoteIp: '127.0.0.1', unitTag: `wpcf7-f${id}-o1`, url: 'http://127.0.0.1:8080/contact/', timestamp: Date.parse('2026-11-21T16:41:37Z') / 1000 });
      expect(stored!.meta.userAgent).toContain('Mozilla/5.0');
      expect(stored!.postedDataHash).toBe(response.body.posted_data_hash);

      const outbox = await admin.outbox({ submissionId: stored!.id });
      expect(outbox.items).toHaveLength(1);
      const mail = outbox.items[0]!;
      expect(mail).toMatchObject({ status: 'stored', template: 'mail', transport: 'store', attempts: 1 });
      expect(mail.message).toMatchObject({
        from: 'Forms <forms@example.org>',
        to: ['sales@example.org'],
        replyTo: ['ada@example.org'],
        subject: 'Forms & Co "Ada Lovelace"',
        headers: [['X-Form', 'Everything']],
        html: false,
      });
      expect(mail.message.body).toBe(
        'From Ada Lovelace <ada@example.org>\nExtras: Newsletter, Catalogue\nPlan: Pro\nConsented: I agree to the terms\nFile: notes.txt\n' +
          'Sent November 21, 2026 from 127.0.0.1 via Everything\n\nHello from the engine.',
      );
      expect(mail.message.attachments).toEqual([{ filename: 'notes.txt', contentType: 'text/plain', key: stored!.files[0]!.key, size: 17 }]);
    });

    it('answers mail_failed when the mail cannot go out, and keeps the submission', async () => {
      const broken = await createForm(t, { title: 'Broken', form: '[text* your-name]', mail: { ...MAIL, recipient: 'nobody', attachments: '' } });
      const response = await t.multipart(`${NS}/contact-forms/${broken}/feedback`, [...hidden(broken), ['your-name', 'Ada']]);
      expect(response.body).toMatchObject({ status: 'mail_failed', message: 'There was an error trying to send your message. Please try again later.' });
      expect(response.body.posted_data_hash).toMatch(/^[0-9a-f]{32}$/);
      const stored = await contactForms(t.site).submissions({ formId: broken });
      expect(stored.items.map((s) => [s.status, new Map(s.fields).get('your-name')])).toEqual([['mail_failed', 'Ada']]);
    });

    it('reports demo mode without sending, and refuses subscribers-only forms to visitors', async () => {
      const demo = await createForm(t, { title: 'Demo', form: '[text your-name]', additional_settings: 'demo_mode: on' });
      const response = await t.multipart(`${NS}/contact-forms/${demo}/feedback`, [...hidden(demo), ['your-name', 'Ada']]);
      expect(Object.keys(response.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'demo_mode', 'into', 'invalid_fields']);
      expect(response.body).toMatchObject({ status: 'mail_sent', demo_mode: true });
      expect((await contactForms(t.site).outbox({ submissionId: (await contactForms(t.site).submissions({ formId: demo })).items[0]!.id })).total).toBe(0);

      const members = await createForm(t, { title: 'Members', form: '[text your-name]', additional_settings: 'subscribers_only: true' });
      const anonymous = await t.multipart(`${NS}/contact-forms/${members}/feedback`, [...hidden(members), ['your-name', 'Ada']]);
      expect(anonymous.body).toEqual({
        contact_form_id: members,
        status: 'error',
        message: 'This contact form is available only for logged in users.',
        into: `#wpcf7-f${members}-o1`,
        invalid_fields: [],
      });
      const signedIn = await t.multipart(`${NS}/contact-forms/${members}/feedback`, [...hidden(members), ['your-name', 'Ada']], { Authorization: t.subscriber });
      expect(signedIn.body.status).toBe('mail_sent');
    });
  });
}

for (const variant of storeVariants()) feedbackSuite(`${variant.label}, Express`, { store: variant });
feedbackSuite('memory store, Fastify', { serve: serveWithFastify });
