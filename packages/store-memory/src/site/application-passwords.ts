import type { ApplicationPasswordRecord, ApplicationPasswordRepository } from '@siterest/core';
import { freeze, type MemoryContext } from '../db.js';

export function applicationPasswordRepository({ db, write }: MemoryContext): ApplicationPasswordRepository {
  return {
    listForUser: async (userId: number) => [...db.appPasswords.values()].filter((p) => p.userId === userId),
    create: (record: ApplicationPasswordRecord) => write((j) => db.appPasswords.set(record.uuid, freeze({ ...record }), j)),
    recordUse: (uuid: string, at: number, ip: string | null) =>
      write((j) => {
        const record = db.appPasswords.get(uuid);
        if (record) db.appPasswords.set(uuid, freeze({ ...record, lastUsed: at, lastIp: ip }), j);
      }),
    delete: (uuid: string) => write((j) => db.appPasswords.delete(uuid, j)),
  };
}
