import type { ChangeScope } from '../../store/change-scopes.js';

/** What the calendar's list answers are computed from: its records, and the site's settings (formats, zone). */
export const CALENDAR_ANSWER_SCOPES: readonly ChangeScope[] = ['calendar', 'options'];
