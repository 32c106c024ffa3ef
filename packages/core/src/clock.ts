/** The site's clock in epoch milliseconds. Everything time-dependent (default windows, dates) reads it. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** A clock that starts at `iso` and then runs on in real time (reproducible demos and tests). */
export function clockStartingAt(iso: string): Clock {
  const start = Date.parse(iso);
  if (Number.isNaN(start)) throw new Error(`Not an ISO 8601 instant: ${iso}`);
  const offset = start - Date.now();
  return () => Date.now() + offset;
}

/** A clock that stands still until `set` moves it. */
export interface ManualClock extends Clock {
  set(iso: string | number): void;
  advance(ms: number): void;
}

export function manualClock(iso: string | number): ManualClock {
  let now = typeof iso === 'number' ? iso : Date.parse(iso);
  const clock = (() => now) as ManualClock;
  clock.set = (value) => {
    now = typeof value === 'number' ? value : Date.parse(value);
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}
