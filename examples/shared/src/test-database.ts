import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A database of its own for one example-server test: a fresh database on the server named by DATABASE_URL,
 * or a PGlite directory when there is no server.
 */
export async function exampleDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const dir = await mkdtemp(join(tmpdir(), 'siterest-example-'));
    return { url: `pglite:${dir}`, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const name = `siterest_example_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
