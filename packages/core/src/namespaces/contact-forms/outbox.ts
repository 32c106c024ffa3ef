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
