import type { EventRecord } from '@siterest/core';

function before(a: EventRecord, start: string, id: number): boolean {
  return a.startDateUtc < start || (a.startDateUtc === start && a.id < id);
}

/**
 * Events kept ordered by UTC start then id, so a list query walks them in answer order from the first
 * possible start and stops after the last one, instead of sorting every event per request.
 */
export class EventStartIndex {
  /** Sorted; holds the current (frozen) record of each event. */
  readonly records: EventRecord[] = [];

  /** Position of the first record not before (start, id). */
  position(start: string, id: number): number {
    const records = this.records;
    let lo = 0;
    let hi = records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(records[mid]!, start, id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(event: EventRecord): void {
    this.records.splice(this.position(event.startDateUtc, event.id), 0, event);
  }

  remove(event: EventRecord): void {
    const at = this.position(event.startDateUtc, event.id);
    if (this.records[at]?.id === event.id) this.records.splice(at, 1);
  }

  /** Replaces a record whose start did not change. */
  replace(event: EventRecord): void {
    const at = this.position(event.startDateUtc, event.id);
    if (this.records[at]?.id === event.id) this.records[at] = event;
  }
}
