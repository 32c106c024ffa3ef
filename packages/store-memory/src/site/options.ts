import type { OptionRepository } from '@siterest/core';
import type { MemoryContext } from '../db.js';

export function optionRepository({ db, write }: MemoryContext): OptionRepository {
  return {
    all: async () => Object.fromEntries(db.options.map),
    get: async (name: string) => db.options.get(name),
    set: (name: string, value: unknown) => write((j) => db.options.set(name, structuredClone(value), j)),
    add: (name: string, value: unknown) =>
      write((j) => {
        if (!db.options.has(name)) db.options.set(name, structuredClone(value), j);
        return structuredClone(db.options.get(name));
      }),
    delete: (name: string) => write((j) => void db.options.delete(name, j)),
  };
}
