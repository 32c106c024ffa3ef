import { StoreError, type RedirectionRepositories } from '@siterest/core';
import { freeze, takeId, type MemoryContext } from '../db.js';
import { groupRepository } from './groups.js';
import { logRepository } from './logs.js';
import { insertRedirect, redirectRepository } from './redirects.js';
import { redirectionWrite } from './write.js';

/** Redirection's repositories over the memory store's state. */
export function redirectionRepositories(context: MemoryContext): RedirectionRepositories {
  const t = context.db.redirection;
  return {
    redirects: redirectRepository(context, t),
    groups: groupRepository(context, t),
    redirectLog: logRepository(context, t.redirectLog, t.nextRedirectLogId, t.logBytes),
    notFoundLog: logRepository(context, t.notFoundLog, t.nextNotFoundLogId, t.logBytes),
    getSettings: async () => structuredClone(t.settings.get('settings') ?? null),
    setSettings: (settings) => redirectionWrite(context, (j) => t.settings.set('settings', structuredClone(settings), j)),
    install: (groups, build) =>
      redirectionWrite(context, (j) => {
        if (t.settings.has('settings')) return false;
        const ids = groups.map((group) => {
          const record = freeze({ ...group, id: takeId(t.nextGroupId, j) });
          t.groups.set(record.id, record, j);
          return record.id;
        });
        t.settings.set('settings', structuredClone(build(ids)), j);
        return true;
      }),
    importBatch: (batch) =>
      redirectionWrite(context, (j) => {
        const refs = new Map<number, number>();
        for (const { ref, ...group } of batch.groups) {
          const record = freeze({ ...group, id: takeId(t.nextGroupId, j) });
          t.groups.set(record.id, record, j);
          refs.set(ref, record.id);
        }
        for (const { groupRef, appendPosition, ...redirect } of batch.redirects) {
          const groupId = groupRef === undefined ? redirect.groupId : refs.get(groupRef);
          if (groupId === undefined) throw new StoreError('not_found', `No group ${String(groupRef)} in the import.`);
          insertRedirect(t, { ...redirect, groupId }, appendPosition, j);
        }
        return batch.redirects.length;
      }),
    uninstall: () =>
      redirectionWrite(context, (j) => {
        for (const map of [t.redirects, t.groups, t.redirectLog, t.notFoundLog] as const) {
          for (const id of [...map.map.keys()]) map.delete(id, j);
        }
        t.settings.delete('settings', j);
        // The plugin drops its tables: ids start again from 1.
        for (const counter of [t.nextRedirectId, t.nextGroupId, t.nextRedirectLogId, t.nextNotFoundLogId]) {
          const value = counter.value;
          counter.value = 1;
          j.record(() => {
            counter.value = value;
          });
        }
      }),
  };
}
