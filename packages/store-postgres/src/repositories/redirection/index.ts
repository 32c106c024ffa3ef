import { StoreError, type RedirectionRepositories } from '@siterest/core';
import { atomically, type Db } from '../db.js';
import { groupRepository } from './groups.js';
import { logRepository } from './logs.js';
import { insertRedirect, redirectRepository } from './redirects.js';
import { json } from './rows.js';

/** Redirection's repositories; none of them advances the store's change version. */
export function redirectionRepositories(db: Db): RedirectionRepositories {
  const t = db.t.redirection;
  const setSettings = async (tx: Db, settings: Record<string, unknown>) => {
    await tx.sql.query(`INSERT INTO ${t.settings} (id, value) VALUES (true, $1::text::jsonb) ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value`, [json(settings)]);
  };
  const groups = groupRepository(db);
  return {
    redirects: redirectRepository(db),
    groups,
    redirectLog: logRepository(db, t.logs),
    notFoundLog: logRepository(db, t.notFound),
    getSettings: async () => {
      const [row] = await db.sql.query<{ value: string }>(`SELECT value::text AS value FROM ${t.settings}`);
      return row ? (JSON.parse(row.value) as Record<string, unknown>) : null;
    },
    setSettings: (settings) => setSettings(db, settings),
    // One lock per schema for Redirection's first start, so two instances never install twice.
    install: (newGroups, build) =>
      atomically(db, async (tx) => {
        await tx.sql.query("SELECT pg_advisory_xact_lock(hashtextextended('siterest.redirection.install ' || $1, 0))", [t.settings]);
        const [existing] = await tx.sql.query(`SELECT 1 FROM ${t.settings}`);
        if (existing) return false;
        const ids: number[] = [];
        for (const group of newGroups) ids.push((await groupRepository(tx).create(group)).id);
        await setSettings(tx, build(ids));
        return true;
      }),
    importBatch: (batch) =>
      atomically(db, async (tx) => {
        const refs = new Map<number, number>();
        const txGroups = groupRepository(tx);
        for (const { ref, ...group } of batch.groups) refs.set(ref, (await txGroups.create(group)).id);
        for (const { groupRef, appendPosition, ...redirect } of batch.redirects) {
          const groupId = groupRef === undefined ? redirect.groupId : refs.get(groupRef);
          if (groupId === undefined) throw new StoreError('not_found', `No group ${String(groupRef)} in the import.`);
          await insertRedirect(tx, { ...redirect, groupId }, appendPosition);
        }
        return batch.redirects.length;
      }),
    uninstall: async () => {
      await db.sql.query(`TRUNCATE ${t.items}, ${t.groups}, ${t.logs}, ${t.notFound}, ${t.settings} RESTART IDENTITY`);
    },
  };
}
