import type { NamespaceDefinition } from '../registry/types.js';
import { calendarNamespace } from './calendar/index.js';
import { redirectionNamespace } from './redirection/index.js';

/** Every namespace siterest ships, in the order the root index lists them. */
export function builtInNamespaces(): NamespaceDefinition[] {
  // WordPress registers Redirection's routes before The Events Calendar's.
  return [redirectionNamespace(), calendarNamespace()];
}

export { calendarNamespace, redirectionNamespace };
