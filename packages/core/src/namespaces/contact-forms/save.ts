import { createHash, randomBytes } from 'node:crypto';
import type sanitizeHtml from 'sanitize-html';
import { filterHtml } from '../../text/html-filter.js';
import type { ApiRequest } from '../../http/api-request.js';
import { isEmpty, isPlainObject, phpTrim } from '../../http/php.js';
import { parseFormString } from '../../http/query.js';
import type { ContactFormRecord, MailTemplate, NewContactForm } from '../../store/contact-forms.js';
import { checkAttributes, ksesPost } from '../../text/sanitize.js';
import { removeAngleTags } from '../../text/markup-scans.js';
import { formatWpDate } from '../../time.js';
import { siteZone } from '../../settings.js';
import { CONTACT_FORM_TYPE, MAX_TEMPLATE_LENGTH, MESSAGE_KEYS } from './constants.js';
import { contactFormErrors } from './errors.js';
import { isValidLocale } from './serialize.js';
import { storableText } from './validators.js';
import { defaultMail, defaultMail2, defaultMessages, DEFAULT_FORM, fromEmail } from './template.js';

/** What the form template keeps for users without `unfiltered_html` (wpcf7_kses_allowed_html( 'form' )). */
const FORM_KSES: sanitizeHtml.IOptions = {
  allowedTags: [
    'a', 'abbr', 'b', 'blockquote', 'br', 'button', 'cite', 'code', 'datalist', 'dd', 'del', 'div', 'dl', 'dt', 'em', 'fieldset',
    'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'label', 'legend', 'li', 'meter', 'ol', 'optgroup',
    'option', 'output', 'p', 'pre', 'progress', 'q', 's', 'section', 'select', 'small', 'span', 'strong', 'sub', 'sup', 'table',
    'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
  ],
  allowedAttributes: {
    '*': ['aria-*', 'class', 'data-*', 'id', 'inputmode', 'role', 'style', 'tabindex', 'title', 'for', 'name', 'value', 'type',
      'placeholder', 'disabled', 'readonly', 'checked', 'selected', 'multiple', 'size', 'min', 'max', 'step', 'maxlength',
      'minlength', 'rows', 'cols', 'label', 'accept', 'alt', 'href', 'src', 'width', 'height', 'list', 'capture'],
  },
  // kses's checks of URL schemes (after decoding entities) and of style declarations, as for post content.
  transformTags: { '*': checkAttributes },
  disallowedTagsMode: 'discard',
  parser: { decodeEntities: false },
  parseStyleAttributes: false,
};

const normalizeNewlines = (text: string) => text.replace(/\r\n|\r/g, '\n');

/** A body param that must be text: numbers and booleans become text as PHP casts them; lists and objects are refused. */
function text(param: string, value: unknown, max = MAX_TEMPLATE_LENGTH): string {
  if (typeof value === 'string') {
    if (value.length > max) throw contactFormErrors.templateTooLong(param, max);
    return storableText(value);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? '1' : '';
  throw contactFormErrors.invalidParam(param, `${param} is not of type string.`);
}

/** A body param that holds named parts (`mail`, `messages`): an object, or a query string as PHP's wp_parse_args reads one. */
function parts(param: string, value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  if (typeof value === 'string') return parseFormString(value.slice(0, MAX_TEMPLATE_LENGTH));
  if (Array.isArray(value) && value.length === 0) return {};
  throw contactFormErrors.invalidParam(param, `${param} is not of type object.`);
}

const own = (object: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/**
 * `wpcf7_sanitize_mail`. Unlike upstream, a component the request leaves out keeps its current value (upstream
 * empties it), so a partial update does not lose the rest of the mail.
 */
function sanitizeMail(param: string, input: unknown, current: MailTemplate, canUnfiltered: boolean, forceActive: boolean): MailTemplate {
  const given = parts(param, input);
  const pick = (key: string, fallback: string) => (own(given, key) ? phpTrim(normalizeNewlines(text(`${param}[${key}]`, given[key]))) : fallback);
  let body = pick('body', current.body);
  if (!canUnfiltered && own(given, 'body')) body = ksesPost(body);
  const headers = own(given, 'additional_headers')
    ? normalizeNewlines(text(`${param}[additional_headers]`, given.additional_headers))
        .split('\n')
        .map((h) => h.trim())
        .filter(Boolean)
        .join('\n')
    : current.additionalHeaders;
  const flag = (key: string, fallback: boolean) => (own(given, key) ? !isEmpty(given[key]) && !(Array.isArray(given[key]) && !(given[key] as unknown[]).length) : fallback);
  return {
    active: forceActive ? true : flag('active', current.active),
    subject: pick('subject', current.subject),
    sender: pick('sender', current.sender),
    recipient: pick('recipient', current.recipient),
    body,
    additionalHeaders: headers,
    attachments: pick('attachments', current.attachments),
    useHtml: flag('use_html', current.useHtml),
    excludeBlank: flag('exclude_blank', current.excludeBlank),
    shape: 'saved',
  };
}

/** `wpcf7_sanitize_messages`: known keys only, trimmed; keys left out keep their current text. */
function sanitizeMessages(input: unknown, current: ReadonlyArray<[string, string]>): Array<[string, string]> {
  const given = parts('messages', input);
  const out: Array<[string, string]> = [];
  const known = new Map(current);
  for (const key of MESSAGE_KEYS) {
    if (own(given, key)) out.push([key, phpTrim(text(`messages[${key}]`, given[key], 10_000))]);
    else if (known.has(key)) out.push([key, known.get(key)!]);
  }
  return out;
}

/** Post content as Contact Form 7 saves it: every property value, flattened, one per line. */
function flattenedContent(form: Pick<ContactFormRecord, 'form' | 'mail' | 'mail2' | 'messages' | 'additionalSettings'>): string {
  const mail = (m: MailTemplate) => [m.subject, m.sender, m.recipient, m.body, m.additionalHeaders, m.attachments];
  return phpTrim([form.form, ...mail(form.mail), ...mail(form.mail2), ...form.messages.map(([, v]) => v), form.additionalSettings].join('\n'));
}

/** A new form as `WPCF7_ContactForm::get_template()` makes it. */
export function templateForm(request: ApiRequest, title = 'Untitled'): NewContactForm {
  const site = request.site;
  const now = site.now();
  const sender = fromEmail(site.settings.admin_email, site.settings.home);
  const form = {
    type: CONTACT_FORM_TYPE,
    status: 'publish',
    authorId: request.principal?.id ?? 0,
    title,
    content: '',
    excerpt: '',
    slug: '',
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: formatWpDate(now, siteZone(site.settings)),
    dateGmt: formatWpDate(now, 'UTC'),
    modified: formatWpDate(now, siteZone(site.settings)),
    modifiedGmt: formatWpDate(now, 'UTC'),
    trashedFrom: null,
    imageId: 0,
    locale: 'en_US',
    hash: createHash('sha1').update(randomBytes(32)).digest('hex'),
    form: DEFAULT_FORM,
    mail: defaultMail(sender),
    mail2: defaultMail2(sender),
    messages: defaultMessages(),
    additionalSettings: '',
    configErrors: [],
  } satisfies NewContactForm;
  return form;
}

/**
 * `wpcf7_save_contact_form`'s handling of the request: title, locale, form, mail, mail_2, messages and
 * additional_settings applied to `base` (only those given).
 */
export function applyRequest<T extends NewContactForm | ContactFormRecord>(request: ApiRequest, base: T): T {
  const out = { ...base };
  const canUnfiltered = request.can('unfiltered_html');
  const title = request.get('title');
  if (title !== undefined) {
    const cleaned = phpTrim(removeAngleTags(text('title', title, 1000)));
    out.title = cleaned === '' ? 'Untitled' : cleaned;
  }
  const locale = request.get('locale');
  if (locale !== undefined) {
    const value = phpTrim(text('locale', locale, 100));
    out.locale = isValidLocale(value) ? value : 'en_US';
  }
  const form = request.get('form');
  if (form !== undefined) {
    let value = phpTrim(normalizeNewlines(text('form', form)));
    if (!canUnfiltered) value = filterHtml(value, FORM_KSES);
    out.form = value;
  }
  const mail = request.get('mail');
  if (mail !== undefined) out.mail = sanitizeMail('mail', mail, base.mail, canUnfiltered, true);
  const mail2 = request.get('mail_2');
  if (mail2 !== undefined) out.mail2 = sanitizeMail('mail_2', mail2, base.mail2, canUnfiltered, false);
  const messages = request.get('messages');
  if (messages !== undefined) out.messages = sanitizeMessages(messages, base.messages);
  const settings = request.get('additional_settings');
  if (settings !== undefined) out.additionalSettings = phpTrim(normalizeNewlines(text('additional_settings', settings)));
  out.content = flattenedContent(out);
  const now = request.site.now();
  out.modified = formatWpDate(now, siteZone(request.site.settings));
  out.modifiedGmt = formatWpDate(now, 'UTC');
  return out;
}
