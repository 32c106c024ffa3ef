import type { OutgoingMail } from '../../mail/message.js';
import type { SiteContext } from '../../site-context.js';
import type { OutboxRecord } from '../../store/contact-forms.js';
import type { ContactFormsRuntime } from './runtime.js';

/**
 * Sends one outbox mail through the transport and records the outcome on its row: `stored` (the default
 * transport keeps it), `sent`, or `failed` with the reason. Never throws for a delivery failure.
 */
export async function deliver(site: SiteContext, runtime: ContactFormsRuntime, row: OutboxRecord): Promise<boolean> {
  const transport = runtime.transport(site);
  const outbox = site.store.contactForms.outbox;
  const attempts = row.attempts + 1;
  try {
    const storage = runtime.files(site);
    const attachments: OutgoingMail['attachments'] = [];
    for (const ref of row.message.attachments) {
      const content = await storage.read(ref.key);
      if (!content) throw new Error(`The attachment ${ref.filename} is no longer in the file storage.`);
      attachments.push({ filename: ref.filename, contentType: ref.contentType, content });
    }
    await transport.send({ ...row.message, attachments });
    await outbox.update(row.id, { status: transport.keepsInStore ? 'stored' : 'sent', error: null, attempts, transport: transport.name, sentAt: site.now() });
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    site.logger.warn('contact form mail was not delivered', { outbox: row.id, transport: transport.name, error: reason.slice(0, 300) });
    await outbox.update(row.id, { status: 'failed', error: reason.slice(0, 1000), attempts, transport: transport.name });
    return false;
  }
}

/**
 * Deletes the uploads `keys` of a submission stored without its fields and files (do_not_store, or storage consent
 * refused) that no mail of it still needs: one waiting to be sent again (queued, failed) or kept by the store
 * transport (its attachments are read from the file storage). Nothing else refers to them, and Contact Form 7
 * deletes uploads after its mail; without this they would stay in the file storage for good.
 */
export async function releaseUploads(site: SiteContext, runtime: ContactFormsRuntime, submissionId: number, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const needed = new Set<string>();
  // A submission has one mail and at most one more (mail_2): the first page holds all of them.
  const rows = (await site.store.contactForms.outbox.list({ submissionId, offset: 0, limit: 100 })).items;
  for (const row of rows) if (row.status !== 'sent') for (const ref of row.message.attachments) needed.add(ref.key);
  const storage = runtime.files(site);
  await Promise.all(keys.filter((key) => !needed.has(key)).map((key) => storage.delete(key).catch(() => false)));
}
