import type { ApiRequest } from '../../http/api-request.js';
import { ApiResponse } from '../../http/api-response.js';
import type { ApiError } from '../../http/api-error.js';
import { intval } from '../../http/php.js';
import { headerValue } from '../../http/request.js';
import { CREATABLE, DELETABLE, EDITABLE, READABLE, defineRoute, type RouteDefinition } from '../../registry/types.js';
import type { ContactFormOrderKey, ContactFormRecord } from '../../store/contact-forms.js';
import { configErrorsForApi, validateConfiguration } from './config-validator.js';
import { contactFormErrors } from './errors.js';
import { scanFormTags } from './form-tags/scanner.js';
import { clientIp, rateLimitKey, siteHash, type ContactFormsRuntime } from './runtime.js';
import { applyRequest, templateForm } from './save.js';
import { serializeForm, serializeListItem, serializeProperties } from './serialize.js';
import { formSchema, mailTagContext, submit } from './submission.js';
import { swvMetaSchema } from './swv.js';
import { sanitizeTitle } from '../../text/sanitize.js';
import { canonicalize } from './validators.js';
import { deleteForm } from './admin.js';

/** CF7 maps its capabilities to WordPress's: read = edit_posts, edit/create/delete = publish_pages. */
const READ_CAP = 'edit_posts';
const WRITE_CAP = 'publish_pages';

const guard = (cap: string, error: () => ApiError) => (request: ApiRequest) => (request.can(cap) ? true : error());

/** The form id of the URL (feedback and schema read only the URL, not the body or query). */
function urlId(request: ApiRequest): number {
  const m = /\/contact-forms\/(\d+)(?:\/|$)/.exec(request.path);
  return m ? intval(m[1]) : 0;
}

async function findForm(request: ApiRequest, raw: unknown): Promise<ContactFormRecord | null> {
  const id = intval(raw);
  // Ids beyond any post id (the URL pattern allows any number of digits) name nothing.
  if (id <= 0 || !Number.isSafeInteger(id)) return null;
  return request.remember(`contact-form:${id}`, () => request.site.store.contactForms.get(id));
}

/** PHP's `(string)` cast of a request value: scalars as text, lists and maps as "Array". */
function phpString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return value === true ? '1' : value === false ? '' : String(value);
  return value === null || value === undefined ? '' : 'Array';
}

const ORDER_KEYS: Record<string, ContactFormOrderKey> = {
  id: 'id',
  ID: 'id',
  title: 'title',
  post_title: 'title',
  name: 'slug',
  post_name: 'slug',
  date: 'date',
  post_date: 'date',
  modified: 'modified',
  post_modified: 'modified',
  author: 'author',
  post_author: 'author',
  menu_order: 'menu_order',
  parent: 'parent',
  post_parent: 'parent',
};

/** Most forms one list answer holds (upstream's default is "all"). */
const MAX_LIST = 1000;

async function listForms(request: ApiRequest): Promise<unknown> {
  const perPageRaw = request.get('per_page');
  let limit: number | null = null;
  let offset = 0;
  if (perPageRaw !== undefined) {
    let perPage = intval(perPageRaw);
    // WP_Query: below -1 counts as its absolute value, 0 as 1, -1 as "no limit".
    if (perPage < -1) perPage = Math.abs(perPage);
    else if (perPage === 0) perPage = 1;
    limit = perPage === -1 ? null : perPage;
  }
  if (limit !== null) offset = Math.min(Math.max(0, intval(request.get('offset') ?? 0)), 1_000_000_000);
  const orderRaw = request.get('order');
  const order = orderRaw === undefined ? 'asc' : phpString(orderRaw).toUpperCase() === 'ASC' ? 'asc' : 'desc';
  const orderbyRaw = request.get('orderby');
  let orderBy: ContactFormOrderKey[] = ['id'];
  if (orderbyRaw !== undefined) {
    const keys = phpString(orderbyRaw)
      .split(/[\s,]+/)
      .slice(0, 10)
      .map((k) => (Object.prototype.hasOwnProperty.call(ORDER_KEYS, k) ? ORDER_KEYS[k]! : null))
      .filter((k): k is ContactFormOrderKey => k !== null);
    // An unknown orderby falls back to the publication date, as WP_Query does.
    orderBy = keys.length ? keys : ['date'];
  }
  const searchRaw = request.get('search');
  const search = searchRaw === undefined || typeof searchRaw === 'object' ? undefined : phpString(searchRaw).slice(0, 500);
  const forms = await request.site.store.contactForms.list({ search: search || undefined, orderBy, order, offset, limit: Math.min(limit ?? MAX_LIST, MAX_LIST) });
  return forms.map(serializeListItem);
}

function withConfigErrors(request: ApiRequest, form: ContactFormRecord, errors = validateConfiguration(form, siteFacts(request))): Record<string, unknown> {
  return {
    id: form.id || null,
    slug: form.id ? form.slug : null,
    title: form.title,
    locale: serializeForm(form).locale,
    properties: serializeProperties(form),
    config_errors: configErrorsForApi(errors),
  };
}

function siteFacts(request: ApiRequest) {
  const site = request.site as ApiRequest['site'] & { bodyLimit?: number };
  return { adminEmail: site.settings.admin_email, home: site.settings.home, bodyLimit: site.bodyLimit ?? 10 * 1024 * 1024 };
}

async function createForm(request: ApiRequest): Promise<unknown> {
  if (intval(request.get('id')) !== 0) throw contactFormErrors.postExists();
  const draft = applyRequest(request, templateForm(request));
  const context = request.get('context');
  if (context !== 'save') {
    // Upstream saves only with context=save; otherwise the answer shows the form it would have saved.
    return withConfigErrors(request, { ...draft, id: 0 });
  }
  const errors = validateConfiguration({ ...draft, id: 0 }, siteFacts(request));
  const created = await request.site.store.contactForms.create({ ...draft, slug: sanitizeTitle(draft.title), configErrors: errors });
  return withConfigErrors(request, created, errors);
}

async function updateForm(request: ApiRequest): Promise<unknown> {
  const form = await findForm(request, request.get('id'));
  if (!form) throw contactFormErrors.notFound();
  const next = applyRequest(request, form);
  const errors = validateConfiguration(next, siteFacts(request));
  if (request.get('context') !== 'save') return withConfigErrors(request, next, errors);
  const { id: _id, type: _type, slug: _slug, hash: _hash, ...patch } = next;
  const saved = await request.site.store.contactForms.update(form.id, { ...patch, configErrors: errors });
  if (!saved) throw contactFormErrors.cannotSave();
  request.forget(`contact-form:${form.id}`);
  return withConfigErrors(request, saved, errors);
}

/** The unit tag the form posted, reduced to `[A-Za-z0-9_-]` (`wpcf7_sanitize_unit_tag`). */
function unitTagOf(request: ApiRequest): string {
  const value = request.get('_wpcf7_unit_tag');
  return typeof value === 'string' ? value.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 200) : '';
}

/** An error answered with extra headers (Retry-After), rendered like any thrown error. */
function errorWithHeaders(error: ApiError, headers: Array<[string, string]>): ApiResponse {
  const response = new ApiResponse(error.toWire(), error.status, headers);
  (response as ApiResponse & { isError?: boolean }).isError = true;
  return response;
}

async function quizRefill(request: ApiRequest, form: ContactFormRecord): Promise<Record<string, [string, string]> | null> {
  const refill: Record<string, [string, string]> = Object.create(null);
  let any = false;
  for (const tag of scanFormTags(form.form)) {
    if (tag.type !== 'quiz' || !tag.name) continue;
    let question = '1+1=?';
    let answer = '2';
    if (tag.pipes && tag.pipes.length) {
      const pick = tag.pipes[Math.floor(Math.random() * tag.pipes.length)]!;
      [question, answer] = pick;
    }
    refill[tag.name] = [question, await siteHash(request.site, 'wpcf7_quiz', canonicalize(answer))];
    any = true;
  }
  return any ? { ...refill } : null;
}

function feedbackHandler(runtime: ContactFormsRuntime) {
  return async (request: ApiRequest): Promise<unknown> => {
    const contentType = headerValue(request.headers, 'content-type') ?? '';
    if (!contentType.startsWith('multipart/form-data')) throw contactFormErrors.unsupportedMediaType();
    const form = await findForm(request, urlId(request));
    if (!form) throw contactFormErrors.notFound();
    const unitTag = unitTagOf(request);
    if (!unitTag) throw contactFormErrors.unitTagNotFound();
    const limit = runtime.options.rateLimit ?? { max: 20, windowSeconds: 600 };
    if (limit) {
      const now = Math.floor(request.site.now() / 1000);
      const window = Math.max(1, Math.floor(limit.windowSeconds));
      const start = now - (now % window);
      const hits = await request.site.store.contactForms.countHit(rateLimitKey(clientIp(request, runtime.options)), start);
      if (hits > limit.max) {
        const retry = start + window - now;
        return errorWithHeaders(contactFormErrors.tooManyRequests(retry), [['Retry-After', String(retry)]]);
      }
    }
    const result = await submit(request, form, runtime, unitTag);
    const response: Record<string, unknown> = {};
    const { invalid_fields: invalid, submissionId: _stored, ...rest } = result;
    for (const [key, value] of Object.entries(rest)) {
      if (key === 'posted_data_hash' && invalid) response.invalid_fields = [];
      response[key] = value;
    }
    response.into = `#${unitTag}`;
    response.invalid_fields = [];
    if (invalid && invalid.size) {
      response.invalid_fields = [...invalid].map(([name, field]) => {
        const fieldName = name.replace(/\./g, '_');
        return { field: fieldName, message: field.reason, idref: field.idref, error_id: `${unitTag}-ve-${fieldName}` };
      });
    }
    const quiz = await quizRefill(request, form);
    if (quiz) response.quiz = quiz;
    return response;
  };
}

/** Contact Form 7's routes, in its registration order. No route declares args (the index shows `[]`). */
export function contactFormRoutes(runtime: ContactFormsRuntime): RouteDefinition[] {
  const id = '(?P<id>\\d+)';
  return [
    defineRoute('/contact-forms', [
      { methods: READABLE, permission: guard(READ_CAP, contactFormErrors.forbiddenList), handler: listForms },
      { methods: CREATABLE, permission: guard(WRITE_CAP, contactFormErrors.forbiddenCreate), handler: createForm },
    ]),
    defineRoute(`/contact-forms/${id}`, [
      {
        methods: READABLE,
        permission: guard(WRITE_CAP, contactFormErrors.forbiddenItem),
        handler: async (request) => {
          const form = await findForm(request, request.get('id'));
          if (!form) throw contactFormErrors.notFound();
          return serializeForm(form);
        },
      },
      { methods: EDITABLE, permission: guard(WRITE_CAP, contactFormErrors.forbiddenItem), handler: updateForm },
      {
        methods: DELETABLE,
        permission: guard(WRITE_CAP, contactFormErrors.forbiddenItem),
        handler: async (request) => {
          const form = await findForm(request, request.get('id'));
          if (!form) throw contactFormErrors.notFound();
          if (!(await deleteForm(request.site, runtime, form.id))) throw contactFormErrors.cannotDelete();
          request.forget(`contact-form:${form.id}`);
          return { deleted: true };
        },
      },
    ]),
    defineRoute(`/contact-forms/${id}/feedback`, [{ methods: CREATABLE, handler: feedbackHandler(runtime) }]),
    { ...defineRoute(`/contact-forms/${id}/feedback/schema`, [
      {
        methods: READABLE,
        handler: async (request) => {
          const form = await findForm(request, urlId(request));
          if (!form) throw contactFormErrors.notFound();
          const tags = scanFormTags(form.form);
          return formSchema(form, tags, await mailTagContext(request.site, form, tags), request.site.now());
        },
      },
    ]), schema: swvMetaSchema },
    defineRoute(`/contact-forms/${id}/refill`, [
      {
        methods: READABLE,
        handler: async (request) => {
          const form = await findForm(request, request.get('id'));
          if (!form) throw contactFormErrors.notFound();
          const quiz = await quizRefill(request, form);
          return quiz ? { quiz } : [];
        },
      },
    ]),
  ];
}

