/**
 * Remembers a pure function's recent answers, keyed by a string: at least the last `size` keys asked for, at most
 * twice as many. Rendering the same titles, descriptions and costs for every list request is otherwise most of a
 * request's time.
 *
 * Two generations instead of an exact least-recently-used order: a hit in the newer one changes nothing, a hit in
 * the older one copies the answer into the newer, and when the newer is full it becomes the older (the older is
 * dropped). Moving every hit to the end of one map (delete, then set) left a deleted slot per hit, and the map was
 * rebuilt every few thousand hits: tens of kilobytes of garbage that list requests paid for.
 *
 * The last call is also remembered by its arguments themselves: a call with the very same arguments (the same
 * strings and numbers, and objects the key reads only unchanging fields of, such as a time zone) gives its answer
 * without building and hashing the key — a list request asks the same date and URL helpers for the same values
 * several times over.
 */
export function memoize<A extends unknown[], R>(fn: (...args: A) => R, key: (...args: A) => string, size = 2000): (...args: A) => R {
  let newer = new Map<string, R>();
  let older = new Map<string, R>();
  let lastArgs: A | null = null;
  let lastValue: R | undefined;
  const keep = (k: string, value: R): void => {
    if (newer.size >= size) {
      older = newer;
      newer = new Map();
    }
    newer.set(k, value);
  };
  return (...args: A): R => {
    if (lastArgs !== null && sameArguments(lastArgs, args)) return lastValue as R;
    const k = key(...args);
    let value = newer.get(k);
    if (value === undefined && !newer.has(k)) {
      if (older.has(k)) value = older.get(k) as R;
      else value = fn(...args);
      keep(k, value as R);
    }
    lastArgs = args;
    lastValue = value;
    return value as R;
  };
}

function sameArguments(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
