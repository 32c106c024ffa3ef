import { createHash, randomBytes } from 'node:crypto';
import type { ApiRequest } from '../../http/api-request.js';
import type { UploadedFile } from '../../http/request.js';
import type { MailMessage } from '../../mail/message.js';
import { FileTooLargeError } from '../../media/file-storage.js';
import { siteZone } from '../../settings.js';
import type { ContactFormRecord, StoredUpload, SubmissionMeta, SubmissionRecord, SubmissionStatus } from '../../store/contact-forms.js';
import { composeMail, MailCompositionError } from './compose.js';
import { antiscriptFileName, mimeOfFilename } from './files.js';
import { hasOption, idOption, isRequired, limitOption } from './form-tags/options.js';
import { isName, scanFormTags, type FormTag } from './form-tags/scanner.js';
import { tagSupports } from './form-tags/types.js';
import { filterMessage, type MailTagContext } from './mail-tags.js';
import { deliver, releaseUploads } from './outbox.js';
import { clientIp, siteHash, type ContactFormsRuntime } from './runtime.js';
import { settingIsTrue } from './settings.js';
import { buildSchema, checkFileRule, checkTextRule, FILE_RULES, type SwvSchema } from './swv.js';
import { completeMessages, messageOf } from './template.js';
import { noNull } from '../../text/kses-protocols.js';
import { canonicalize, storableText } from './validators.js';

interface InvalidField {
  reason: string;
  idref: string | null;
}

/** What `submit()` answers (before the REST layer adds `into` and reshapes `invalid_fields`). */
export interface SubmitResult {
  contact_form_id: number;
  status: string;
  message: string;
  invalid_fields?: Map<string, InvalidField>;
  posted_data_hash?: string;
  demo_mode?: true;
  /** The stored submission, when one was stored. */
  submissionId?: number;
}

type Posted = Map<string, string | string[]>;

const MAX_VALUES = 1000;

/** PHP's `wp_kses_no_null` on posted text: control characters and backslash-zero sequences removed. */
function clean(text: string): string {
  return storableText(noNull(text));
}

/** A posted value as a string or a flat list of strings. */
function postedValue(value: unknown): string | string[] {
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
    const out: string[] = [];
    const walk = (v: unknown, depth: number) => {
      if (out.length >= MAX_VALUES || depth > 3) return;
      if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
      else if (v !== null && typeof v === 'object') Object.values(v).forEach((x) => walk(x, depth + 1));
      else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(clean(String(v)));
    };
    walk(value, 0);
    return out;
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? clean(String(value)) : '';
}

/** PHP `empty()` on a posted value. */
function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === '0') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

const flat = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

/** The pipes of every tag with that name (`get_pipes`). */
function pipeValue(tags: readonly FormTag[], name: string, value: string): string {
  const input = canonicalize(value, { strto: 'as-is' });
  for (const tag of tags) {
    if (tag.name !== name || !tag.pipes) continue;
    for (const [before, after] of tag.pipes) if (canonicalize(before, { strto: 'as-is' }) === input) return after;
  }
  return value;
}

/** Files posted for a field (`name` or `name[]`) that name a file (an empty file input posts none). */
function uploadsOf(files: readonly UploadedFile[], name: string): UploadedFile[] {
  return files.filter((f) => (f.field === name || f.field === `${name}[]`) && f.filename !== '');
}

interface Processing {
  form: ContactFormRecord;
  tags: FormTag[];
  schema: SwvSchema;
  request: ApiRequest;
  runtime: ContactFormsRuntime;
  posted: Posted;
  raw: Posted;
  meta: SubmissionMeta;
  invalid: Map<string, InvalidField>;
  uploads: StoredUpload[];
  spamLog: Array<{ agent: string; reason: string }>;
  mailContext: MailTagContext;
  /** The stored submission, once there is one. */
  submissionId?: number;
}

export async function mailTagContext(
  site: ApiRequest['site'],
  form: ContactFormRecord,
  tags: readonly FormTag[],
  parts: { posted?: Posted; raw?: Posted; meta?: SubmissionMeta; uploads?: readonly StoredUpload[]; invalidFields?: number } = {},
): Promise<MailTagContext> {
  const settings = site.settings;
  const uploads = new Map<string, string[]>();
  for (const upload of parts.uploads ?? []) uploads.set(upload.field, [...(uploads.get(upload.field) ?? []), upload.filename]);
  let post: MailTagContext['post'] = null;
  let user: MailTagContext['user'] = null;
  const meta = parts.meta;
  if (meta?.containerPostId) post = await containerPost(site, meta.containerPostId);
  if (meta?.currentUserId) {
    const record = await site.store.users.get(meta.currentUserId);
    if (record) {
      user = {
        user_login: record.login,
        user_email: record.email,
        user_url: record.url,
        display_name: record.displayName,
        nickname: record.login,
        nicename: record.nicename,
        first_name: '',
        last_name: '',
      };
    }
  }
  return {
    posted: parts.posted ?? new Map(),
    raw: parts.raw ?? new Map(),
    tags,
    uploads,
    site: {
      title: settings.name,
      description: settings.description,
      url: settings.url,
      adminEmail: settings.admin_email,
      dateFormat: settings.date_format,
      timeFormat: settings.time_format,
      zone: siteZone(settings),
    },
    submission: meta
      ? { remoteIp: meta.remoteIp, userAgent: meta.userAgent, url: meta.url, timestamp: meta.timestamp, invalidFields: parts.invalidFields ?? 0, formTitle: form.title }
      : null,
    post,
    user,
  };
}

/** The container post of a submission (`_post_*` mail-tags): any post-like record the store knows. */
async function containerPost(site: ApiRequest['site'], id: number): Promise<MailTagContext['post']> {
  const store = site.store;
  const type = await store.posts.typeOf(id);
  if (!type) return null;
  const record =
    (await store.events.get(id)) ?? (await store.venues.get(id)) ?? (await store.organizers.get(id)) ?? (await store.contactForms.get(id)) ?? (await store.popups.get(id));
  if (!record) return null;
  const author = record.authorId ? await store.users.get(record.authorId) : null;
  const base = site.settings.home;
  const url = site.settings.permalink_structure && record.slug ? `${base}/${record.slug}/` : `${base}/?p=${record.id}`;
  return { id: record.id, slug: record.slug, title: record.title, url, authorName: author?.displayName ?? '', authorEmail: author?.email ?? '' };
}

/** The form's SWV schema (messages filtered as the sender would see them). */
export function formSchema(form: ContactFormRecord, tags: readonly FormTag[], ctx: MailTagContext, now: number): SwvSchema {
  const messages = completeMessages(form.messages);
  return buildSchema(tags, form.locale, {
    message: (key) => filterMessage(messageOf(messages, key), ctx),
    filter: (text) => filterMessage(text, ctx),
    zone: ctx.site.zone,
    now,
  });
}

function invalidate(p: Processing, name: string, reason: string): void {
  if (!name || !isName(name) || p.invalid.has(name)) return;
  const tag = p.tags.find((t) => t.name === name);
  if (!tag) return;
  const id = idOption(tag);
  p.invalid.set(name, { reason, idref: id !== null && isName(id) && !id.startsWith('wpcf7') ? id : null });
}

/** WPCF7_Submission::setup_posted_data: every posted field not starting with `_`, then the tags' values. */
function setupPosted(p: Processing, form: Record<string, unknown>): boolean {
  let doNotStore = false;
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith('_')) continue;
    const name = storableText(key).slice(0, 200);
    const v = postedValue(value);
    p.posted.set(name, v);
    p.raw.set(name, v);
  }
  const seen = new Set<string>();
  for (const tag of p.tags) {
    if (!tag.name || seen.has(tag.name) || !tagSupports(tag.type, 'name-attr') || tagSupports(tag.type, 'not-for-mail')) continue;
    seen.add(tag.name);
    let value: string | string[] = p.posted.get(tag.name) ?? '';
    if (tagSupports(tag.type, 'selectable-values')) {
      value = flat(value).map((v) => pipeValue(p.tags, tag.name, v));
      if (hasOption(tag, 'free_text') && (tag.basetype === 'checkbox' || tag.basetype === 'radio')) {
        const last = value.pop();
        if (last !== undefined) value.push(`${last} ${postedValue(form[`_wpcf7_free_text_${tag.name}`]).toString()}`.trim());
      }
    }
    p.posted.set(tag.name, value);
    if (hasOption(tag, 'consent_for:storage') && phpEmpty(value)) doNotStore = true;
  }
  return doNotStore;
}

async function validateText(p: Processing, form: Record<string, unknown>): Promise<void> {
  for (const rule of p.schema.rules) {
    if (FILE_RULES.has(rule.rule) || p.invalid.has(rule.field)) continue;
    const error = checkTextRule(rule, form[rule.field]);
    if (error !== null) invalidate(p, rule.field, error);
  }
  const messages = completeMessages(p.form.messages);
  const message = (key: string) => filterMessage(messageOf(messages, key), p.mailContext);
  for (const tag of p.tags) {
    if (!tag.name || tagSupports(tag.type, 'file-uploading')) continue;
    if (tag.type === 'quiz') {
      const posted = form[tag.name];
      const answer = typeof posted === 'string' ? canonicalize(posted) : '';
      const expected = form[`_wpcf7_quiz_answer_${tag.name}`];
      const hash = await siteHash(p.request.site, 'wpcf7_quiz', answer);
      if (typeof expected !== 'string' || expected !== hash) invalidate(p, tag.name, message('quiz_answer_not_correct'));
    } else if (tag.type === 'acceptance' && settingIsTrue(p.form.additionalSettings, 'acceptance_as_validation') && !hasOption(tag, 'optional')) {
      const value = !phpEmpty(form[tag.name]);
      if (hasOption(tag, 'invert') === value) invalidate(p, tag.name, message('accept_terms'));
    }
  }
}

function accepted(p: Processing, form: Record<string, unknown>): boolean {
  let ok = true;
  for (const tag of p.tags) {
    if (tag.type !== 'acceptance' || !tag.name || hasOption(tag, 'optional')) continue;
    const value = !phpEmpty(form[tag.name]);
    if (hasOption(tag, 'invert') === value) ok = false;
  }
  return ok;
}

async function spam(p: Processing, form: Record<string, unknown>): Promise<boolean> {
  if (settingIsTrue(p.form.additionalSettings, 'subscribers_only') && p.request.can('read')) return false;
  let isSpam = false;
  if (p.meta.userAgent.length < 2) {
    isSpam = true;
    p.spamLog.push({ agent: 'wpcf7', reason: 'User-Agent string is unnaturally short.' });
  }
  for (const tag of p.tags) {
    if (tag.type === 'honeypot' && tag.name && !phpEmpty(form[tag.name])) {
      isSpam = true;
      p.spamLog.push({ agent: 'honeypot', reason: `The honeypot field "${tag.name}" was filled in.` });
    }
  }
  const check = p.runtime.options.spamCheck;
  if (check) {
    const verdict = await check({ form: p.form, fields: [...p.posted], meta: p.meta });
    if (verdict) {
      isSpam = true;
      p.spamLog.push({ agent: 'spam-check', reason: typeof verdict === 'string' ? verdict : 'The spam check rejected the submission.' });
    }
  }
  return isSpam;
}

/** WPCF7_Submission::unship_uploaded_files: validates each file field, then keeps its files in the storage. */
async function unshipFiles(p: Processing, files: readonly UploadedFile[]): Promise<boolean> {
  const storage = p.runtime.files(p.request.site);
  const folder = randomBytes(8).toString('hex');
  p.invalid = new Map();
  for (const tag of p.tags) {
    if (!tag.name || !tagSupports(tag.type, 'file-uploading')) continue;
    const posted = uploadsOf(files, tag.name);
    const present = files.some((f) => f.field === tag.name || f.field === `${tag.name}[]`);
    // Upstream skips a file field whose part is missing altogether, even a required one; siterest does not.
    if (!present && !isRequired(tag)) continue;
    const facts = posted.map((f) => ({ filename: f.filename, size: f.data.length }));
    let failed = false;
    for (const rule of p.schema.rules) {
      if (rule.field !== tag.name || !FILE_RULES.has(rule.rule)) continue;
      const error = checkFileRule(rule, facts);
      if (error !== null) {
        invalidate(p, tag.name, error);
        failed = true;
        break;
      }
    }
    if (failed) continue;
    const hashes: string[] = [];
    for (const file of posted) {
      const filename = antiscriptFileName(canonicalize(storableText(file.filename), { strto: 'as-is' })) || 'file';
      try {
        const stored = await storage.write(`contact-forms/${folder}/${filename}`, file.data, { maxBytes: limitOption(tag), onConflict: 'rename' });
        const md5 = createHash('md5').update(file.data).digest('hex');
        hashes.push(md5);
        p.uploads.push({
          field: tag.name,
          key: stored.key,
          filename: stored.key.slice(stored.key.lastIndexOf('/') + 1),
          contentType: mimeOfFilename(filename),
          size: stored.size,
          md5,
        });
      } catch (error) {
        const messages = completeMessages(p.form.messages);
        const key = error instanceof FileTooLargeError ? 'upload_file_too_large' : 'upload_failed';
        if (!(error instanceof FileTooLargeError)) p.request.site.logger.warn('an upload could not be stored', { error: String(error) });
        invalidate(p, tag.name, filterMessage(messageOf(messages, key), p.mailContext));
        break;
      }
    }
    if (phpEmpty(p.posted.get(tag.name))) p.posted.set(tag.name, hashes.join(' '));
  }
  return p.invalid.size === 0;
}

async function removeUploads(p: Processing): Promise<void> {
  const storage = p.runtime.files(p.request.site);
  await Promise.all(p.uploads.map((u) => storage.delete(u.key).catch(() => false)));
}

/** The hash Contact Form 7 answers for a submission that got past the checks (`posted_data_hash`). */
async function postedDataHash(p: Processing): Promise<string> {
  const tick = Math.ceil(p.meta.timestamp / 1800);
  const parts = [String(tick), p.meta.remoteIp, p.meta.unitTag, ...[...p.posted.values()].map((v) => flat(v).join(', '))];
  return siteHash(p.request.site, 'wpcf7_submission', parts.join(', '));
}

function requestUrl(request: ApiRequest): string {
  const home = request.site.settings.home;
  const referer = (request.header('referer') ?? '').trim();
  if (referer && referer.startsWith(home)) return referer.slice(0, 2000);
  return request.restUrl(request.path.replace(/^\//, ''));
}

/** WPCF7_ContactForm::submit through WPCF7_Submission::proceed. */
export async function submit(request: ApiRequest, form: ContactFormRecord, runtime: ContactFormsRuntime, unitTag: string): Promise<SubmitResult> {
  const site = request.site;
  const settings = form.additionalSettings;
  if (settingIsTrue(settings, 'subscribers_only') && !request.can('read')) {
    return { contact_form_id: form.id, status: 'error', message: 'This contact form is available only for logged in users.' };
  }
  const body = request.formParams();
  const tags = scanFormTags(form.form);
  const meta: SubmissionMeta = {
    timestamp: Math.floor(site.now() / 1000),
    remoteIp: clientIp(request, runtime.options),
    userAgent: storableText((request.header('user-agent') ?? '').slice(0, 254)),
    url: requestUrl(request),
    unitTag,
    containerPostId: Math.min(Math.abs(Math.trunc(Number(typeof body._wpcf7_container_post === 'string' ? body._wpcf7_container_post : 0)) || 0), Number.MAX_SAFE_INTEGER),
    currentUserId: request.principal?.id ?? 0,
    doNotStore: settingIsTrue(settings, 'do_not_store'),
  };
  const p: Processing = {
    form,
    tags,
    schema: { version: '', locale: '', rules: [] },
    request,
    runtime,
    posted: new Map(),
    raw: new Map(),
    meta,
    invalid: new Map(),
    uploads: [],
    spamLog: [],
    mailContext: await mailTagContext(site, form, tags, { meta }),
  };
  if (setupPosted(p, body)) meta.doNotStore = true;
  p.mailContext = await mailTagContext(site, form, tags, { posted: p.posted, raw: p.raw, meta });
  p.schema = formSchema(form, tags, p.mailContext, site.now());
  const messages = completeMessages(form.messages);
  const message = (key: string) => filterMessage(messageOf(messages, key), p.mailContext);

  let status = 'init';
  let response = '';
  await validateText(p, body);
  if (p.invalid.size) {
    status = 'validation_failed';
    response = message('validation_error');
  }
  if (status === 'init' && !accepted(p, body)) {
    status = 'acceptance_missing';
    response = message('accept_terms');
  }
  if (status === 'init' && (await spam(p, body))) {
    status = 'spam';
    response = message('spam');
  }
  try {
    // The files stored before one failed go in settleUploads: no submission holds them.
    if (status === 'init' && !(await unshipFiles(p, request.files))) {
      status = 'validation_failed';
      response = message('validation_error');
    }
    return await proceed(p, runtime, status, response, message);
  } finally {
    await settleUploads(p);
  }
}

/**
 * The uploads once the request is done, as Contact Form 7 removes them after its mail: those of a submission that
 * was never stored belong to nothing and go; those of a submission stored without its fields (do_not_store,
 * storage consent refused) go once no mail of it needs them (see releaseUploads); the others stay with their
 * submission. Never throws: the answer stands, and a file left behind is only logged.
 */
async function settleUploads(p: Processing): Promise<void> {
  if (p.uploads.length === 0) return;
  try {
    if (p.submissionId === undefined) await removeUploads(p);
    else if (p.meta.doNotStore) await releaseUploads(p.request.site, p.runtime, p.submissionId, p.uploads.map((u) => u.key));
  } catch (error) {
    p.request.site.logger.warn('contact form uploads were not cleaned up', { form: p.form.id, error: String(error) });
  }
}

/** What follows the checks: the mail, or the spam record, and the answer. */
async function proceed(p: Processing, runtime: ContactFormsRuntime, checked: string, checkedResponse: string, message: (key: string) => string): Promise<SubmitResult> {
  const { form, tags, meta } = p;
  const site = p.request.site;
  const settings = form.additionalSettings;
  let status = checked;
  let response = checkedResponse;
  const demo = settingIsTrue(settings, 'demo_mode');
  let submissionId: number | undefined;
  if (status === 'init' || status === 'spam') {
    p.mailContext = await mailTagContext(site, form, tags, { posted: p.posted, raw: p.raw, meta, uploads: p.uploads, invalidFields: p.invalid.size });
  }
  if (status === 'init') {
    let abortMessage: string | undefined;
    let aborted = false;
    if (runtime.options.beforeSendMail) {
      await runtime.options.beforeSendMail({
        form,
        fields: [...p.posted],
        meta,
        abort: (text?: string) => {
          aborted = true;
          abortMessage = text;
        },
      });
    }
    if (aborted) {
      status = 'aborted';
      response = abortMessage !== undefined && abortMessage !== '' ? abortMessage : filterMessage('Sending mail has been aborted.', p.mailContext);
      submissionId = (await store(p, 'aborted', response, await postedDataHash(p), demo)).id;
    } else {
      const outcome = await sendFormMail(p, demo || settingIsTrue(settings, 'skip_mail'));
      status = outcome.ok ? 'mail_sent' : 'mail_failed';
      response = message(outcome.ok ? 'mail_sent_ok' : 'mail_sent_ng');
      submissionId = outcome.submissionId;
      if (submissionId !== undefined) await site.store.contactForms.submissions.update(submissionId, { status: status as SubmissionStatus, message: response, updatedAt: site.now() });
    }
  } else if (status === 'spam') {
    submissionId = (await store(p, 'spam', response, '', demo)).id;
  }

  const result: SubmitResult = { contact_form_id: form.id, status, message: response };
  if (status === 'validation_failed') result.invalid_fields = p.invalid;
  result.posted_data_hash = ['init', 'validation_failed', 'acceptance_missing', 'spam'].includes(status) ? '' : await postedDataHash(p);
  if (demo) result.demo_mode = true;
  if (submissionId !== undefined) result.submissionId = submissionId;
  return result;
}

function storedFields(p: Processing): Array<[string, string | string[]]> {
  if (p.meta.doNotStore) return [];
  const hidden = new Set(p.tags.filter((t) => t.name && tagSupports(t.type, 'do-not-store')).map((t) => t.name));
  return [...p.posted].filter(([name]) => !hidden.has(name));
}

async function store(p: Processing, status: SubmissionStatus, message: string, hash: string, demo: boolean): Promise<SubmissionRecord> {
  const now = p.request.site.now();
  const record = await p.request.site.store.contactForms.submissions.create({
    formId: p.form.id,
    formTitle: p.form.title,
    status,
    message,
    fields: storedFields(p),
    files: p.meta.doNotStore ? [] : p.uploads,
    meta: p.meta,
    postedDataHash: hash,
    spamLog: p.spamLog,
    demoMode: demo,
    createdAt: now,
    updatedAt: now,
  });
  p.submissionId = record.id;
  return record;
}

/**
 * WPCF7_Submission::mail: `mail`, then `mail_2` when active and `mail` went out. The submission is stored
 * first (as failed) and its mail queued in the outbox, so a crash or a refused relay loses nothing and a later
 * resend can deliver it.
 */
async function sendFormMail(p: Processing, skip: boolean): Promise<{ ok: boolean; submissionId: number }> {
  const site = p.request.site;
  const hash = await postedDataHash(p);
  if (skip) {
    const record = await store(p, 'mail_sent', '', hash, settingIsTrue(p.form.additionalSettings, 'demo_mode'));
    return { ok: true, submissionId: record.id };
  }
  const record = await store(p, 'mail_failed', '', hash, false);
  const composed: Array<{ template: string; message: MailMessage | null; error: string | null }> = [];
  for (const [name, template] of [['mail', p.form.mail], ['mail_2', p.form.mail2]] as const) {
    if (name === 'mail_2' && !template.active) continue;
    try {
      composed.push({ template: name, message: composeMail(template, p.mailContext, p.uploads, p.form.locale), error: null });
    } catch (error) {
      if (!(error instanceof MailCompositionError)) throw error;
      composed.push({ template: name, message: null, error: error.message });
    }
  }
  const first = composed[0]!;
  if (!first.message) {
    site.logger.warn('contact form mail could not be composed', { form: p.form.id, error: first.error });
    return { ok: false, submissionId: record.id };
  }
  const transport = p.runtime.transport(site);
  const send = async (template: string, message: MailMessage) => {
    const queued = await site.store.contactForms.outbox.create({
      submissionId: record.id,
      template,
      message,
      status: 'queued',
      error: null,
      attempts: 0,
      transport: transport.name,
      createdAt: site.now(),
      sentAt: null,
    });
    return deliver(site, p.runtime, queued);
  };
  const ok = await send('mail', first.message);
  if (ok) for (const extra of composed.slice(1)) if (extra.message) await send(extra.template, extra.message);
  return { ok, submissionId: record.id };
}
