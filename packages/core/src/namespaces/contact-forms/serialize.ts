import type { ContactFormRecord, MailTemplate } from '../../store/contact-forms.js';
import { scanFormTags, type FormTag } from './form-tags/scanner.js';
import { settingsForApi } from './settings.js';
import { completeMessages } from './template.js';

/** `wpcf7_is_valid_locale`. */
export function isValidLocale(locale: string): boolean {
  return /^[a-z]{2,3}(?:_[a-zA-Z_]{2,})?$/.test(locale);
}

/** A mail template in the shape Contact Form 7 stored it (see MailTemplate.shape). */
function serializeMail(mail: MailTemplate, isMain: boolean): Record<string, unknown> {
  if (mail.shape === 'saved') {
    return {
      active: mail.active,
      subject: mail.subject,
      sender: mail.sender,
      recipient: mail.recipient,
      body: mail.body,
      additional_headers: mail.additionalHeaders,
      attachments: mail.attachments,
      use_html: mail.useHtml,
      exclude_blank: mail.excludeBlank,
    };
  }
  const out: Record<string, unknown> = {};
  if (!isMain) out.active = mail.active;
  Object.assign(out, {
    subject: mail.subject,
    sender: mail.sender,
    body: mail.body,
    recipient: mail.recipient,
    additional_headers: mail.additionalHeaders,
    attachments: mail.attachments,
    use_html: mail.useHtml ? 1 : 0,
    exclude_blank: mail.excludeBlank ? 1 : 0,
  });
  return out;
}

function serializeField(tag: FormTag): Record<string, unknown> {
  return {
    type: tag.type,
    basetype: tag.basetype,
    name: tag.name,
    options: tag.options,
    raw_values: tag.rawValues,
    labels: tag.labels,
    values: tag.values,
    pipes: tag.pipes,
    content: tag.content,
  };
}

/** `get_properties` of the REST controller: the form with its fields, mail, mail_2, messages, settings. */
export function serializeProperties(form: ContactFormRecord): Record<string, unknown> {
  const messages: Record<string, string> = {};
  for (const [key, text] of completeMessages(form.messages)) messages[key] = text;
  return {
    form: { content: form.form, fields: scanFormTags(form.form).map(serializeField) },
    mail: serializeMail(form.mail, true),
    mail_2: serializeMail(form.mail2, false),
    messages,
    additional_settings: { content: form.additionalSettings, settings: settingsForApi(form.additionalSettings) },
  };
}

export function serializeListItem(form: ContactFormRecord): Record<string, unknown> {
  return { id: form.id, hash: form.hash.slice(0, 7), slug: form.slug, title: form.title, locale: isValidLocale(form.locale) ? form.locale : '' };
}

export function serializeForm(form: ContactFormRecord): Record<string, unknown> {
  return {
    id: form.id,
    slug: form.slug,
    title: form.title,
    locale: isValidLocale(form.locale) ? form.locale : '',
    properties: serializeProperties(form),
  };
}
