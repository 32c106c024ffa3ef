/** How long requests are served the value loaded last, after a failed load, before another load is tried. */
export const RELOAD_RETRY_MS = 1_000;

/**
 * What the redirect engine loads from the store and keeps until a change makes it forget it: the settings, the
 * compiled redirects. One load at a time; a load that ends after a forget() is not kept (it may predate the change).
 *
 * A forget() comes from a change (this instance's, or another's notice) and from the store's "resync" after its
 * listening connection was lost, which is most likely while the database is unreachable. Requests of the host app
 * that arrive then would find nothing to check against, and pass unredirected until the store is back. So for
 * them (`getOrLast`) a failed load serves the value loaded last: requests keep the redirects they had, and while
 * loads fail they do not wait for another one; a load is tried again in the background at most every
 * RELOAD_RETRY_MS, and its value is kept as soon as one succeeds. The REST API's reads (`get`) still fail, as the
 * store does.
 */
export class Reloadable<T> {
  /** The value loaded since the last forget(), for the callers that must not wait; null until there is one. */
  current: T | null = null;
  private loading: Promise<T> | null = null;
  private last: T | null = null;
  /** When the last load failed (Date.now()), or null when it succeeded. */
  private failedAt: number | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly events: {
      /** A value was loaded and kept. */
      loaded?(value: T): void;
      /** Loads started failing while a value loaded before is at hand: requests are served it. */
      servingLast(error: unknown): void;
      /** A load succeeded after failures. */
      recovered(): void;
    },
  ) {}

  forget(): void {
    this.current = null;
    this.loading = null;
  }

  /** Forgets the value loaded last as well (the plugin's data deleted): nothing is served from before. */
  clear(): void {
    this.forget();
    this.last = null;
    this.failedAt = null;
  }

  /** The value, loaded if it is not kept; rejects when the load fails. */
  get(): Promise<T> {
    return this.current !== null ? Promise.resolve(this.current) : this.start();
  }

  /** The value for a request of the host app: as get(), but while loads fail, the value loaded last (if any). */
  getOrLast(): Promise<T> {
    if (this.current !== null) return Promise.resolve(this.current);
    const last = this.last;
    if (this.failedAt !== null && last !== null) {
      if (this.loading === null && Date.now() - this.failedAt >= RELOAD_RETRY_MS) this.start().catch(ignore);
      return Promise.resolve(last);
    }
    return this.start().catch((error: unknown) => {
      if (last === null) throw error;
      return last;
    });
  }

  private start(): Promise<T> {
    if (this.loading) return this.loading;
    const loading: Promise<T> = this.load().then(
      (value) => {
        if (this.loading !== loading) return value;
        this.current = value;
        this.last = value;
        this.events.loaded?.(value);
        if (this.failedAt !== null) {
          this.failedAt = null;
          this.events.recovered();
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading === loading) this.loading = null;
        if (this.failedAt === null && this.last !== null) this.events.servingLast(error);
        this.failedAt = Date.now();
        throw error;
      },
    );
    this.loading = loading;
    return loading;
  }
}

function ignore(): void {}
