/**
 * A value now, or a promise of it: what the steps of a request give. A step whose inputs are at hand (an anonymous
 * caller, a route's own arguments, the memory store's records) answers at once, so that a request runs to its
 * answer without an `async` function's promise and a turn of the microtask queue per step; only a step that
 * really waits (a database, an app's hook) hands on a promise, and the steps after it go on from there.
 */
export type Maybe<T> = T | PromiseLike<T>;

/** Whether a step handed on something to wait for (as `await` would wait for it: any thenable). */
export function isPending<T>(value: Maybe<T>): value is PromiseLike<T> {
  return value instanceof Promise || (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<T>).then === 'function');
}

/** `next` applied to the value, at once when it is at hand. A throw in `next` is thrown, or rejects what is handed on. */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return isPending(value) ? Promise.resolve(value).then(next) : next(value);
}

/**
 * `join` of two values, the second made after the first, at once when both are at hand. When making the second
 * throws, a first still pending is watched before the throw goes on: left alone, its rejection would go unhandled,
 * which ends a Node process.
 */
export function both<A, B, R>(first: Maybe<A>, makeSecond: () => Maybe<B>, join: (first: A, second: B) => R): Maybe<R> {
  let second: Maybe<B>;
  try {
    second = makeSecond();
  } catch (error) {
    if (isPending(first)) Promise.resolve(first).catch(ignore);
    throw error;
  }
  if (isPending(first) || isPending(second)) return Promise.all([first, second]).then((values) => join(values[0], values[1]));
  return join(first, second);
}

function ignore(): void {}
