import type { ApiRequest } from '../../../http/api-request.js';
import { intval, isPlainObject } from '../../../http/php.js';
import { defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import { isStoreError } from '../../../store/store-error.js';
import type { NewRedirect, RedirectRecord } from '../../../store/redirection.js';
import { EVENTS } from '../../calendar/events/kind.js';
import { permalink } from '../../calendar/posts/permalinks.js';
import { allow, bulkItems, isGlobal, itemsArg, listArgs, paging, redirectFilter, redirectOrder } from '../args.js';
import { CAPS, REDIRECT_FILTERS, REDIRECT_ORDERS } from '../constants.js';
import { redirectionErrors } from '../errors.js';
import { siteFlags } from '../settings.js';
import { redirectionState } from '../state.js';
import { sanitizeRedirect, type SanitizeContext } from './sanitize.js';
import { serializeRedirect } from './serialize.js';
import { ApiError } from '../../../http/api-error.js';

/** The body fields a redirect is made from (read through the request's parameter precedence, never the prototype). */
const REDIRECT_FIELDS = ['url', 'regex', 'match_data', 'match_type', 'action_type', 'action_code', 'action_data', 'group_id', 'title', 'position', 'hits', 'last_access', 'enabled', 'status'];

function redirectBody(request: ApiRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of REDIRECT_FIELDS) {
    const value = request.get(key);
    if (value !== undefined) body[key] = value;
  }
  return body;
}

async function sanitizeContext(request: ApiRequest): Promise<SanitizeContext> {
  const { settings } = await redirectionState(request);
  let serverName = '';
  try {
    serverName = new URL(request.site.settings.home).hostname;
  } catch {
    serverName = '';
  }
  return {
    siteFlags: siteFlags(settings),
    serverName: (request.header('host') ?? '').replace(/:\d+$/, '') || serverName,
    autoTarget: settings.auto_target,
    now: request.site.now(),
    groupExists: async (id) => id > 0 && (await request.site.store.redirection.groups.get(id)) !== null,
  };
}

/** Red_Item::get_filtered: the list a GET answers, and every write answers with. */
async function redirectList(request: ApiRequest): Promise<Record<string, unknown>> {
  const { wire } = await redirectionState(request);
  const { direction, offset, limit } = paging(request);
  const page = await request.site.store.redirection.redirects.list({ filter: redirectFilter(request), orderBy: redirectOrder(request), direction, offset, limit });
  return { items: page.items.map((r) => serializeRedirect(r, wire)), total: page.total };
}

function storeFailure(error: unknown, fallback: () => ApiError): never {
  if (isStoreError(error, 'not_found')) throw redirectionErrors.invalidGroup();
  if (error instanceof ApiError || isStoreError(error, 'unavailable')) throw error;
  throw fallback();
}

async function createRedirects(request: ApiRequest): Promise<unknown> {
  const body = redirectBody(request);
  if (body.url === undefined) return redirectList(request);
  const urls = Array.isArray(body.url) ? body.url.slice(0, 1000) : [body.url];
  const ctx = await sanitizeContext(request);
  const repo = request.site.store.redirection.redirects;
  try {
    for (const url of urls) {
      const sanitized = await sanitizeRedirect({ ...body, url }, ctx);
      if (sanitized instanceof ApiError) throw sanitized;
      const disabled = body.enabled === false || body.enabled === 'disabled' || body.status === 'disabled';
      const record: NewRedirect = { hits: 0, lastAccess: 0, ...sanitized.record, status: disabled ? 'disabled' : 'enabled' };
      try {
        await repo.create(record, { appendPosition: sanitized.appendPosition });
      } catch (error) {
        storeFailure(error, redirectionErrors.createFailed);
      }
    }
  } finally {
    await request.site.redirects.changed();
  }
  return redirectList(request);
}

/** Fields an update does not send keep their values (Redirection resets them; see compatibility.md). */
function currentFields(record: RedirectRecord, wire: Parameters<typeof serializeRedirect>[1]): Record<string, unknown> {
  const current = serializeRedirect(record, wire);
  delete current.hits;
  delete current.last_access;
  delete current.id;
  delete current.enabled;
  return current;
}

async function updateRedirect(request: ApiRequest): Promise<unknown> {
  const id = intval(request.get('id'));
  const repo = request.site.store.redirection.redirects;
  const existing = await repo.get(id);
  if (!existing) throw redirectionErrors.unknownRedirect();
  const { wire } = await redirectionState(request);
  const sent = redirectBody(request);
  const body = { ...currentFields(existing, wire), ...sent };
  if (!isPlainObject(sent.action_data)) delete body.action_data;
  const sanitized = await sanitizeRedirect(body, await sanitizeContext(request));
  if (sanitized instanceof ApiError) throw sanitized;
  const patch: Partial<NewRedirect> = { ...sanitized.record };
  if (!isPlainObject(sent.action_data) && !Array.isArray(sent.action_data)) delete patch.actionData;
  let updated: RedirectRecord | null;
  try {
    updated = await repo.update(id, patch);
  } catch (error) {
    storeFailure(error, redirectionErrors.updateFailed);
  }
  await request.site.redirects.changed();
  if (!updated) throw redirectionErrors.unknownRedirect();
  return { item: serializeRedirect(updated, wire) };
}

async function bulkRedirects(request: ApiRequest): Promise<unknown> {
  const action = String(request.get('bulk'));
  const repo = request.site.store.redirection.redirects;
  const apply = (filter: Parameters<typeof repo.delete>[0]) =>
    action === 'delete' ? repo.delete(filter) : action === 'reset' ? repo.resetHits(filter) : repo.setStatus(filter, action === 'enable' ? 'enabled' : 'disabled');
  const items = bulkItems(request);
  try {
    if (items) {
      for (const item of items) {
        const id = intval(item);
        if (!(await repo.get(id))) throw redirectionErrors.bulkFailed();
        await apply({ ids: [id] });
      }
    } else if (isGlobal(request)) {
      await apply(redirectFilter(request));
    }
  } finally {
    await request.site.redirects.changed();
  }
  return redirectList(request);
}

async function searchPosts(request: ApiRequest): Promise<unknown> {
  const text = String(request.get('text') ?? '').slice(0, 200);
  const page = await request.site.store.events.list({ statuses: ['publish'], search: text, orderBy: 'start', offset: 0, limit: 50 });
  return page.items.map((event) => {
    const link = permalink(event, EVENTS, request.site.settings);
    let value = link;
    try {
      value = new URL(link).pathname;
    } catch {
      // keep the link as it is
    }
    return { title: event.title, value };
  });
}

export function redirectRoutes(): RouteDefinition[] {
  const args = listArgs(REDIRECT_FILTERS, REDIRECT_ORDERS);
  return [
    defineRoute('/redirect', [
      { methods: READABLE, args, permission: allow(CAPS.redirectManage), handler: redirectList },
      { methods: EDITABLE, args, permission: allow(CAPS.redirectAdd), handler: createRedirects },
    ]),
    defineRoute('/redirect/(?P<id>[\\d]+)', [{ methods: EDITABLE, permission: allow(CAPS.redirectAdd), handler: updateRedirect }]),
    defineRoute('/redirect/post', [
      {
        methods: READABLE,
        args: { text: { description: 'Text to match', type: 'string', required: true } },
        permission: allow(CAPS.redirectManage),
        handler: searchPosts,
      },
    ]),
    defineRoute('/bulk/redirect/(?P<bulk>delete|enable|disable|reset)', [
      {
        methods: EDITABLE,
        args: {
          ...args,
          global: { description: 'Apply bulk action globally, as per filters', type: 'boolean' },
          items: itemsArg('Array of IDs to perform action on'),
        },
        permission: (request) => (request.get('bulk') === 'delete' ? allow(CAPS.redirectDelete)(request) : allow(CAPS.redirectAdd)(request)),
        handler: bulkRedirects,
      },
    ]),
  ];
}
