import type { ApiRequest } from '../../../http/api-request.js';
import { intval } from '../../../http/php.js';
import { defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import type { ArgSpec } from '../../../args/spec.js';
import { allow, bulkItems, groupFilter, isGlobal, itemsArg, listArgs, paging } from '../args.js';
import { CAPS, GROUP_FILTERS, GROUP_ORDERS, LIMITS, MODULE_NAMES } from '../constants.js';
import { redirectionErrors } from '../errors.js';
import { redirectionState } from '../state.js';
import { stripTags } from '../url/source.js';
import { sanitizeTextField } from '../../../text/sanitize.js';
import { serializeGroup } from './serialize.js';

/** Red_Group::get_filtered: by name (descending) unless told otherwise. */
async function groupList(request: ApiRequest): Promise<Record<string, unknown>> {
  const { settings } = await redirectionState(request);
  const { direction, offset, limit } = paging(request);
  const repos = request.site.store.redirection;
  const page = await repos.groups.list({ filter: groupFilter(request), orderBy: request.get('orderby') === 'id' ? 'id' : 'name', direction, offset, limit });
  const counts = await repos.redirects.countByGroup();
  return { items: page.items.map((g) => serializeGroup(g, counts.get(g.id) ?? 0, g.id === settings.last_group_id)), total: page.total };
}

/** A group name: tags stripped, text sanitised, at most 50 characters. */
function groupName(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  return stripTags(sanitizeTextField(text)).trim().slice(0, LIMITS.groupName);
}

async function createGroup(request: ApiRequest): Promise<unknown> {
  const name = groupName(request.get('name'));
  const moduleId = intval(request.get('moduleId'));
  if (!name || !MODULE_NAMES[moduleId]) throw redirectionErrors.groupInvalid();
  await redirectionState(request);
  await request.site.store.redirection.groups.create({ name, moduleId, status: 'enabled', position: 0 });
  return groupList(request);
}

async function updateGroup(request: ApiRequest): Promise<unknown> {
  const repo = request.site.store.redirection.groups;
  const id = intval(request.get('id'));
  await redirectionState(request);
  const existing = await repo.get(id);
  const name = groupName(request.get('name'));
  if (!existing || !name) throw existing ? redirectionErrors.groupInvalid() : redirectionErrors.groupUnknown();
  const moduleId = intval(request.get('moduleId'));
  const updated = await repo.update(id, { name, ...(MODULE_NAMES[moduleId] ? { moduleId } : {}) });
  if (!updated) throw redirectionErrors.groupUnknown();
  await request.site.redirects.changed();
  const counts = await request.site.store.redirection.redirects.countByGroup();
  return { item: serializeGroup(updated, counts.get(id) ?? 0) };
}

async function bulkGroups(request: ApiRequest): Promise<unknown> {
  const action = String(request.get('bulk'));
  const repo = request.site.store.redirection.groups;
  const items = bulkItems(request);
  const filter = items ? { ids: items.map((item) => intval(item)) } : isGlobal(request) ? groupFilter(request) : null;
  if (filter) {
    try {
      if (action === 'delete') await repo.delete(filter);
      else await repo.setStatus(filter, action === 'enable' ? 'enabled' : 'disabled');
    } finally {
      await request.site.redirects.changed();
    }
  }
  return groupList(request);
}

export function groupRoutes(): RouteDefinition[] {
  const args = listArgs(GROUP_FILTERS, GROUP_ORDERS);
  const groupArgs: Record<string, ArgSpec> = {
    moduleId: { description: 'Module ID', type: 'integer', minimum: 0, maximum: 3, required: true },
    name: { description: 'Group name', type: 'string', required: true },
    status: { description: 'Status of the group' },
  };
  return [
    defineRoute('/group', [
      { methods: READABLE, args, permission: allow(CAPS.groupManage, CAPS.redirectManage), handler: groupList },
      { methods: EDITABLE, args: { ...args, ...groupArgs }, permission: allow(CAPS.groupAdd), handler: createGroup },
    ]),
    defineRoute('/group/(?P<id>[\\d]+)', [{ methods: EDITABLE, args: groupArgs, permission: allow(CAPS.groupAdd), handler: updateGroup }]),
    defineRoute('/bulk/group/(?P<bulk>delete|enable|disable)', [
      {
        methods: EDITABLE,
        args: { ...args, items: itemsArg('Comma separated list of item IDs to perform action on') },
        permission: (request) => (request.get('bulk') === 'delete' ? allow(CAPS.groupDelete)(request) : allow(CAPS.groupAdd)(request)),
        handler: bulkGroups,
      },
    ]),
  ];
}
