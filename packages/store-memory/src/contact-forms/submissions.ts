import { StoreError, type OutboxRepository, type SubmissionRecord, type SubmissionRepository } from '@siterest/core';
import { freeze, stripUndefined, takeId, type MemoryContext } from '../db.js';

const UNVERSIONED = { versioned: false } as const;

const copy = <T>(value: T): T => structuredClone(value);

export function submissionRepository({ db, write }: MemoryContext): SubmissionRepository {
  return {
    create: (input) =>
      write((journal) => {
        const id = takeId(db.nextSubmissionId, journal);
        const record = freeze({ ...copy(input), id });
        db.submissions.set(id, record, journal);
        return record;
      }, UNVERSIONED),
    get: async (id) => db.submissions.get(id) ?? null,
    list: async (query) => {
      const matching = [...db.submissions.values()]
        .filter((s) => (query.formId === undefined || s.formId === query.formId) && (query.status === undefined || s.status === query.status))
        .sort((a, b) => b.id - a.id);
      return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
    },
    update: (id, patch) =>
      write((journal) => {
        const current = db.submissions.get(id);
        if (!current) return null;
        const next = freeze({ ...current, ...stripUndefined(patch), id });
        db.submissions.set(id, next, journal);
        return next;
      }, UNVERSIONED),
    delete: (id) =>
      write((journal) => {
        if (!db.submissions.has(id)) return false;
        db.submissions.delete(id, journal);
        for (const row of [...db.outbox.values()]) if (row.submissionId === id) db.outbox.delete(row.id, journal);
        return true;
      }, UNVERSIONED),
    deleteForForm: (formId) =>
      write((journal) => {
        const removed: SubmissionRecord[] = [];
        for (const record of [...db.submissions.values()]) {
          if (record.formId !== formId) continue;
          removed.push(record);
          db.submissions.delete(record.id, journal);
          for (const row of [...db.outbox.values()]) if (row.submissionId === record.id) db.outbox.delete(row.id, journal);
        }
        return removed;
      }, UNVERSIONED),
  };
}

export function outboxRepository({ db, write }: MemoryContext): OutboxRepository {
  return {
    create: (input) =>
      write((journal) => {
        if (input.submissionId !== null && !db.submissions.has(input.submissionId)) {
          throw new StoreError('not_found', `No submission ${input.submissionId}.`);
        }
        const id = takeId(db.nextOutboxId, journal);
        const record = freeze({ ...copy(input), id });
        db.outbox.set(id, record, journal);
        return record;
      }, UNVERSIONED),
    get: async (id) => db.outbox.get(id) ?? null,
    list: async (query) => {
      const matching = [...db.outbox.values()]
        .filter((r) => (query.submissionId === undefined || r.submissionId === query.submissionId) && (query.status === undefined || r.status === query.status))
        .sort((a, b) => a.id - b.id);
      return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
    },
    update: (id, patch) =>
      write((journal) => {
        const current = db.outbox.get(id);
        if (!current) return null;
        const next = freeze({ ...current, ...stripUndefined(patch), id });
        db.outbox.set(id, next, journal);
        return next;
      }, UNVERSIONED),
  };
}
