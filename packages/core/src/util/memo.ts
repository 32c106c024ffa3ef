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
 * The last few calls are also remembered by their arguments themselves: a call with the very same arguments (the
 * same strings and numbers, and objects the key reads only unchanging fields of, such as a time zone) gives its
 * answer without building and hashing the key — a list request asks the same date and URL helpers for the same
 * values (a window's start, then its end) several times over. Such a hit still counts as asking for its key: after
 * the generations have turned, it puts the key back into the newer one.
 *
 * A key longer than `maxKeyChars` is not remembered (its answer is worked out each time): where keys come from
 * requests, a few thousand kept keys of megabytes each would hold gigabytes. A generation also turns once its keys
 * and text answers add up to `maxChars` characters, so texts of any size are remembered within a bound.
 */
export function memoize<A extends unknown[], R>(
  fn: (...args: A) => R,
  key: (...args: A) => string,
  size = 2000,
  maxKeyChars = Infinity,
  maxChars = Infinity,
): (...args: A) => R {
  let newer = new Map<string, R>();
  let older = new Map<string, R>();
  /** Characters of the newer generation's keys and text answers. */
  let newerChars = 0;
  /** How often the newer generation has become the older one. */
  let generation = 0;
  const recent: Array<Recent<A, R> | null> = [null, null, null, null];
  let next = 0;
  const keep = (k: string, value: R): void => {
    const chars = k.length + (typeof value === 'string' ? value.length : 0);
    if (newer.size >= size || newerChars + chars > maxChars) {
      older = newer;
      newer = new Map();
      newerChars = 0;
      generation++;
    }
    newer.set(k, value);
    newerChars += chars;
  };
  return (...args: A): R => {
    for (let i = 0; i < RECENT; i++) {
      const call = recent[i];
      if (call && sameArguments(call.args, args)) {
        if (call.generation !== generation) {
          if (!newer.has(call.key)) keep(call.key, call.value);
          call.generation = generation;
        }
        return call.value;
      }
    }
    const k = key(...args);
    if (k.length > maxKeyChars) return fn(...args);
    let value = newer.get(k);
    if (value === undefined && !newer.has(k)) {
      if (older.has(k)) value = older.get(k) as R;
      else value = fn(...args);
      keep(k, value as R);
    }
    recent[next] = { args, key: k, value: value as R, generation };
    next = (next + 1) % RECENT;
    return value as R;
  };
}

interface Recent<A, R> {
  args: A;
  key: string;
  value: R;
  /** The generation in which the key was last known to be in the newer map. */
  generation: number;
}

/** How many calls are remembered by their arguments. */
const RECENT = 4;

function sameArguments(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
