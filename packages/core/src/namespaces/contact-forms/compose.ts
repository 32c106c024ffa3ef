import type { MailAttachmentRef, MailMessage } from '../../mail/message.js';
import type { MailTemplate, StoredUpload } from '../../store/contact-forms.js';
import { escHtml } from '../calendar/format/escape.js';
import { wpautop } from '../calendar/format/render.js';
import { replaceMailTags, type MailTagContext } from './mail-tags.js';
import { isEmail } from './validators.js';

/** Splits an address list at the commas outside quotes; each entry trimmed. */
function splitAddresses(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = null;
      current += c;
    } else if (c === '"') {
      quote = c;
      current += c;
    } else if (c === ',') {
      out.push(current.trim());
      current = '';
    } else {
      current += c;
    }
  }
  out.push(current.trim());
  return out.filter((a) => a !== '');
}

/** The address of `Name <addr>` or `addr`. */
function addressOf(mailbox: string): string {
  const m = /<([^<>]*)>\s*$/.exec(mailbox);
  return (m ? m[1]! : mailbox).trim();
}

const stripNewlines = (text: string) => text.replace(/[\r\n]/g, '').trim();

export class MailCompositionError extends Error {}

/**
 * WPCF7_Mail::compose and wp_mail's header handling: mail-tags replaced, the body made HTML when asked, the
 * additional headers split into address fields and the rest; attachments are the uploads whose mail-tag the
 * template's `attachments` names. Throws MailCompositionError when there is no valid sender or recipient
 * (wp_mail fails then).
 */
export function composeMail(template: MailTemplate, ctx: MailTagContext, uploads: readonly StoredUpload[], locale: string): MailMessage {
  const subject = stripNewlines(replaceMailTags(template.subject, ctx));
  const sender = stripNewlines(replaceMailTags(template.sender, ctx));
  const recipient = stripNewlines(replaceMailTags(template.recipient, ctx));
  let body = replaceMailTags(template.body, ctx, { html: template.useHtml, excludeBlank: template.excludeBlank });
  if (template.useHtml && !/<html[>\s][\s\S]*<\/html>/i.test(body)) {
    const lang = locale ? ` dir="ltr" lang="${escHtml(locale.replace(/_/g, '-'))}"` : '';
    body =
      `<!doctype html>\n<html xmlns="http://www.w3.org/1999/xhtml"${lang}>\n<head>\n<title>${escHtml(subject)}</title>\n</head>\n<body>\n` +
      wpautop(body) +
      '</body>\n</html>';
  }
  const headersText = replaceMailTags(template.additionalHeaders, ctx).trim();

  const message: MailMessage = {
    from: sender,
    to: [],
    cc: [],
    bcc: [],
    replyTo: [],
    subject,
    body,
    html: template.useHtml,
    headers: [],
    attachments: [],
  };
  for (const line of headersText.split('\n')) {
    const m = /^([0-9A-Za-z-]+):(.*)$/.exec(line.trim());
    if (!m) continue;
    const name = m[1]!;
    const value = m[2]!.trim();
    switch (name.toLowerCase()) {
      case 'from':
        message.from = value;
        break;
      case 'cc':
        message.cc.push(...splitAddresses(value));
        break;
      case 'bcc':
        message.bcc.push(...splitAddresses(value));
        break;
      case 'reply-to':
        message.replyTo.push(...splitAddresses(value));
        break;
      case 'content-type':
      case 'to':
      case 'subject':
      case 'x-wpcf7-content-type':
        break;
      default:
        if (message.headers.length < 20) message.headers.push([name, value.slice(0, 998)]);
    }
  }
  message.to = splitAddresses(recipient);
  if (!message.to.length || !message.to.every((a) => isEmail(addressOf(a)))) {
    throw new MailCompositionError(`Invalid recipient: "${recipient.slice(0, 200)}".`);
  }
  if (!isEmail(addressOf(message.from))) throw new MailCompositionError(`Invalid sender: "${message.from.slice(0, 200)}".`);
  // Addresses that are not addresses are dropped, as PHPMailer does.
  message.cc = message.cc.filter((a) => isEmail(addressOf(a)));
  message.bcc = message.bcc.filter((a) => isEmail(addressOf(a)));
  message.replyTo = message.replyTo.filter((a) => isEmail(addressOf(a)));

  const attachments: MailAttachmentRef[] = [];
  for (const upload of uploads) {
    if (template.attachments.includes(`[${upload.field}]`)) {
      attachments.push({ filename: upload.filename, contentType: upload.contentType, key: upload.key, size: upload.size });
    }
  }
  message.attachments = attachments;
  return message;
}
