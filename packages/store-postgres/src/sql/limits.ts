import { StoreError } from '@siterest/core';

/**
 * How long the store lets anything take (milliseconds; 0 turns a limit off). Every statement, every wait for a
 * connection and every transaction is bounded, so one slow caller (or a database that stopped answering)
 * never holds a request, or the pool, for longer than these.
 */
export interface Timeouts {
  /** Longest a statement may run (PostgreSQL `statement_timeout`; node-postgres also gives up client-side a little later). */
  readonly statement: number;
  /** Longest wait for a connection: connecting, or queueing for a busy pool (or the PGlite database). */
  readonly connection: number;
  /** Longest a transaction may stay open, its own statements and the app's work between them included. */
  readonly transaction: number;
  /**
   * How often the connection that LISTENs for other instances' changes is asked whether it still answers (0: never).
   * A connection a firewall or NAT forgot fails no query, as it sends none: without asking, the instance would hear
   * nothing more, and keep what other instances changed, until the system's TCP keepalive gives up (minutes).
   */
  readonly listenerHeartbeat: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { statement: 5_000, connection: 5_000, transaction: 15_000, listenerHeartbeat: 30_000 };

/** Per transaction: migrations lift the statement and transaction limits (an index build on a big table may take minutes). */
export interface TransactionOptions {
  readonly statementTimeout?: number;
  readonly timeout?: number;
}

/** How much later than the server the client gives up on a statement: the server's clean error normally comes first. */
export const CLIENT_GRACE_MS = 1_000;

export function checkTimeout(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`postgresStore: ${name} must be a whole number of milliseconds (0 turns it off).`);
  return value;
}

/**
 * `promise`, or StoreError('unavailable') when it has not settled after `ms` (0: no limit). `onExpiry` runs when the
 * limit strikes (to give up what the slow work holds). The slow promise is left to settle on its own, never unhandled.
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string, onExpiry?: () => void): Promise<T> {
  if (!ms) return promise;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpiry?.();
      reject(new StoreError('unavailable', `The database did not answer: ${what} took longer than ${ms} ms.`));
    }, ms);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A queue for one exclusive resource (the PGlite database) whose waiters give up after a while: a waiter that
 * gave up is taken out of the queue, so the work it would have done never runs later behind the caller's back.
 */
export class TimedMutex {
  private held = false;
  private readonly waiters: Array<() => void> = [];

  /** Resolves to the release function once the resource is ours; rejects with StoreError('unavailable') after `ms`. */
  acquire(ms: number): Promise<() => void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const granted = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      this.waiters.push(granted);
      if (ms) {
        timer = setTimeout(() => {
          const at = this.waiters.indexOf(granted);
          if (at < 0) return;
          this.waiters.splice(at, 1);
          reject(new StoreError('unavailable', `The database is busy: no turn came within ${ms} ms.`));
        }, ms);
      }
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.held = false;
    };
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());
