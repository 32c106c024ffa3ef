import type { PostRecord } from './records.js';
import type { StatusFilter } from './queries.js';

/** A popup (Popup Maker's `popup` post type) and its open counters. */
export interface PopupFields {
  /** Opens since the count was last reset (`popup_open_count`). */
  openCount: number;
  /** Opens ever (`popup_open_count_total`). */
  openCountTotal: number;
  /** Site-local Unix timestamp of the last open (`popup_last_opened`), 0 if never. */
  lastOpened: number;
}

export type PopupRecord = PostRecord & PopupFields;
export type NewPopup = Omit<PostRecord, 'id'> & Partial<PopupFields>;
export type PopupPatch = Partial<Omit<PostRecord, 'id' | 'type'>>;

export interface PopupCounts extends PopupFields {
  id: number;
}

export interface PopupRepository {
  get(id: number): Promise<PopupRecord | null>;
  /** Newest first. */
  list(query: { statuses: StatusFilter; offset: number; limit: number }): Promise<{ items: PopupRecord[]; total: number }>;
  create(input: NewPopup): Promise<PopupRecord>;
  update(id: number, patch: PopupPatch): Promise<PopupRecord | null>;
  delete(id: number): Promise<boolean>;
  /**
   * Counts an open of a popup that exists and is not trashed: both counters grow by one and the last-opened
   * time is set, in one atomic step (never read-modify-write). Returns the new counts, or null for no such popup.
   */
  recordOpen(id: number, localTimestamp: number): Promise<PopupCounts | null>;
  /** Sets `openCount` back to 0 (the total stays). */
  resetCount(id: number): Promise<PopupCounts | null>;
  /** Opens of all popups ever (`pum_total_open_count`). */
  totalOpens(): Promise<number>;
}
