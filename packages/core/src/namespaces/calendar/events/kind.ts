import type { SiteSettings } from '../../../settings.js';
import { EVENT_CAPS, EVENT_TYPE } from '../constants.js';
import type { PostTypeConfig } from '../posts/types.js';

export const EVENTS: PostTypeConfig = {
  type: EVENT_TYPE,
  caps: EVENT_CAPS,
  permalinkBase: (settings: SiteSettings) => settings.single_event_slug,
};
