/**
 * The parts of the data a cached answer can depend on. Each has its own change version, so a write to one
 * (an application password's use stamp, a user's profile) leaves the answers that depend only on others cached.
 * `calendar` is events, venues, organizers, terms and the attachment fields an event shows: one scope, because
 * one calendar write often changes several of them (an event's terms and their counts).
 */
export const CHANGE_SCOPES = ['calendar', 'options', 'users', 'application_passwords'] as const;

export type ChangeScope = (typeof CHANGE_SCOPES)[number];
