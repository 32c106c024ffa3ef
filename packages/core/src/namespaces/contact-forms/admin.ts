import type { Site } from '../../site.js';
import type { SiteContext } from '../../site-context.js';
import type { ContactFormRecord, OutboxRecord, OutboxStatus, SubmissionRecord, SubmissionStatus } from '../../store/contact-forms.js';
import type { Page } from '../../store/records.js';
import { CONTACT_FORMS_NAMESPACE } from './constants.js';
import { deliver, releaseUploads } from './outbox.js';
import { createRuntime, type ContactFormsRuntime } from './runtime.js';

/** The runtime (options) of each contact-forms namespace definition a site was created with. */
export const runtimes = new WeakMap<object, ContactFormsRuntime>();

function runtimeOf(site: Site | SiteContext): ContactFormsRuntime {
  const definition = site.registry.definitions.get(CONTACT_FORMS_NAMESPACE);
  return (definition && runtimes.get(definition)) ?? createRuntime();
}

/** Deletes a form and, when the namespace says so, its submissions and their files. */
export async function deleteForm(site: SiteContext, runtime: ContactFormsRuntime, id: number): Promise<boolean> {
  if (runtime.options.onFormDelete === 'delete-submissions') {
    const removed = await site.store.contactForms.submissions.deleteForForm(id);
    const storage = runtime.files(site);
    for (const submission of removed) for (const file of submission.files) await storage.delete(file.key).catch(() => false);
  }
  return site.store.contactForms.delete(id);
}

/** Resends a submission's mail that did not go out; true when its main mail is delivered now (or was). */
async function resend(site: SiteContext, runtime: ContactFormsRuntime, submissionId: number): Promise<boolean> {
  const store = site.store.contactForms;
  const submission = await store.submissions.get(submissionId);
  if (!submission) throw new Error(`No submission ${submissionId}.`);
  const rows = (await store.outbox.list({ submissionId, offset: 0, limit: 100 })).items;
  let mainOk = rows.some((r) => r.template === 'mail' && (r.status === 'sent' || r.status === 'stored'));
  for (const row of rows) {
    if (row.status !== 'failed' && row.status !== 'queued') continue;
    const ok = await deliver(site, runtime, row);
    if (row.template === 'mail' && ok) mainOk = true;
  }
  if (mainOk && submission.status === 'mail_failed') {
    await store.submissions.update(submissionId, { status: 'mail_sent', updatedAt: site.now() });
  }
  if (submission.meta.doNotStore) {
    await releaseUploads(site, runtime, submissionId, rows.flatMap((row) => row.message.attachments.map((ref) => ref.key)));
  }
  return mainOk;
}

/**
 * The library side of contact forms, for the host app's own admin screens and jobs: read stored
 * submissions and the outbox, resend failed mail, delete.
 */
export interface ContactFormsAdmin {
  get(id: number): Promise<ContactFormRecord | null>;
  list(): Promise<ContactFormRecord[]>;
  delete(id: number): Promise<boolean>;
  submissions(query?: { formId?: number; status?: SubmissionStatus; offset?: number; limit?: number }): Promise<Page<SubmissionRecord>>;
  submission(id: number): Promise<SubmissionRecord | null>;
  deleteSubmission(id: number): Promise<boolean>;
  /** The bytes of a stored upload. */
  file(key: string): Promise<Buffer | null>;
  outbox(query?: { submissionId?: number; status?: OutboxStatus; offset?: number; limit?: number }): Promise<Page<OutboxRecord>>;
  /** Sends a submission's failed mail again through the current transport. */
  resend(submissionId: number): Promise<boolean>;
  /** Sends every failed mail again (oldest first, up to `limit`); how many went out. */
  resendFailed(limit?: number): Promise<number>;
}

export function contactForms(site: Site): ContactFormsAdmin {
  const runtime = () => runtimeOf(site);
  const store = () => site.store.contactForms;
  const bounded = (n: number | undefined, fallback: number) => Math.max(0, Math.min(Math.trunc(n ?? fallback), 1000));
  return {
    get: async (id) => (await site.ready(), store().get(id)),
    list: async () => (await site.ready(), store().list({ orderBy: ['id'], order: 'asc', offset: 0, limit: null })),
    delete: async (id) => (await site.ready(), deleteForm(site, runtime(), id)),
    submissions: async (query = {}) => {
      await site.ready();
      return store().submissions.list({ formId: query.formId, status: query.status, offset: bounded(query.offset, 0), limit: bounded(query.limit, 50) });
    },
    submission: async (id) => (await site.ready(), store().submissions.get(id)),
    deleteSubmission: async (id) => {
      await site.ready();
      const record = await store().submissions.get(id);
      if (!record) return false;
      for (const file of record.files) await runtime().files(site).delete(file.key).catch(() => false);
      return store().submissions.delete(id);
    },
    file: async (key) => runtime().files(site).read(key),
    outbox: async (query = {}) => {
      await site.ready();
      return store().outbox.list({ submissionId: query.submissionId, status: query.status, offset: bounded(query.offset, 0), limit: bounded(query.limit, 50) });
    },
    resend: async (id) => (await site.ready(), resend(site, runtime(), id)),
    resendFailed: async (limit = 100) => {
      await site.ready();
      const failed = await store().outbox.list({ status: 'failed', offset: 0, limit: bounded(limit, 100) });
      let sent = 0;
      const submissions = new Set<number>();
      for (const row of failed.items) {
        if (row.submissionId !== null) submissions.add(row.submissionId);
        else if (await deliver(site, runtime(), row)) sent++;
      }
      for (const id of submissions) if (await resend(site, runtime(), id)) sent++;
      return sent;
    },
  };
}
