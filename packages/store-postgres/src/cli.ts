#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { postgresStore } from './postgres-store.js';
import { DEFAULT_SCHEMA } from './tables.js';

/** `siterest-migrate`: applies the store's migrations to DATABASE_URL. Safe to run from several deploys at once. */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      schema: { type: 'string', default: process.env.SITEREST_SCHEMA ?? DEFAULT_SCHEMA },
      'extension-schema': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(`Usage: DATABASE_URL=postgres://… siterest-migrate [--schema ${DEFAULT_SCHEMA}] [--extension-schema public]`);
    return 0;
  }
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) {
    console.error('siterest-migrate: set DATABASE_URL to the PostgreSQL database to migrate.');
    return 2;
  }
  const store = postgresStore({
    connectionString,
    schema: values.schema,
    ...(values['extension-schema'] ? { extensionSchema: values['extension-schema'] } : {}),
    poolConfig: { max: 1, application_name: 'siterest-migrate' },
  });
  try {
    const { version, applied } = await store.migrate();
    console.log(
      applied.length
        ? `siterest-migrate: schema "${store.schema}" migrated to version ${version} (${applied.join(', ')}).`
        : `siterest-migrate: schema "${store.schema}" is up to date (version ${version}).`,
    );
    return 0;
  } catch (error) {
    console.error(`siterest-migrate: ${(error as Error).message}`);
    return 1;
  } finally {
    await store.close();
  }
}

main().then((code) => {
  process.exitCode = code;
});
