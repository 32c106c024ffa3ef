import { answerCacheContractSuite } from '@siterest/core/testing';
import type { PostgresStore } from '../src/index.js';
import { emptySchema, useMigratedStore } from './support/database.js';

const migrated = useMigratedStore('answer_cache');

const sequence = () => `"${migrated.schema}".siterest_changes_calendar`;

answerCacheContractSuite(process.env.DATABASE_URL ? 'postgres (server)' : 'postgres (PGlite)', {
  create: async () => {
    await emptySchema(migrated.db, migrated.schema);
    return migrated.store;
  },
  // A sequence at its maximum refuses nextval and can still be read: the advance fails, reads go on.
  breakCalendarVersion: async (store) => {
    const sql = (store as PostgresStore).sql;
    await sql.query(`SELECT nextval('${sequence()}'::regclass)`);
    const [row] = await sql.query<{ last_value: string }>(`SELECT last_value FROM ${sequence()}`);
    await sql.query(`ALTER SEQUENCE ${sequence()} MAXVALUE ${Number(row!.last_value)}`);
    return async () => {
      await sql.query(`ALTER SEQUENCE ${sequence()} NO MAXVALUE`);
    };
  },
  writeOutside: async (store, eventId, title) => {
    await (store as PostgresStore).sql.query(`UPDATE "${migrated.schema}".posts SET title = $1 WHERE id = $2`, [title, eventId]);
  },
});
