import type { OptionRepository } from '@siterest/core';
import type { Db } from '../db.js';

/** jsonb read back as text and parsed here, whatever JSON parser the app's driver is configured with. SQL NULL is `undefined`. */
const parse = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export function optionRepository(db: Db): OptionRepository {
  return {
    all: async () => {
      const rows = await db.sql.query<{ name: string; value: string | null }>(`SELECT name, value::text AS value FROM ${db.t.options} ORDER BY name`);
      return Object.fromEntries(rows.map((r) => [r.name, parse(r.value)]));
    },
    get: async (name) => {
      const [row] = await db.sql.query<{ value: string | null }>(`SELECT value::text AS value FROM ${db.t.options} WHERE name = $1`, [name]);
      return row ? parse(row.value) : undefined;
    },
    set: async (name, value) => {
      await db.sql.query(
        `INSERT INTO ${db.t.options} (name, value) VALUES ($1, $2::text::jsonb) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
        [name, value === undefined ? null : JSON.stringify(value)],
      );
    },
    add: async (name, value) => {
      // Two statements: the SELECT takes a new snapshot, so it sees a value another caller committed meanwhile.
      await db.sql.query(`INSERT INTO ${db.t.options} (name, value) VALUES ($1, $2::text::jsonb) ON CONFLICT (name) DO NOTHING`, [
        name,
        value === undefined ? null : JSON.stringify(value),
      ]);
      const [row] = await db.sql.query<{ value: string | null }>(`SELECT value::text AS value FROM ${db.t.options} WHERE name = $1`, [name]);
      return row ? parse(row.value) : undefined;
    },
    delete: async (name) => {
      await db.sql.query(`DELETE FROM ${db.t.options} WHERE name = $1`, [name]);
    },
  };
}
