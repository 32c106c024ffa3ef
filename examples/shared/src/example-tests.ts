import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { basicAuth, header, rawRequest } from '@siterest/core/testing';
import { startExample, type StartedExample } from './spawn.js';
import { exampleDatabase } from './test-database.js';

/** What both example servers must do when started the way the README says. */
export function exampleServerSuite(name: string, main: string): void {
  describe(`${name} example server`, { timeout: 120_000 }, () => {
    let running: StartedExample | null = null;

    afterEach(async () => {
      if (running) expect(await running.stop()).toBe(0);
      running = null;
    });

    it('serves the API with demo data and prints working credentials', async () => {
      running = await startExample(main, { SITEREST_NOW: '2026-11-21T16:41:37Z', SITEREST_SITE_NAME: 'Demo Town' });
      const root = await rawRequest(running.apiUrl);
      expect(root.status).toBe(200);
      expect(JSON.parse(root.body)).toMatchObject({ name: 'Demo Town', url: running.apiUrl.replace(/\/api\/$/, '') });
      const categories = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/categories?hide_empty=0&per_page=50`)).body);
      expect(categories.total).toBeGreaterThan(5);
      expect(running.password).toMatch(/^[A-Za-z0-9]{24}$/);
      const created = await rawRequest(`${running.apiUrl}cal/events/v1/tags`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
        body: '{"name":"From the test"}',
      });
      expect(created.status).toBe(201);
    });

    it('redirects at the root: the demo redirects, and one created through the API at once', async () => {
      running = await startExample(main, { SITEREST_NOW: '2026-11-21T16:41:37Z' });
      const root = running.apiUrl.replace(/api\/$/, '');
      const demo = await rawRequest(`${root}old-page`);
      expect(demo.status).toBe(301);
      expect(header(demo, 'location')).toBe('/api/');
      const created = await rawRequest(`${running.apiUrl}redirection/v1/redirect`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: '/brand-new', action_type: 'url', match_type: 'url', action_code: 301, group_id: 1, action_data: { url: '/api/' } }),
      });
      expect(created.status).toBe(200);
      const redirected = await rawRequest(`${root}brand-new`);
      expect(redirected.status).toBe(301);
      expect(header(redirected, 'x-redirect-by')).toBe('redirection');
      expect((await rawRequest(`${root}retired-page`)).status).toBe(410);
    });

    it('takes the admin password from the environment and starts empty without the seed', async () => {
      running = await startExample(main, { SITEREST_ADMIN_PASSWORD: 'demo-secret-1', SITEREST_SEED: 'none' });
      expect(running.password).toBeNull();
      expect(running.output()).not.toContain('demo-secret-1');
      const categories = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/categories?hide_empty=0`)).body);
      expect(categories.total).toBe(0);
      const whoami = await rawRequest(`${running.apiUrl}cal/events/v1/categories`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', 'demo-secret-1'), 'Content-Type': 'application/json' },
        body: '{"name":"Env"}',
      });
      expect(whoami.status).toBe(201);
    });

    it('keeps its data in PostgreSQL across restarts when DATABASE_URL is set', async () => {
      const database = await exampleDatabase();
      try {
        running = await startExample(main, { DATABASE_URL: database.url, SITEREST_NOW: '2026-11-21T16:41:37Z' });
        const first = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/events?per_page=1`)).body);
        expect(first.total).toBeGreaterThan(20);
        const created = await rawRequest(`${running.apiUrl}cal/events/v1/tags`, {
          method: 'POST',
          headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
          body: '{"name":"Persisted"}',
        });
        expect(created.status).toBe(201);
        expect(await running.stop()).toBe(0);
        running = await startExample(main, { DATABASE_URL: database.url, SITEREST_NOW: '2026-11-21T16:41:37Z' });
        const again = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/events?per_page=1`)).body);
        expect(again.total).toBe(first.total);
        const tags = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/tags?hide_empty=0&search=Persisted`)).body);
        expect(tags.total).toBe(1);
      } finally {
        if (running) expect(await running.stop()).toBe(0);
        running = null;
        await database.drop();
      }
    }, 120_000); // two starts with migrations: slow on a busy machine

    it('sends contact form mail through SITEREST_SMTP_URL', async () => {
      const received: string[] = [];
      const smtp = new SMTPServer({
        disabledCommands: ['STARTTLS'],
        allowInsecureAuth: true,
        logger: false,
        onAuth: (auth, _session, callback) => (auth.username === 'demo' && auth.password === 'pw' ? callback(null, { user: 'demo' }) : callback(new Error('no'))),
        onData: (stream, _session, callback) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            received.push(Buffer.concat(chunks).toString());
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      try {
        const port = (smtp.server.address() as AddressInfo).port;
        running = await startExample(main, { SITEREST_SMTP_URL: `smtp://demo:pw@127.0.0.1:${port}`, SITEREST_NOW: '2026-11-21T16:41:37Z' });
        const forms = JSON.parse((await rawRequest(`${running.apiUrl}contact-forms/v1/contact-forms`, { headers: { Authorization: basicAuth('admin', running.password!) } })).body);
        expect(forms).toEqual([expect.objectContaining({ title: 'Contact form 1', slug: 'contact-form-1' })]);
        const id = forms[0].id;
        const boundary = 'xyz';
        const fields: Array<[string, string]> = [
          ['_wpcf7_unit_tag', `wpcf7-f${id}-o1`],
          ['your-name', 'Demo Visitor'],
          ['your-email', 'visitor@example.org'],
          ['your-subject', 'Hello from the example'],
          ['your-message', 'It works.'],
        ];
        const body = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') + `--${boundary}--\r\n`;
        const feedback = await rawRequest(`${running.apiUrl}contact-forms/v1/contact-forms/${id}/feedback`, {
          method: 'POST',
          headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'User-Agent': 'example-test/1.0' },
          body,
        });
        expect(JSON.parse(feedback.body)).toMatchObject({ status: 'mail_sent' });
        expect(received).toHaveLength(1);
        expect(received[0]).toContain('Hello from the example');
      } finally {
        await new Promise<void>((resolve) => smtp.close(() => resolve()));
      }
    });

    it('refuses an invalid environment with a clear message', async () => {
      await expect(startExample(main, { PORT: 'eighty' })).rejects.toThrow(/PORT/);
    });
  });
}
