import type { SiteStore } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { postgresStore } from '@siterest/store-postgres';
import { dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from '../../packages/store-postgres/test/support/database.js';

export interface StoreVariant {
  label: string;
  create(firstIds?: { post?: number; term?: number }): Promise<SiteStore>;
  /** Another store on the same data, as a second app instance would open it (memory: the same object). */
  attach(store: SiteStore): Promise<SiteStore>;
  destroy(store: SiteStore): Promise<void>;
}

/**
 * The stores every HTTP-level test runs on: memory, and PostgreSQL — the server named by DATABASE_URL, or
 * PGlite when it is absent. Each PostgreSQL store gets a schema of its own, dropped afterwards.
 */
export function storeVariants(): StoreVariant[] {
  let database: Promise<TestDatabase> | null = null;
  const schemas = new Map<SiteStore, string>();
  let open = 0;
  return [
    { label: 'memory store', create: async (firstIds) => memoryStore({ firstIds }), attach: async (store) => store, destroy: async () => {} },
    {
      label: process.env.DATABASE_URL ? 'PostgreSQL store' : 'PostgreSQL store (PGlite)',
      async create(firstIds) {
        database ??= openTestDatabase();
        const db = await database;
        const schema = uniqueSchema('http');
        const store = postgresStore({ ...db.connection('siterest-http-tests'), schema, firstIds, migrate: true });
        await store.init();
        schemas.set(store, schema);
        open++;
        return store;
      },
      async attach(store) {
        const db = await database!;
        const attached = postgresStore({ ...db.connection('siterest-http-tests-2'), schema: schemas.get(store)! });
        await attached.init();
        return attached;
      },
      async destroy(store) {
        const db = await database!;
        await store.close?.();
        await dropSchema(db, schemas.get(store)!);
        if (--open === 0) {
          await db.close();
          database = null;
        }
      },
    },
  ];
}
