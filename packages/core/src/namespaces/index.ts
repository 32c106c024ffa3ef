import type { NamespaceDefinition } from '../registry/types.js';
import { calendarNamespace } from './calendar/index.js';
import { contactFormsNamespace } from './contact-forms/index.js';
import { popupsNamespace } from './popups/index.js';

/** Every namespace siterest ships, in the order the root index lists them. */
export function builtInNamespaces(): NamespaceDefinition[] {
  return [
    calendarNamespace(),
    contactFormsNamespace(),
    popupsNamespace(),
  ];
}

export { calendarNamespace, contactFormsNamespace, popupsNamespace };
