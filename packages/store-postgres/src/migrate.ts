import type { SqlClient } from './sql/client.js';
import { quoteIdent } from './sql/identifiers.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/migration.js';
import { DEFAULT_SCHEMA, type Tables } from './tables.js';

/**
 * One lock for every schema of the database: besides guarding each schema's migrations it serialises
 * CREATE EXTENSION, which two schemas migrating at once would otherwise race on.
 */
const MIGRATION_LOCK = 7_322_484_913_221;

export interface MigrationResult {
  /** The schema's version afterwards. */
  version: number;
  /** Names of the migrations this call applied (empty when the schema was up to date). */
  applied: string[];
}

export interface MigrateOptions {
  /** Where missing extensions are created (default `public`); one that exists already stays where it is. */
  extensionSchema?: string;
}

/**
 * Applies pending migrations in one transaction: all of them or none. Safe to run from many processes at once.
 * Without statement or transaction limits: an index build on a big table, or waiting for another instance that
 * is migrating, may take minutes. Then vacuums and analyses the tables the applied migrations rewrote (their
 * `vacuums`), outside the transaction, as VACUUM must run.
 *
 * The tables still to vacuum are written down in the migrations' own transaction and struck off one by one as
 * their vacuum ends: a vacuum that fails, or a process stopped during one, leaves its table to the next call,
 * which vacuums it although it has no migration left to apply.
 *
 * `migrations` are siterest's own; the tests of an upgrade give the first of them, to build the schema as an older
 * version left it.
 */
export async function migrateSchema(sql: SqlClient, tables: Tables, options: MigrateOptions = {}, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationResult> {
  const result = await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
    const exists = await tx.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [tables.schema]);
    if (exists.length === 0) await tx.query(`CREATE SCHEMA ${quoteIdent(tables.schema)}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    await tx.query(`CREATE TABLE IF NOT EXISTS ${tables.migrationVacuums} (table_name text PRIMARY KEY)`);
    const done = new Set((await tx.query<{ version: number }>(`SELECT version FROM ${tables.migrations}`)).map((r) => Number(r.version)));
    await refuseForeignNames(tx, tables.schema, migrations.filter((m) => !done.has(m.version)), migrations.filter((m) => done.has(m.version)));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      const extensionSchemas: string[] = [];
      for (const name of migration.extensions) extensionSchemas.push(await ensureExtension(tx, name, options.extensionSchema ?? 'public'));
      const path = [tables.schema, ...new Set(extensionSchemas)].map(quoteIdent).join(', ');
      await tx.query(`SET LOCAL search_path TO ${path}`);
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      if (migration.vacuums?.length) {
        await tx.query(`INSERT INTO ${tables.migrationVacuums} (table_name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [[...migration.vacuums]]);
      }
      applied.push(`${String(migration.version).padStart(3, '0')}_${migration.name}`);
    }
    const version = Math.max(0, ...done, ...migrations.filter((m) => !done.has(m.version)).map((m) => m.version));
    return { version, applied };
  }, { statementTimeout: 0, timeout: 0 });
  await vacuumRewrittenTables(sql, tables, result);
  return result;
}

/** Every table a migration may ask to vacuum: the only names ever put into a VACUUM statement. */
const VACUUMED_TABLES: ReadonlySet<string> = new Set(MIGRATIONS.flatMap((m) => m.vacuums ?? []));

/**
 * Vacuums the tables written down as still to vacuum, in name order so that every instance goes the same way, and
 * strikes each off once done. Two instances may vacuum the same table at once: the second waits for the first's
 * lock, then finds little left to do.
 */
async function vacuumRewrittenTables(sql: SqlClient, tables: Tables, result: MigrationResult): Promise<void> {
  let table: string | undefined;
  try {
    const pending = await sql.query<{ table_name: string }>(`SELECT table_name FROM ${tables.migrationVacuums} ORDER BY table_name`);
    for (const row of pending) {
      table = row.table_name;
      // A name no migration gives (written by hand) is struck off unvacuumed: only the migrations' names reach SQL.
      if (VACUUMED_TABLES.has(table)) await sql.maintain(`VACUUM (ANALYZE) ${quoteIdent(tables.schema)}.${quoteIdent(table)}`);
      await sql.query(`DELETE FROM ${tables.migrationVacuums} WHERE table_name = $1`, [table]);
    }
  } catch (error) {
    const migrated = result.applied.length ? `migrated to version ${result.version} (${result.applied.join(', ')})` : `at version ${result.version}`;
    const step = table === undefined ? 'reading which tables to vacuum' : `vacuuming its table "${table}"`;
    throw new Error(
      `The PostgreSQL schema "${tables.schema}" is ${migrated}, but ${step} afterwards failed: ${(error as Error).message}. ` +
        `The store works meanwhile, some lists more slowly; the next migrate() vacuums what is left.`,
      { cause: error },
    );
  }
}

/** The tables, indexes and sequences a migration creates. */
function createdNames(migration: Migration): string[] {
  const names: string[] = [];
  for (const statement of migration.statements) {
    const created = /^\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|SEQUENCE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)/i.exec(statement);
    if (created) names.push(created[1]!.toLowerCase());
  }
  return names;
}

/**
 * Before creating anything, makes sure the schema holds nothing of the same names that is not siterest's (an app's
 * own `users` table, say), so a shared database gets a clear message instead of "relation already exists". A name
 * an applied migration created is siterest's own, made again by a later one (a table rebuilt in another form).
 */
async function refuseForeignNames(tx: SqlClient, schema: string, pending: readonly Migration[], applied: readonly Migration[]): Promise<void> {
  const own = new Set(applied.flatMap(createdNames));
  const names = [...new Set(pending.flatMap(createdNames))].filter((name) => !own.has(name));
  if (names.length === 0) return;
  const taken = await tx.query<{ name: string }>(
    'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) ORDER BY c.relname',
    [schema, names],
  );
  if (taken.length === 0) return;
  throw new Error(
    `The PostgreSQL schema "${schema}" already holds ${taken.map((t) => `"${t.name}"`).join(', ')}, which siterest would create and ` +
      `which are not siterest's. Keep siterest's tables in a schema of their own: postgresStore({ …, schema: 'another_name' }) ` +
      `or \`siterest-migrate --schema another_name\` (the default schema is "${DEFAULT_SCHEMA}").`,
  );
}

async function ensureExtension(tx: SqlClient, name: string, schema: string): Promise<string> {
  const installedIn = async () =>
    (
      await tx.query<{ schema: string }>(
        'SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1',
        [name],
      )
    )[0]?.schema;
  const existing = await installedIn();
  if (existing) return existing;
  try {
    await tx.query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(name)} WITH SCHEMA ${quoteIdent(schema)}`);
  } catch (error) {
    throw new Error(
      `siterest needs the PostgreSQL extension "${name}" (it indexes search) and could not create it: ${(error as Error).message}. ` +
        `Install it as a superuser (CREATE EXTENSION ${name};), or with PGlite create the instance with ` +
        `extensions: { ${name} } from '@electric-sql/pglite/contrib/${name}'.`,
      { cause: error },
    );
  }
  return (await installedIn()) ?? schema;
}

/** The version the schema is at; 0 when it was never migrated. */
export async function schemaVersion(sql: SqlClient, tables: Tables): Promise<number> {
  const [present] = await sql.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [tables.migrations]);
  if (!present?.present) return 0;
  const [row] = await sql.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${tables.migrations}`);
  return Number(row?.version ?? 0);
}

/**
 * Migrations the schema has not applied. The version alone cannot tell: a migration numbered below the latest
 * (in its group's range) can arrive after a schema was already migrated past it.
 */
export async function pendingMigrations(sql: SqlClient, tables: Tables): Promise<Migration[]> {
  const [present] = await sql.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [tables.migrations]);
  if (!present?.present) return [...MIGRATIONS];
  const done = new Set((await sql.query<{ version: number }>(`SELECT version FROM ${tables.migrations}`)).map((r) => Number(r.version)));
  return MIGRATIONS.filter((m) => !done.has(m.version));
}

export { LATEST_VERSION };
