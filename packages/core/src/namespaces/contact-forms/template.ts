import type { MailTemplate } from '../../store/contact-forms.js';
import { DEFAULT_MESSAGES } from './constants.js';

/** WPCF7_ContactFormTemplate::form(): the form of a new contact form. */
export const DEFAULT_FORM = `<label> Your name
    [text* your-name autocomplete:name] </label>

<label> Your email
    [email* your-email autocomplete:email] </label>

<label> Subject
    [text* your-subject] </label>

<label> Your message (optional)
    [textarea your-message] </label>

[submit "Submit"]`;

/** `from_email()`: the admin address, unless it is not on the site's domain (then `wordpress@<domain>`). */
export function fromEmail(adminEmail: string, homeUrl: string): string {
  let host = '';
  try {
    host = new URL(homeUrl).hostname.toLowerCase();
  } catch {
    return adminEmail;
  }
  if (host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]') return adminEmail;
  if (host.startsWith('www.')) host = host.slice(4);
  const at = adminEmail.indexOf('@');
  if (at !== -1 && adminEmail.slice(at + 1) === host) return adminEmail;
  return `wordpress@${host}`;
}

export function defaultMail(sender: string): MailTemplate {
  return {
    active: true,
    subject: '[_site_title] "[your-subject]"',
    sender: `[_site_title] <${sender}>`,
    body:
      'From: [your-name] <[your-email]>\nSubject: [your-subject]\n\nMessage Body:\n[your-message]\n\n-- \n' +
      'This e-mail was sent from a contact form on [_site_title] ([_site_url])',
    recipient: '[_site_admin_email]',
    additionalHeaders: 'Reply-To: [your-email]',
    attachments: '',
    useHtml: false,
    excludeBlank: false,
    shape: 'template',
  };
}

export function defaultMail2(sender: string): MailTemplate {
  return {
    active: false,
    subject: '[_site_title] "[your-subject]"',
    sender: `[_site_title] <${sender}>`,
    body: 'Message Body:\n[your-message]\n\n-- \nThis e-mail was sent from a contact form on [_site_title] ([_site_url])',
    recipient: '[your-email]',
    additionalHeaders: 'Reply-To: [_site_admin_email]',
    attachments: '',
    useHtml: false,
    excludeBlank: false,
    shape: 'template',
  };
}

export function defaultMessages(): Array<[string, string]> {
  return DEFAULT_MESSAGES.map(([key, text]) => [key, text]);
}

/** Messages with every key Contact Form 7 knows, missing ones at their defaults (WPCF7_ContactForm::upgrade). */
export function completeMessages(messages: ReadonlyArray<[string, string]>): Array<[string, string]> {
  const out = messages.map(([k, v]): [string, string] => [k, v]);
  const present = new Set(out.map(([k]) => k));
  for (const [key, text] of DEFAULT_MESSAGES) if (!present.has(key)) out.push([key, text]);
  return out;
}

/** The message for a status key (`mail_sent_ok`), `""` when the form has none. */
export function messageOf(messages: ReadonlyArray<[string, string]>, key: string): string {
  for (const [k, v] of messages) if (k === key) return v;
  return '';
}
