import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedConsumer, run } from '../../scripts/packed.js';

/**
 * Apps a team would write, built on the packages as published (packed, installed outside the workspace): each
 * has its own body parsers, routes before and after siterest's mount, a 404 of its own, sessions that sign users
 * in through the `authenticate` hook, and a database with its own `users` table next to siterest's schema.
 */

const DATABASE_URL = process.env.DATABASE_URL;

interface Response {
  status: number;
  headers: Headers;
  text: string;
  json: () => any;
}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A database of the app's own on the server, with its `users` table, migrated by the siterest-migrate bin. */
async function appDatabase(consumer: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (!DATABASE_URL) return null;
  const name = `siterest_embed_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const app = new pg.Client({ connectionString: url.toString() });
  await app.connect();
  await app.query('CREATE TABLE public.users (id serial PRIMARY KEY, email text NOT NULL UNIQUE)');
  await app.query("INSERT INTO public.users (email) VALUES ('owner@app.example')");
  await app.end();
  const migrated = run(join(consumer, 'node_modules', '.bin', 'siterest-migrate'), [], {
    cwd: consumer,
    env: { ...process.env, DATABASE_URL: url.toString() },
    capture: true,
  });
  expect(migrated).toMatch(/schema "siterest" migrated to version \d+/);
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function startApp(consumer: string, file: string, databaseUrl: string | undefined): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const { DATABASE_URL: _suite, ...env } = process.env;
  const child = spawn(process.execPath, [file], {
    cwd: consumer,
    env: databaseUrl ? { ...env, DATABASE_URL: databaseUrl } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}:\n${output}`));
    });
  });
}

let consumer: string;

beforeAll(() => {
  consumer = packedConsumer().dir;
  const apps = fileURLToPath(new URL('./apps/', import.meta.url));
  for (const file of readdirSync(apps)) copyFileSync(join(apps, file), join(consumer, file));
});

describe.each(['express', 'fastify'])('a %s app on the packed packages', (framework) => {
  let app: { url: string; child: ChildProcess; output: () => string };
  let database: { url: string; drop(): Promise<void> } | null = null;
  const api = (path: string) => `${app.url}/api${path}`;
  const event = { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' };

  beforeAll(async () => {
    database = await appDatabase(consumer);
    app = await startApp(consumer, `${framework}-app.mjs`, database?.url);
  });

  afterAll(async () => {
    if (app) {
      const exited = new Promise((resolve) => app.child.once('exit', resolve));
      app.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    await database?.drop();
  });

  const signIn = async () => {
    const login = await call(`${app.url}/app/login`, { method: 'POST' });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    return { cookie, nonce: login.json().nonce as string };
  };

  it('serves the API next to the app\'s own routes, parsers and 404, and the app keeps its users table', async () => {
    const root = await call(api('/'));
    expect(root.status).toBe(200);
    // Every namespace siterest ships, in WordPress's load order.
    expect(root.json()).toMatchObject({
      name: 'Embedded',
      namespaces: ['oembed/1.0', 'contact-forms/v1', 'popups/v1', 'redirection/v1', 'regenerate-thumbnails/v1', 'cal/events/v1', 'seo/v1', 'rest/v1', 'wp/v2'],
    });
    expect((await call(api('/app/before'))).json()).toEqual({ app: 'before' });
    expect((await call(api('/app/after'))).json()).toEqual({ app: 'after', appUsers: 1 });
    const missing = await call(api('/app/missing'));
    expect([missing.status, missing.json()]).toEqual([404, { app: 'not found' }]);
    expect((await call(api('/cal/events/v1/nope'))).json().code).toBe('rest_no_route');
    // The app's own parsers still read the bodies of its routes after the mount.
    const echo = await call(api('/app/echo'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(echo.json()).toEqual({ echoed: { a: 1 } });
  });

  it('signs in through the app\'s session and writes with the nonce, from JSON and form bodies', async () => {
    const { cookie, nonce } = await signIn();
    const headers = { Cookie: cookie, 'X-WP-Nonce': nonce, 'Content-Type': 'application/json' };
    const created = await call(api('/cal/events/v1/events'), { method: 'POST', headers, body: JSON.stringify({ title: 'Launch', ...event }) });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-wp-nonce')).toMatch(/^[0-9a-f]{10}$/);
    const id = created.json().id;
    const updated = await call(api(`/cal/events/v1/events/${id}`), { method: 'PUT', headers, body: JSON.stringify({ title: 'Launch party' }) });
    expect(updated.status).toBe(200);
    expect((await call(api(`/cal/events/v1/events/${id}`))).json().title).toBe('Launch party');

    const form = await call(api('/cal/events/v1/tags'), {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `name=From+a+form&description=Tags%5B%5D+and+all&_wpnonce=${nonce}`,
    });
    expect(form.status).toBe(201);
    expect(form.json()).toMatchObject({ name: 'From a form', description: 'Tags[] and all' });
    const malformed = await call(api('/cal/events/v1/tags'), { method: 'POST', headers, body: '{"name": ' });
    expect(malformed.status).toBe(400);
  });

  it('gives cross-site requests that carry the session cookie nothing', async () => {
    const { cookie, nonce } = await signIn();
    const own = { Cookie: cookie, 'X-WP-Nonce': nonce, 'Content-Type': 'application/json' };
    const draft = (await call(api('/cal/events/v1/events'), { method: 'POST', headers: own, body: JSON.stringify({ title: 'Unannounced', status: 'draft', ...event }) })).json();
    const published = (await call(api('/cal/events/v1/events'), { method: 'POST', headers: own, body: JSON.stringify({ title: 'Announced', ...event }) })).json();

    const forged = await call(api('/cal/events/v1/events'), {
      method: 'POST',
      headers: { Cookie: cookie, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=Forged&start_date=2027-03-01+10:00:00&end_date=2027-03-01+11:00:00',
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('access-control-allow-credentials')).toBeNull();

    const read = await call(api(`/cal/events/v1/events/${draft.id}`), { headers: { Cookie: cookie, Origin: 'https://evil.example' } });
    expect(read.text).not.toContain('Unannounced');
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();

    const trashed = await call(api(`/cal/events/v1/events/${published.id}?_method=DELETE`), { headers: { Cookie: cookie } });
    expect(trashed.status).toBe(200);
    expect((await call(api(`/cal/events/v1/events/${published.id}`))).json().status).toBe('publish');
    const list = (await call(api('/cal/events/v1/events?start_date=2027-01-01&search=Forged'))).json();
    expect(list.total ?? 0).toBe(0);
  });
});
