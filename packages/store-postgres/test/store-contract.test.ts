import { afterAll, beforeAll } from 'vitest';
import { storeContractSuite } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { dropSchema, emptySchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

// One schema for the file, migrated once; every test starts from emptied tables and restarted sequences.
let db: TestDatabase;
let store: PostgresStore;
const schema = uniqueSchema('contract');

beforeAll(async () => {
  db = await openTestDatabase();
  store = postgresStore({ ...db.connection(), schema });
  await store.migrate();
});

afterAll(async () => {
  await store?.close();
  if (db) {
    await dropSchema(db, schema);
    await db.close();
  }
});

storeContractSuite(DATABASE_LABEL(), {
  create: async () => {
    await emptySchema(db, schema);
    return store;
  },
});

function DATABASE_LABEL(): string {
  return process.env.DATABASE_URL ? 'postgres (server)' : 'postgres (PGlite)';
}
