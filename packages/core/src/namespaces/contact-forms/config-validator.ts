import { phpTrim } from '../../http/php.js';
import { hasAngleTag } from '../../text/markup-scans.js';
import type { ConfigError, ContactFormRecord, MailTemplate } from '../../store/contact-forms.js';
import { limitOption } from './form-tags/options.js';
import { scanFormTags, type FormTag } from './form-tags/scanner.js';
import { tagSupports } from './form-tags/types.js';
import { stripAllTags } from '../calendar/format/excerpt.js';
import { settingIsTrue, settingValue } from './settings.js';
import { isRequired } from './form-tags/options.js';
import { completeMessages } from './template.js';
import { mailboxList } from './validators.js';

/** WPCF7_ConfigValidator: the configuration errors Contact Form 7 reports for a saved form. */

const DOC = 'https://contactform7.com/configuration-errors/';
const link = (code: string) => `${DOC.replace(/\/$/, '')}/${code.replace(/_/g, '-')}`;

/** WordPress's public query variables: form fields named like them break the page they are posted to. */
const PUBLIC_QUERY_VARS = new Set([
  'm', 'p', 'posts', 'w', 'cat', 'withcomments', 'withoutcomments', 's', 'search', 'exact', 'sentence', 'calendar', 'page',
  'paged', 'more', 'tb', 'pb', 'author', 'order', 'orderby', 'year', 'monthnum', 'day', 'hour', 'minute', 'second', 'name',
  'category_name', 'tag', 'feed', 'author_name', 'static', 'pagename', 'page_id', 'error', 'attachment', 'attachment_id',
  'subpost', 'subpost_id', 'preview', 'robots', 'taxonomy', 'term', 'cpage', 'post_type', 'embed',
]);

/** Replaces mail-tags with the most conservative inputs (`replace_mail_tags_with_minimum_input_callback`). */
function minimumInput(text: string, tags: readonly FormTag[], form: ContactFormRecord, adminEmail: string): string {
  return text.replace(/(\[?)\[[\t ]*([a-zA-Z_][0-9a-zA-Z:._-]{0,200})((?:[\t ]+"[^"\n]{0,500}"|[\t ]+'[^'\n]{0,500}'){0,10})[\t ]*\](\]?)/g, (whole, open: string, name: string, _values: string, close: string) => {
    if (open === '[' && close === ']') return whole.slice(1, -1);
    let field = name.replace(/^wpcf7\./, '_').replace(/^_(raw|format)_/, '');
    if (field === '_site_admin_email') return adminEmail;
    if (field === '_user_agent') return 'example';
    const subscribers = settingIsTrue(form.additionalSettings, 'subscribers_only');
    if (field === '_user_email') return subscribers ? 'example@example.com' : '';
    if (field.startsWith('_user_')) return subscribers ? 'example' : '';
    if (field.startsWith('_')) return field.endsWith('_email') ? 'example@example.com' : 'example';
    field = field.trim();
    const matching = tags.filter((t) => t.name === field);
    if (!matching.length) return '';
    if (matching.every((t) => t.basetype === 'email' && isRequired(t))) return 'example@example.com';
    const blankable = matching.some((t) => !isRequired(t) && !['radio', 'quiz', 'hidden'].includes(t.basetype));
    return blankable ? '' : 'example';
  });
}

function siteHost(home: string): string {
  try {
    return new URL(home).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function inDomain(email: string, home: string): boolean {
  const host = siteHost(home);
  if (!host || host === 'localhost' || /^[0-9.]+$/.test(host) || host.startsWith('[')) return true;
  const addresses = mailboxList(email);
  if (!addresses) return false;
  return addresses.every((address) => {
    const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
    const parts = host.split('.');
    while (parts.length) {
      if (parts.join('.') === domain) return true;
      parts.shift();
    }
    return false;
  });
}

export function validateConfiguration(form: ContactFormRecord, site: { adminEmail: string; home: string; bodyLimit: number }): ConfigError[] {
  const errors: ConfigError[] = [];
  const add = (section: string, code: string, message: string) => errors.push({ section, code, message, link: link(code) });
  const tags = scanFormTags(form.form);
  const named = tags.filter((t) => t.name && tagSupports(t.type, 'name-attr'));

  // Form.
  for (const label of form.form.matchAll(/<label(?:[ \t\n][^>]{0,1000})?>([\s\S]{1,20000}?)<\/label>/g)) {
    let count = 0;
    for (const tag of scanFormTags(label[1]!)) {
      if (tagSupports(tag.type, 'multiple-controls-container')) count += tag.values.length + (tag.options.includes('free_text') ? 1 : 0);
      else if (tagSupports(tag.type, 'zero-controls-container')) count += 0;
      else if (tag.name) count += 1;
    }
    if (count > 1) {
      add('form.body', 'multiple_controls_in_label', 'Multiple form controls are in a single label element.');
      break;
    }
  }
  const unavailable = [...new Set(named.filter((t) => PUBLIC_QUERY_VARS.has(t.name)).map((t) => `"${t.name}"`))];
  if (unavailable.length) add('form.body', 'unavailable_names', `Unavailable names (${unavailable.join(', ')}) are used for form controls.`);
  if (/(?:<form[\s>]|<\/form>)/i.test(form.form)) add('form.body', 'unavailable_html_elements', 'Unavailable HTML elements are used in the form template.');
  if (named.some((t) => t.rawName.includes('.'))) add('form.body', 'dots_in_names', 'Dots are used in form-tag names.');
  if (named.some((t) => t.rawName.includes(':'))) add('form.body', 'colons_in_names', 'Colons are used in form-tag names.');
  if (tags.some((t) => t.basetype === 'file' && limitOption(t) > site.bodyLimit)) {
    add('form.body', 'upload_filesize_overlimit', 'Uploadable file size exceeds PHP’s maximum acceptable size.');
  }

  // Mail.
  const skip = settingIsTrue(form.additionalSettings, 'demo_mode') || settingIsTrue(form.additionalSettings, 'skip_mail');
  const checkMail = (name: string, mail: MailTemplate) => {
    if (skip || (name !== 'mail' && !mail.active)) return;
    const replace = (text: string) => minimumInput(text, tags, form, site.adminEmail).replace(/[\r\n]/g, '').trim();
    if (replace(mail.subject) === '') add(`${name}.subject`, 'maybe_empty', 'There is a possible empty field.');
    const sender = replace(mail.sender);
    if (!mailboxList(sender)) add(`${name}.sender`, 'invalid_mailbox_syntax', 'Invalid mailbox syntax is used.');
    else if (!inDomain(sender, site.home)) add(`${name}.sender`, 'email_not_in_site_domain', 'Sender email address does not belong to the site domain.');
    if (!mailboxList(replace(mail.recipient))) add(`${name}.recipient`, 'invalid_mailbox_syntax', 'Invalid mailbox syntax is used.');
    let invalidHeader = false;
    const badMailboxes: string[] = [];
    for (const raw of mail.additionalHeaders.split('\n')) {
      const header = raw.trim();
      if (!header) continue;
      const m = /^([0-9A-Za-z-]+):(.*)$/.exec(header);
      if (!m) {
        invalidHeader = true;
        continue;
      }
      const value = m[2]!.trim();
      if (['reply-to', 'cc', 'bcc'].includes(m[1]!.toLowerCase()) && value !== '' && !mailboxList(replace(value))) badMailboxes.push(m[1]!);
    }
    if (invalidHeader) add(`${name}.additional_headers`, 'invalid_mail_header', 'There are invalid mail header fields.');
    for (const field of badMailboxes) add(`${name}.additional_headers`, 'invalid_mailbox_syntax', `Invalid mailbox syntax is used in the ${field} field.`);
    if (replace(mail.body) === '') add(`${name}.body`, 'maybe_empty', 'There is a possible empty field.');
    const attachable = tags.filter((t) => t.basetype === 'file' && mail.attachments.includes(`[${t.name}]`));
    const total = attachable.reduce((n, t) => n + limitOption(t), 0);
    const lines = mail.attachments.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('['));
    for (const line of lines) add(`${name}.attachments`, 'file_not_found', `Attachment file does not exist at ${line}.`);
    if (total > 25 * 1024 * 1024) add(`${name}.attachments`, 'attachments_overweight', 'The total size of attachment files is too large.');
  };
  checkMail('mail', form.mail);
  checkMail('mail_2', form.mail2);

  // Messages.
  for (const [key, text] of completeMessages(form.messages)) {
    if (key === 'captcha_not_match') continue;
    if (stripAllTags(text) !== phpTrim(text) || hasAngleTag(text)) {
      add(`messages.${key}`, 'html_in_message', 'HTML tags are used in a message.');
    }
  }

  // Additional settings.
  if (settingValue(form.additionalSettings, 'on_sent_ok') !== null || settingValue(form.additionalSettings, 'on_submit') !== null) {
    add('additional_settings.body', 'deprecated_settings', 'Deprecated settings are used.');
  }
  return errors;
}

/** `collect_error_messages`: `[]` when none, else `{ section: [{ message, link }] }`. */
export function configErrorsForApi(errors: readonly ConfigError[]): unknown[] | Record<string, Array<{ message: string; link: string }>> {
  if (!errors.length) return [];
  const out: Record<string, Array<{ message: string; link: string }>> = {};
  for (const error of errors) (out[error.section] ??= []).push({ message: error.message, link: error.link });
  return out;
}
