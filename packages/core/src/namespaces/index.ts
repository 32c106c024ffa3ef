import type { NamespaceDefinition } from '../registry/types.js';
import { calendarNamespace } from './calendar/index.js';
import { mediaNamespace } from './media/index.js';
import { thumbnailsNamespace } from './thumbnails/index.js';
import { oembedNamespace } from './oembed/index.js';

/** Every namespace siterest ships, in the order the root index lists them. */
export function builtInNamespaces(): NamespaceDefinition[] {
  return [oembedNamespace(), calendarNamespace(), thumbnailsNamespace(), mediaNamespace()];
}

export { calendarNamespace, mediaNamespace, oembedNamespace, thumbnailsNamespace };
