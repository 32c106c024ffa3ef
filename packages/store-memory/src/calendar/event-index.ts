import type { EventRecord } from '@siterest/core';

function before(a: EventRecord, start: string, id: number): boolean {
  return a.startDateUtc < start || (a.startDateUtc === start && a.id < id);
}

/** Position of the first record of `records` (ordered by start, then id) not before (start, id). */
function positionIn(records: readonly EventRecord[], start: string, id: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(records[mid]!, start, id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function endsBeforeStart(event: EventRecord): boolean {
  return event.endDateUtc < event.startDateUtc;
}

/** Puts `event` in its place in `records`, or takes it out (by its start and id, which did not change). */
function place(records: EventRecord[], event: EventRecord, kept: boolean): void {
  const at = positionIn(records, event.startDateUtc, event.id);
  const present = records[at]?.id === event.id;
  if (kept && present) records[at] = event;
  else if (kept) records.splice(at, 0, event);
  else if (present) records.splice(at, 1);
}

/**
 * Events kept ordered by UTC start then id, so a list query walks them in answer order from the first
 * possible start and stops after the last one, instead of sorting every event per request. An event starts by its
 * end, so an end bound bounds the walk too, except for events that end before they start (written so through the
 * store; the API makes such an end the start): those are also kept apart, in the same order, for the list to read
 * after its walk.
 */
export class EventStartIndex {
  /** Sorted; holds the current (frozen) record of each event. */
  readonly records: EventRecord[] = [];
  /** The records of events that end before they start, sorted the same way. */
  readonly endingBeforeStart: EventRecord[] = [];

  /** Position of the first record not before (start, id). */
  position(start: string, id: number): number {
    return positionIn(this.records, start, id);
  }

  /** Position of the first event ending before it starts that starts after `start`. */
  endingBeforeStartAfter(start: string): number {
    return positionIn(this.endingBeforeStart, start, Infinity);
  }

  add(event: EventRecord): void {
    place(this.records, event, true);
    if (endsBeforeStart(event)) place(this.endingBeforeStart, event, true);
  }

  remove(event: EventRecord): void {
    place(this.records, event, false);
    place(this.endingBeforeStart, event, false);
  }

  /** Replaces a record whose start did not change (its end may have). */
  replace(event: EventRecord): void {
    const at = this.position(event.startDateUtc, event.id);
    if (this.records[at]?.id === event.id) this.records[at] = event;
    place(this.endingBeforeStart, event, endsBeforeStart(event));
  }
}
