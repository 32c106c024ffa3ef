/**
 * Remembers a pure function's recent answers, keyed by a string, least recently used first out. Rendering the
 * same titles, descriptions and costs for every list request is otherwise most of a request's time.
 */
export function memoize<A extends unknown[], R>(fn: (...args: A) => R, key: (...args: A) => string, size = 2000): (...args: A) => R {
  const cache = new Map<string, R>();
  return (...args: A): R => {
    const k = key(...args);
    const hit = cache.get(k);
    if (hit !== undefined || cache.has(k)) {
      cache.delete(k);
      cache.set(k, hit as R);
      return hit as R;
    }
    const value = fn(...args);
    cache.set(k, value);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
    return value;
  };
}
