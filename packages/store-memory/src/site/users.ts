import { StoreError, type NewUser, type UserRepository } from '@siterest/core';
import { freeze, lower, takeId, type MemoryContext } from '../db.js';

export function userRepository({ db, write }: MemoryContext): UserRepository {
  return {
    get: async (id: number) => db.users.get(id) ?? null,
    findByLogin: async (login: string) => [...db.users.values()].find((u) => lower(u.login) === lower(login)) ?? null,
    findByEmail: async (email: string) => [...db.users.values()].find((u) => lower(u.email) === lower(email)) ?? null,
    count: async () => db.users.size,
    create: (user: NewUser) =>
      write((j) => {
        if ([...db.users.values()].some((u) => lower(u.login) === lower(user.login))) {
          throw new StoreError('conflict', `The login "${user.login}" is taken.`);
        }
        const record = freeze({ ...user, roles: [...user.roles], id: takeId(db.nextUserId, j) });
        db.users.set(record.id, record, j);
        return record;
      }),
  };
}
