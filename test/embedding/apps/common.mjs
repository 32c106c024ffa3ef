// What both embedding apps share: the app's own database (with its own `users` table, next to which siterest
// keeps its tables in the schema "siterest"), its sessions, and the start/stop around a listening server.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createSite } from '@siterest/core';
import { openPGlite, postgresStore } from '@siterest/store-postgres';

const APP_TABLE = 'CREATE TABLE IF NOT EXISTS public.users (id serial PRIMARY KEY, email text NOT NULL UNIQUE)';
const APP_USER = "INSERT INTO public.users (email) VALUES ('owner@app.example') ON CONFLICT DO NOTHING";

/**
 * The app's database: PostgreSQL at DATABASE_URL (migrated beforehand with siterest-migrate), or PGlite in memory
 * (migrated on start). `countAppUsers` reads the app's own table.
 */
export async function openDatabase() {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 5 });
    await pool.query(APP_TABLE);
    await pool.query(APP_USER);
    return {
      store: postgresStore({ pool }),
      countAppUsers: async () => (await pool.query('SELECT count(*)::int AS n FROM public.users')).rows[0].n,
      close: () => pool.end(),
    };
  }
  const pglite = await openPGlite();
  await pglite.query(APP_TABLE);
  await pglite.query(APP_USER);
  return {
    store: postgresStore({ pglite, migrate: true }),
    countAppUsers: async () => (await pglite.query('SELECT count(*)::int AS n FROM public.users')).rows[0].n,
    close: () => pglite.close(),
  };
}

/** The app's sessions: a random id in the `app.sid` cookie names a signed-in user. */
export function sessionStore() {
  const sessions = new Map();
  return {
    start(userId) {
      const sid = randomBytes(16).toString('hex');
      sessions.set(sid, userId);
      return sid;
    },
    find(cookieHeader) {
      const sid = /(?:^|;\s*)app\.sid=([0-9a-f]+)/.exec(String(cookieHeader ?? ''))?.[1];
      const userId = sid === undefined ? undefined : sessions.get(sid);
      return userId === undefined ? null : { sid, userId };
    },
  };
}

/** The site, as the README says to make one: created, then `ready()` before serving (it fails fast). */
export async function openSite(store, authenticate) {
  const site = createSite({ store, settings: { name: 'Embedded', url: 'http://127.0.0.1' }, authenticate });
  await site.ready();
  const editor = (await site.store.users.findByLogin('editor')) ?? (await site.createUser({ login: 'editor', roles: ['editor'] }));
  return { site, editor };
}

export function announce(port) {
  console.log(`listening on http://127.0.0.1:${port}`);
}

export function stopOnSignal(close) {
  process.once('SIGTERM', () => {
    close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
