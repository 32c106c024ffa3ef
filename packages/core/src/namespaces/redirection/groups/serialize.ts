import type { RedirectGroupRecord } from '../../../store/redirection.js';
import { MODULE_NAMES } from '../constants.js';

/** A group on the wire (Red_Group::to_json); the list marks the default group. */
export function serializeGroup(group: RedirectGroupRecord, redirects: number, isDefault = false): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: group.id,
    name: group.name,
    redirects,
    module_id: group.moduleId,
    moduleName: MODULE_NAMES[group.moduleId] ?? '',
    enabled: group.status === 'enabled',
  };
  if (isDefault) data.default = true;
  return data;
}
