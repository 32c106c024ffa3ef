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
