import type { NamespaceDefinition } from '../registry/types.js';
import { calendarNamespace } from './calendar/index.js';
import { contactFormsNamespace } from './contact-forms/index.js';
import { popupsNamespace } from './popups/index.js';
import { mediaNamespace } from './media/index.js';
import { thumbnailsNamespace } from './thumbnails/index.js';
import { oembedNamespace } from './oembed/index.js';
import { redirectionNamespace } from './redirection/index.js';
import { contentNamespace } from './content/index.js';
import { seoNamespace } from './seo/index.js';

/**
 * Every namespace siterest ships, in the order the root index lists them: WordPress's own oEmbed first, then the
 * plugins in WordPress's load order (their folder names: contact-form-7, popup-maker, redirection,
 * regenerate-thumbnails, the-events-calendar, wordpress-seo), then the theme's `rest/v1` (themes load after
 * plugins), then the core `wp/v2` routes siterest serves (WordPress registers them last, at priority 99).
 */
export function builtInNamespaces(): NamespaceDefinition[] {
  return [
    oembedNamespace(),
    contactFormsNamespace(),
    popupsNamespace(),
    redirectionNamespace(),
    thumbnailsNamespace(),
    calendarNamespace(),
    seoNamespace(),
    contentNamespace(),
    mediaNamespace(),
  ];
}

export {
  calendarNamespace,
  contactFormsNamespace,
  contentNamespace,
  mediaNamespace,
  oembedNamespace,
  popupsNamespace,
  redirectionNamespace,
  seoNamespace,
  thumbnailsNamespace,
};
