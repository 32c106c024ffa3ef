import type { ApiRequest } from '../../../http/api-request.js';
import { isNumeric, intval } from '../../../http/php.js';
import { defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import { siteZone } from '../../../settings.js';
import type { LogFilter } from '../../../store/redirection.js';
import { allow, bulkItems, isGlobal, itemsArg, listArgs, logFilter, paging } from '../args.js';
import { CAPS, LOG_FILTERS, LOG_ORDERS, NOT_FOUND_FILTERS } from '../constants.js';
import { redirectionState } from '../state.js';
import { serializeLog } from './serialize.js';

type Kind = 'redirect' | '404';

function groupField(request: ApiRequest, kind: Kind): 'url' | 'ip' | 'agent' | null {
  const value = request.get('groupBy');
  if (value === 'ip' || value === 'url' || value === 'agent') return value;
  if (kind === '404' && value === 'url-exact') return 'url';
  return null;
}

async function logList(request: ApiRequest, kind: Kind): Promise<Record<string, unknown>> {
  await redirectionState(request);
  const repo = kind === 'redirect' ? request.site.store.redirection.redirectLog : request.site.store.redirection.notFoundLog;
  const { direction, offset, limit } = paging(request);
  const filter = logFilter(request, kind === '404');
  const field = groupField(request, kind);
  if (field) {
    const page = await repo.groups({ filter, field, direction, offset, limit });
    return { items: page.items.map((row) => ({ count: row.count, [field]: row.value, id: row.value })), total: page.total };
  }
  const orderby = request.get('orderby');
  const page = await repo.list({ filter, orderBy: orderby === 'url' || orderby === 'ip' ? orderby : 'id', direction, offset, limit });
  const settings = request.site.settings;
  const ctx = { dateFormat: settings.date_format, timeFormat: settings.time_format, zone: siteZone(settings) };
  return { items: page.items.map((row) => serializeLog(row, kind, ctx)), total: page.total };
}

async function bulkDelete(request: ApiRequest, kind: Kind): Promise<unknown> {
  await redirectionState(request);
  const repo = kind === 'redirect' ? request.site.store.redirection.redirectLog : request.site.store.redirection.notFoundLog;
  const items = bulkItems(request);
  if (items) {
    const ids = items.filter((item) => isNumeric(item)).map((item) => intval(item));
    const values = items.filter((item) => !isNumeric(item));
    if (ids.length) await repo.delete({ ids });
    const field = groupField(request, kind);
    if (values.length && field) await repo.delete({ fieldIn: { field, values } } satisfies LogFilter);
  } else if (isGlobal(request)) {
    await repo.delete(logFilter(request, kind === '404'));
  }
  return logList(request, kind);
}

export function logRoutes(): RouteDefinition[] {
  const logArgs = listArgs(LOG_FILTERS, LOG_ORDERS);
  const notFoundArgs = listArgs(NOT_FOUND_FILTERS, LOG_ORDERS);
  const items = itemsArg('Comma separated list of item IDs to perform action on');
  return [
    defineRoute('/log', [{ methods: READABLE, args: logArgs, permission: allow(CAPS.logManage), handler: (r) => logList(r, 'redirect') }]),
    defineRoute('/bulk/log/(?P<bulk>delete)', [
      { methods: EDITABLE, args: { ...logArgs, items }, permission: allow(CAPS.logDelete), handler: (r) => bulkDelete(r, 'redirect') },
    ]),
    defineRoute('/404', [{ methods: READABLE, args: notFoundArgs, permission: allow(CAPS.notFoundManage), handler: (r) => logList(r, '404') }]),
    defineRoute('/bulk/404/(?P<bulk>delete)', [
      { methods: EDITABLE, args: { ...notFoundArgs, items }, permission: allow(CAPS.notFoundDelete), handler: (r) => bulkDelete(r, '404') },
    ]),
  ];
}
