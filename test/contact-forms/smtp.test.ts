import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactForms, localFileStorage, smtpTransport, parseSmtpUrl } from '@siterest/core';
import { storeVariants } from '../support/stores.js';
import { hidden, NS, useFormsSite } from './harness.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that requires a login and keeps what it receives. */
class TestSmtp {
  readonly received: Received[] = [];
  port = 0;
  private server: SMTPServer | null = null;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === 'forms' && auth.password === 's3cret:pw') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://forms:${encodeURIComponent('s3cret:pw')}@127.0.0.1:${this.port}`;
  }
}

describe('SMTP URLs', () => {
  it('reads user, password, host and port, and refuses other schemes', () => {
    expect(parseSmtpUrl('smtp://user:p%40ss@mail.example.org:2525')).toEqual({ host: 'mail.example.org', port: 2525, secure: false, user: 'user', password: 'p@ss' });
    expect(parseSmtpUrl('smtps://mail.example.org')).toMatchObject({ port: 465, secure: true });
    expect(() => parseSmtpUrl('http://mail.example.org')).toThrow(/smtp:\/\//);
  });
});

for (const variant of storeVariants()) {
  describe(`mail through a real SMTP server (${variant.label})`, () => {
    const smtp = new TestSmtp();
    let transport: ReturnType<typeof smtpTransport>;
    // Uploads in a folder of their own, so that the tests can see every file left in it.
    const uploads = mkdtempSync(join(tmpdir(), 'siterest-uploads-'));
    const filesLeft = () => readdirSync(uploads, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(uploads, path)).isFile());
    beforeAll(async () => {
      await smtp.start();
      transport = smtpTransport({ ...parseSmtpUrl(smtp.url), connectionTimeout: 2000, greetingTimeout: 2000, socketTimeout: 5000 });
    });
    afterAll(async () => {
      await transport?.close?.();
      await smtp.stop();
      rmSync(uploads, { recursive: true, force: true });
    });
    const t = useFormsSite({
      store: variant,
      forms: { rateLimit: false, mail: { name: 'smtp', send: (mail) => transport.send(mail) }, files: localFileStorage({ directory: uploads, baseUrl: 'http://127.0.0.1:8080/uploads' }) },
    });

    it('delivers mail and mail_2 with the upload attached, and records them as sent', async () => {
      const created = await t.json(
        'POST',
        `${NS}/contact-forms?context=save`,
        {
          title: 'Support',
          form: '[text* your-name] [email* your-email] [file cv filetypes:txt] [textarea your-message]',
          mail: { subject: 'Support: [your-name]', sender: 'Site <site@example.org>', recipient: 'help@example.org', body: '[your-message]\n-- [your-name]', attachments: '[cv]' },
          mail_2: { active: true, subject: 'We got it', sender: 'Site <site@example.org>', recipient: '[your-email]', body: 'Thanks [your-name].' },
        },
        t.admin,
      );
      const id = created.body.id;
      const response = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [
        ...hidden(id),
        ['your-name', 'Grace'],
        ['your-email', 'grace@example.org'],
        ['your-message', 'The compiler works.'],
        ['cv', { filename: 'cv.txt', content: 'COBOL', type: 'text/plain' }],
      ]);
      expect(response.body.status).toBe('mail_sent');
      expect(smtp.received).toHaveLength(2);
      const [main, reply] = smtp.received;
      expect(main!.to).toEqual(['help@example.org']);
      expect(main!.from).toBe('site@example.org');
      expect(main!.raw).toContain('Subject: Support: Grace');
      expect(main!.raw).toContain('The compiler works.');
      expect(main!.raw).toMatch(/filename=cv\.txt/);
      expect(main!.raw).toContain(Buffer.from('COBOL').toString('base64'));
      expect(reply!.to).toEqual(['grace@example.org']);
      expect(reply!.raw).toContain('Thanks Grace.');
      const [submission] = (await contactForms(t.site).submissions({ formId: id })).items;
      const outbox = await contactForms(t.site).outbox({ submissionId: submission!.id });
      expect(outbox.items.map((m) => [m.template, m.status, m.transport])).toEqual([
        ['mail', 'sent', 'smtp'],
        ['mail_2', 'sent', 'smtp'],
      ]);
    });

    it('keeps the submission when the server is down, answers mail_failed, and a later resend delivers it', async () => {
      const id = (
        await t.json(
          'POST',
          `${NS}/contact-forms?context=save`,
          { title: 'Outage', form: '[text* your-name]', mail: { subject: 'Outage test [your-name]', sender: 'Site <site@example.org>', recipient: 'ops@example.org', body: 'Body [your-name]' } },
          t.admin,
        )
      ).body.id;
      const port = smtp.port;
      await transport.close?.();
      await smtp.stop();
      transport = smtpTransport({ ...parseSmtpUrl(smtp.url), connectionTimeout: 2000, greetingTimeout: 2000, socketTimeout: 5000 });
      const before = smtp.received.length;
      const response = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['your-name', 'Linus']]);
      expect(response.body).toMatchObject({ status: 'mail_failed', message: 'There was an error trying to send your message. Please try again later.' });
      const admin = contactForms(t.site);
      const [stored] = (await admin.submissions({ formId: id })).items;
      expect(stored).toMatchObject({ status: 'mail_failed', fields: [['your-name', 'Linus']] });
      const failed = await admin.outbox({ submissionId: stored!.id });
      expect(failed.items).toHaveLength(1);
      expect(failed.items[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(failed.items[0]!.error).toMatch(/ECONNREFUSED|connect/i);

      await smtp.start(port);
      expect(await admin.resend(stored!.id)).toBe(true);
      expect(smtp.received.length).toBe(before + 1);
      expect(smtp.received.at(-1)!.raw).toContain('Subject: Outage test Linus');
      expect(await admin.submission(stored!.id)).toMatchObject({ status: 'mail_sent' });
      expect((await admin.outbox({ submissionId: stored!.id })).items[0]).toMatchObject({ status: 'sent', attempts: 2, error: null });
    });

    it('deletes the uploads of a do_not_store form once no mail needs them: at once when it is sent, after the resend when it failed', async () => {
      const id = (
        await t.json(
          'POST',
          `${NS}/contact-forms?context=save`,
          {
            title: 'Kept nowhere',
            form: '[text* your-name] [file cv filetypes:txt] [file photo filetypes:txt]',
            mail: { subject: 'CV of [your-name]', sender: 'Site <site@example.org>', recipient: 'jobs@example.org', body: '[your-name] [photo]', attachments: '[cv]' },
            additional_settings: 'do_not_store: true',
          },
          t.admin,
        )
      ).body.id;
      const parts = (name: string) => [
        ...hidden(id),
        ['your-name', name] as [string, string],
        ['cv', { filename: 'cv.txt', content: `CV of ${name}`, type: 'text/plain' }] as [string, { filename: string; content: string; type: string }],
        ['photo', { filename: 'photo.txt', content: 'not attached', type: 'text/plain' }] as [string, { filename: string; content: string; type: string }],
      ];
      const admin = contactForms(t.site);
      const earlier = new Set(filesLeft());
      const newFiles = () => filesLeft().filter((path) => !earlier.has(path));

      expect((await t.multipart(`${NS}/contact-forms/${id}/feedback`, parts('Ada'))).body.status).toBe('mail_sent');
      expect(smtp.received.at(-1)!.raw).toContain(Buffer.from('CV of Ada').toString('base64'));
      const [sent] = (await admin.submissions({ formId: id })).items;
      expect(sent).toMatchObject({ fields: [], files: [] });
      expect(newFiles()).toEqual([]);

      // The server is down: the attached file waits for the resend, the other one goes.
      const port = smtp.port;
      await transport.close?.();
      await smtp.stop();
      transport = smtpTransport({ ...parseSmtpUrl(smtp.url), connectionTimeout: 2000, greetingTimeout: 2000, socketTimeout: 5000 });
      expect((await t.multipart(`${NS}/contact-forms/${id}/feedback`, parts('Linus'))).body.status).toBe('mail_failed');
      expect(newFiles()).toEqual([expect.stringMatching(/^contact-forms\/[0-9a-f]{16}\/cv\.txt$/)]);
      const [failed] = (await admin.submissions({ formId: id, status: 'mail_failed' })).items;
      await smtp.start(port);
      expect(await admin.resend(failed!.id)).toBe(true);
      expect(smtp.received.at(-1)!.raw).toContain(Buffer.from('CV of Linus').toString('base64'));
      expect(newFiles()).toEqual([]);
    });
  });
}
