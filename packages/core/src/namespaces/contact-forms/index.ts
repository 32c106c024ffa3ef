import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { runtimes } from './admin.js';
import { CONTACT_FORMS_NAMESPACE } from './constants.js';
import { contactFormRoutes } from './routes.js';
import { createRuntime, type ContactFormsOptions } from './runtime.js';

/**
 * `contact-forms/v1`: Contact Form 7's REST API (6.1, the ≥ 5.6 wire form) — forms, feedback with validation,
 * spam checks, uploads and mail, the validation schema and refill — in its registration order.
 */
export function contactFormsNamespace(options: ContactFormsOptions = {}): NamespaceDefinition {
  const runtime = createRuntime(options);
  const definition = defineNamespace({ namespace: CONTACT_FORMS_NAMESPACE, routes: contactFormRoutes(runtime) });
  runtimes.set(definition, runtime);
  return definition;
}

export { contactForms, type ContactFormsAdmin } from './admin.js';
export type { ContactFormsOptions, BeforeSendMailEvent, SpamCheckEvent } from './runtime.js';
export { memoryFileStorage } from './runtime.js';
export { scanFormTags, type FormTag } from './form-tags/scanner.js';
export { CONTACT_FORMS_NAMESPACE, CONTACT_FORM_TYPE } from './constants.js';
