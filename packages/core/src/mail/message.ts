/**
 * A mail as siterest composes it: addresses as written (`Name <addr@example.org>`), a plain-text or HTML body,
 * and attachments named by their key in the file storage (read when the mail is sent, so a stored mail stays
 * small and can be sent again later).
 */
export interface MailAttachmentRef {
  filename: string;
  contentType: string;
  /** Key in the file storage the attachment is read from. */
  key: string;
  size: number;
}

export interface MailMessage {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  /** The body; HTML when `html` is true. */
  body: string;
  html: boolean;
  /** Further header fields (`X-…`, `List-…`), in order; never From, To, Subject or the address fields above. */
  headers: Array<[name: string, value: string]>;
  attachments: MailAttachmentRef[];
}

/** A mail ready for a transport: attachments with their bytes. */
export interface OutgoingMail extends Omit<MailMessage, 'attachments'> {
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}
