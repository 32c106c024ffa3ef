import type { OutgoingMail } from './message.js';

/**
 * Where outgoing mail goes. `send` resolves once the mail was accepted (by a relay, a queue, an API) and
 * rejects with the reason otherwise; the caller records either outcome, so nothing is lost.
 */
export interface MailTransport {
  /** Shown in the outbox (`store`, `smtp`, …). */
  readonly name: string;
  /**
   * A transport that only keeps mail in the store (the default): mail "sent" through it is recorded as
   * `stored` in the outbox, where the app reads it.
   */
  readonly keepsInStore?: boolean;
  send(mail: OutgoingMail): Promise<{ messageId?: string }>;
  close?(): Promise<void>;
}

/** The default: outgoing mail stays in the store's outbox, for the app to read (or send itself). */
export function storeMailTransport(): MailTransport {
  return { name: 'store', keepsInStore: true, send: async () => ({}) };
}
