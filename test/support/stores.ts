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
  /**
   * Every stored row, by table, each row as stable JSON: compared before and after requests to prove that
   * nothing changed. It reads the store's own state (the memory store's maps, the PostgreSQL schema's tables).
   */
  snapshot(store: SiteStore): Promise<StoreSnapshot>;
}

export type StoreSnapshot = Record<string, string[]>;

/**
 * The stores every HTTP-level test runs on: memory, and PostgreSQL — the server named by DATABASE_URL, or
 * PGlite when it is absent. Each PostgreSQL store gets a schema of its own, dropped afterwards.
 */
export function storeVariants(): StoreVariant[] {
  let database: Promise<TestDatabase> | null = null;
  const schemas = new Map<SiteStore, string>();
  let open = 0;
  return [
    {
      label: 'memory store',
      create: async (firstIds) => memoryStore({ firstIds }),
      attach: async (store) => store,
      destroy: async () => {},
      snapshot: async (store) => memorySnapshot(store),
    },
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
      async snapshot(store) {
        const db = await database!;
        const schema = schemas.get(store)!;
        const tables = await db.admin(`SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'siterest_migrations' ORDER BY tablename`, [schema]);
        const snapshot: StoreSnapshot = {};
        for (const { tablename } of tables) {
          const rows = await db.admin(`SELECT to_jsonb(t)::text AS row FROM "${schema}"."${String(tablename)}" t`);
          snapshot[String(tablename)] = rows.map((r) => String(r.row)).sort();
        }
        return snapshot;
      },
    },
  ];
}

/** The memory store's state: every journaled map and counter of its database object, found by walking it. */
function memorySnapshot(store: SiteStore): StoreSnapshot {
  const snapshot: StoreSnapshot = {};
  const walk = (prefix: string, holder: object) => {
    for (const [name, value] of Object.entries(holder)) {
      const key = prefix + name;
      if (Array.isArray(value)) snapshot[key] = value.map((item) => stableJson(item)).sort();
      else if (value instanceof Map) snapshot[key] = [...value.entries()].map((entry) => stableJson(entry)).sort();
      else if (value && typeof value === 'object' && value.map instanceof Map) snapshot[key] = [...(value.map as Map<unknown, unknown>).entries()].map((entry) => stableJson(entry)).sort();
      else if (value && typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype) walk(`${key}.`, value);
      else if (value && typeof value === 'object') snapshot[key] = [stableJson(value)];
      else if (typeof value !== 'function') snapshot[key] = [stableJson(value)];
    }
  };
  walk('', (store as unknown as { db: object }).db);
  return snapshot;
}

/** JSON with object keys sorted and Maps, Sets, Dates and Buffers spelled out, so equal state is equal text. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (v instanceof Map) return { map: [...v.entries()] };
    if (v instanceof Set) return { set: [...v] };
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const ordered: Record<string, unknown> = Object.create(null);
      for (const k of Object.keys(v).sort()) ordered[k] = (v as Record<string, unknown>)[k];
      return ordered;
    }
    return v;
  });
}
