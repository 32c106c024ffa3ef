/** What stores and apps need to know of the calendar's data model. */
export {
  CALENDAR_NAMESPACE,
  CATEGORY_TAXONOMY,
  EVENT_TYPE,
  ORGANIZER_TYPE,
  TAG_TAXONOMY,
  VENUE_TYPE,
} from './constants.js';
export { setPostPassword } from '../calendar-posts/password.js';
