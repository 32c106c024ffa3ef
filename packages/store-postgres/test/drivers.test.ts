import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import type pg from 'pg';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { PGliteDatabase, PgPool, PgPoolSettings } from '../src/index.js';

// The store's public types describe the drivers without naming their packages (both are optional peers); the drivers
// as apps create them must still fit. Checked by the type-check (`pnpm typecheck`).
describe('the drivers the store takes', () => {
  it('accepts a PGlite instance and a node-postgres pool and its settings', () => {
    expectTypeOf<PGlite>().toExtend<PGliteDatabase>();
    expectTypeOf<PGliteInterface>().toExtend<PGliteDatabase>();
    expectTypeOf<pg.Pool>().toExtend<PgPool>();
    const config: Omit<pg.PoolConfig, 'connectionString'> = { max: 5, host: 'db', ssl: { rejectUnauthorized: true } };
    const settings: PgPoolSettings = { ...config };
    expect(settings.max).toBe(5);
  });
});
