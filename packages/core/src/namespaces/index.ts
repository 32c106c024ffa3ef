import type { NamespaceDefinition } from '../registry/types.js';
import { calendarNamespace } from './calendar/index.js';
import { contactFormsNamespace } from './contact-forms/index.js';
import { popupsNamespace } from './popups/index.js';
import { mediaNamespace } from './media/index.js';
import { thumbnailsNamespace } from './thumbnails/index.js';
import { oembedNamespace } from './oembed/index.js';
import { redirectionNamespace } from './redirection/index.js';

/**
 * Every namespace siterest ships, in the order the root index lists them: WordPress's own oEmbed first, then the
 * plugins in WordPress's load order (their folder names: contact-form-7, popup-maker, regenerate-thumbnails,
 * the-events-calendar), then the core `wp/v2` routes siterest serves.
 */
export function builtInNamespaces(): NamespaceDefinition[] {
  return [
    oembedNamespace(),
    contactFormsNamespace(),
    popupsNamespace(),
    redirectionNamespace(),
    thumbnailsNamespace(),
    calendarNamespace(),
    mediaNamespace(),
  ];
}

export { calendarNamespace, contactFormsNamespace, mediaNamespace, oembedNamespace, popupsNamespace, redirectionNamespace, thumbnailsNamespace };
