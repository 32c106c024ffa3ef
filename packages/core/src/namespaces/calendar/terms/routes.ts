import type { ArgSpec } from '../../../args/spec.js';
import type { ApiError } from '../../../http/api-error.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { respond } from '../../../http/api-response.js';
import { coreErrors } from '../../../http/errors.js';
import { allowedMethods } from '../../../http/allow.js';
import { intval, isEmpty, parseIdList } from '../../../http/php.js';
import { CREATABLE, defineRoute, DELETABLE, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import type { TermRecord } from '../../../store/records.js';
import { CALENDAR_NAMESPACE, EVENT_CAPS, MAX_PER_PAGE } from '../constants.js';
import { termRouteDocs } from '../doc/responses.js';
import { calendarErrors } from '../errors.js';
import { EVENTS } from '../events/kind.js';
import { canRead } from '../posts/access.js';
import { isEventId, isPositiveInt, isString, isTermOf, listToArray, findTerm } from '../validators.js';
import { nextPageUrl, phpUrlencode, previousPageUrl, withQuery, type QueryValue } from '../posts/rest-url.js';
import { serializeTerm, termLinks } from './serialize.js';
import { createTerm, slugPath, termQuery, updateTerm, type TermInput } from './service.js';
import type { TaxonomyConfig } from './taxonomies.js';

/** The term archive's query args (TEC's Term_Archive_Base supported_query_vars), in its order. */
const TERM_ARCHIVE_ARGS = ['per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'];

/** The archive URL with the archive args the client sent in the query string (as validated, URL-encoded), for paging links. */
function termPagingBase(base: string, sent: Record<string, unknown>): string {
  const args: Array<[string, QueryValue]> = [];
  for (const name of TERM_ARCHIVE_ARGS) {
    if (!Object.hasOwn(sent, name)) continue;
    const value = sent[name];
    if (typeof value === 'boolean') args.push([name, value ? '1' : '0']);
    else if (typeof value === 'string' || typeof value === 'number') args.push([name, phpUrlencode(String(value))]);
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
      args.push([name, value.map((item) => phpUrlencode(String(item)))]);
    }
  }
  return withQuery(base, args);
}

/** TEC's sanitize_per_page: at most 50 a page. */
export function sanitizePerPage(value: unknown): unknown {
  return isEmpty(value) ? false : Math.min(MAX_PER_PAGE, intval(value));
}

/** Term ids from a list of ids or slugs (the validators accept both). */
async function termIds(request: ApiRequest, tax: TaxonomyConfig, value: unknown): Promise<number[]> {
  const ids: number[] = [];
  for (const item of listToArray(value)) {
    const id = typeof item === 'number' ? item : await findTerm(request, tax.taxonomy, item);
    if (id !== null) ids.push(id);
  }
  return parseIdList(ids);
}

/** The event whose terms a list asks for (`event` wins over its alias `post`), if any. */
function objectIdOf(request: ApiRequest): number | undefined {
  if (request.has('event')) return intval(request.get('event'));
  return request.has('post') ? intval(request.get('post')) : undefined;
}

/**
 * WordPress's terms controller (get_items_permissions_check): the terms of a post are listed only for those
 * who may read the post. TEC's term archives skip that check and list a draft's terms to anyone.
 */
async function canListTerms(request: ApiRequest): Promise<true | ApiError> {
  const id = objectIdOf(request);
  if (id === undefined) return true;
  const event = await request.site.store.events.get(id);
  // The validator proved it exists; gone since then, it has no terms to show.
  if (!event || canRead(request, EVENTS, event)) return true;
  return calendarErrors.termsOfPostForbidden(request.authorizationStatus);
}

function canManageTerms(tax: TaxonomyConfig) {
  return (request: ApiRequest) => request.can(EVENT_CAPS.edit_posts) && request.can(tax.manageCap);
}

async function termWithContext(request: ApiRequest, term: TermRecord, links: boolean): Promise<Record<string, unknown>> {
  const data = serializeTerm(term, {
    apiRoot: request.apiRoot,
    settings: request.site.settings,
    slugPath: await slugPath(request.site.store, term),
  });
  if (links) {
    const itemRoute = request.site.registry.findRoute(`/${CALENDAR_NAMESPACE}/${term.taxonomy === 'post_tag' ? 'tags' : 'categories'}/${term.id}`);
    const allow = itemRoute ? await allowedMethods(itemRoute.route, request) : [];
    data._links = termLinks(term, request.apiRoot, allow);
  }
  return data;
}

function termInput(request: ApiRequest, tax: TaxonomyConfig): TermInput {
  const input: TermInput = {};
  if (request.has('name')) input.name = String(request.get('name'));
  if (request.has('description')) input.description = String(request.get('description'));
  if (request.has('slug')) input.slug = String(request.get('slug'));
  if (tax.hierarchical && request.has('parent')) input.parentId = intval(request.get('parent'));
  return input;
}

function checkParent(request: ApiRequest, tax: TaxonomyConfig): void {
  if (!request.has('parent')) return;
  if (!tax.hierarchical) throw calendarErrors.taxonomyNotHierarchical();
}

/** What a request naming a term that no longer exists gets: its id does not validate. */
const termGone = () => coreErrors.invalidParams({ id: 'Invalid parameter.' }, {});

async function loadTerm(request: ApiRequest, tax: TaxonomyConfig): Promise<TermRecord> {
  const term = await request.site.store.terms.get(intval(request.get('id')));
  // The id validator already proved it exists in the taxonomy; a concurrent delete lands here, and gets the answer
  // it gets one request later: the id no longer validates.
  if (!term || term.taxonomy !== tax.taxonomy) throw termGone();
  return term;
}

/** `/categories` and `/tags`, `/categories/(?P<id>\d+)` and `/tags/(?P<id>\d+)`. */
export function termRoutes(tax: TaxonomyConfig): RouteDefinition[] {
  const isTerm = isTermOf(tax.taxonomy);
  const listArgs: Record<string, ArgSpec> = {
    page: { default: 1, description: 'The archive page to return', type: 'integer', validate: isPositiveInt },
    per_page: {
      default: '10',
      defaultFrom: (site) => String(site.settings.posts_per_page || 20),
      description: `The number of ${tax.plural} to return on each page`,
      type: 'integer',
      validate: isPositiveInt,
      sanitize: sanitizePerPage,
    },
    search: { description: 'Limit results to those matching a string', type: 'string', validate: isString },
    exclude: { description: 'Ensure result set exclude specific IDs', items: { type: 'integer' }, validate: isTerm },
    include: { description: 'Limit result set to specific IDs', items: { type: 'integer' }, validate: isTerm },
    order: { description: 'Order sort attribute ascending or descending', type: 'string', validate: isString },
    orderby: { description: 'Sort collection by term attribute', type: 'string', validate: isString },
    hide_empty: { description: 'Whether to hide terms not assigned to any posts', type: 'boolean', default: '1' },
    ...(tax.hierarchical
      ? {
          parent: {
            description: 'Limit result set to terms assigned to a specific parent',
            type: 'integer',
            validate: isTerm,
          } satisfies ArgSpec,
        }
      : {}),
    post: { description: 'Limit result set to terms assigned to a specific post', type: 'integer', validate: isEventId },
    event: {
      description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
      type: 'integer',
      validate: isEventId,
    },
    slug: { description: 'Limit result set to terms with a specific slug', type: 'string', validate: isString },
  };
  const label = tax.singular;
  const createArgs: Record<string, ArgSpec> = {
    name: { type: 'string', description: `The ${label} name`, required: true, validate: isString },
    description: { type: 'string', description: `The ${label} description`, validate: isString },
    slug: { type: 'string', description: `The ${label} slug`, validate: isString },
    ...(tax.hierarchical
      ? { parent: { type: 'integer', description: `The ${label} slug`, validate: isTerm } satisfies ArgSpec }
      : {}),
  };
  const idArg: ArgSpec = { in: 'path', type: 'integer', description: `the ${label} term ID`, required: true, validate: isTerm };
  const editArgs: Record<string, ArgSpec> = { id: idArg };
  for (const [name, spec] of Object.entries(createArgs)) editArgs[name] = { ...spec, required: false };
  const manage = canManageTerms(tax);
  const docs = termRouteDocs(tax.restBase);

  const list = async (request: ApiRequest) => {
    const page = intval(request.get('page') ?? 1);
    const perPage = intval(request.get('per_page')) || intval(request.site.settings.posts_per_page) || 10;
    const objectId = objectIdOf(request);
    const query = termQuery(tax, {
      page,
      perPage,
      search: request.has('search') ? String(request.get('search')) : undefined,
      include: request.has('include') ? await termIds(request, tax, request.get('include')) : undefined,
      exclude: request.has('exclude') ? await termIds(request, tax, request.get('exclude')) : undefined,
      order: request.has('order') ? String(request.get('order')) : undefined,
      orderBy: request.has('orderby') ? String(request.get('orderby')) : undefined,
      hideEmpty: request.get('hide_empty') !== false,
      parentId: request.has('parent') ? (await termIds(request, tax, request.get('parent')))[0] : undefined,
      objectId,
      slug: request.has('slug') ? String(request.get('slug')) : undefined,
    });
    const { items, total } = await request.site.store.terms.list(query);
    const totalPages = Math.ceil(total / perPage);
    const base = request.restUrl(`${CALENDAR_NAMESPACE}/${tax.restBase}/`);
    const data: Record<string, unknown> = {
      rest_url: base,
      total,
      total_pages: totalPages,
      [tax.restBase]: await Promise.all(items.map((term) => termWithContext(request, term, false))),
    };
    // TEC builds these from the bare base, so following them drops per_page and every filter and pages through
    // another list; here they keep the filters the client sent (see docs/compatibility.md).
    const pagingBase = termPagingBase(base, request.queryParams());
    if (page < totalPages) data.next_rest_url = nextPageUrl(pagingBase, page);
    if (page > 1) data.previous_rest_url = previousPageUrl(pagingBase, page);
    return respond(data, 200, { 'X-TEC-Total': total, 'X-TEC-TotalPages': totalPages });
  };

  const create = async (request: ApiRequest) => {
    checkParent(request, tax);
    const term = await createTerm(request.site.store, tax, termInput(request, tax));
    return respond(await termWithContext(request, term, true), 201, {
      Location: request.restUrl(`wp/v2/${tax.wpRestBase}/${term.id}`),
    });
  };

  const read = async (request: ApiRequest) => termWithContext(request, await loadTerm(request, tax), true);

  const update = async (request: ApiRequest) => {
    checkParent(request, tax);
    const term = await updateTerm(request.site.store, tax, await loadTerm(request, tax), termInput(request, tax));
    return termWithContext(request, term, true);
  };

  const remove = async (request: ApiRequest) => {
    const term = await loadTerm(request, tax);
    const previous = await termWithContext(request, term, false);
    // A concurrent request deleted it first: only one delete succeeds.
    if (!(await request.site.store.terms.delete(term.id))) throw termGone();
    return previous;
  };

  return [
    defineRoute(`/${tax.restBase}`, [
      { methods: READABLE, args: listArgs, permission: canListTerms, handler: list, doc: docs.list.get },
      { methods: CREATABLE, args: createArgs, permission: manage, handler: create, doc: docs.list.post },
    ]),
    defineRoute(`/${tax.restBase}/(?P<id>\\d+)`, [
      { methods: READABLE, args: { id: idArg }, handler: read, doc: docs.item.get },
      { methods: EDITABLE, args: editArgs, permission: manage, handler: update, doc: docs.item.post },
      { methods: DELETABLE, args: { id: idArg }, permission: manage, handler: remove, doc: docs.item.delete },
    ]),
  ];
}
