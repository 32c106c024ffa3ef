/**
 * Remembers a pure function's recent answers, keyed by a string: at least the last `size` keys asked for, at most
 * twice as many. Rendering the same titles, descriptions and costs for every list request is otherwise most of a
 * request's time.
 *
 * Two generations instead of an exact least-recently-used order: a hit in the newer one changes nothing, a hit in
 * the older one copies the answer into the newer, and when the newer is full it becomes the older (the older is
 * dropped). Moving every hit to the end of one map (delete, then set) left a deleted slot per hit, and the map was
 * rebuilt every few thousand hits: tens of kilobytes of garbage that list requests paid for.
 */
export function memoize<A extends unknown[], R>(fn: (...args: A) => R, key: (...args: A) => string, size = 2000): (...args: A) => R {
  let newer = new Map<string, R>();
  let older = new Map<string, R>();
  const keep = (k: string, value: R): void => {
    if (newer.size >= size) {
      older = newer;
      newer = new Map();
    }
    newer.set(k, value);
  };
  return (...args: A): R => {
    const k = key(...args);
    const hit = newer.get(k);
    if (hit !== undefined || newer.has(k)) return hit as R;
    if (older.has(k)) {
      const value = older.get(k) as R;
      keep(k, value);
      return value;
    }
    const value = fn(...args);
    keep(k, value);
    return value;
  };
}
