import type { Logger } from '../../../site-context.js';
import type { NewRedirectLog, RedirectHits, RedirectionRepositories } from '../../../store/redirection.js';

/** Rows are written after this long, or at once when this many wait. */
const FLUSH_DELAY_MS = 50;
const FLUSH_SIZE = 500;
/** Failed writes are retried this often before they are given up (and logged). */
const ATTEMPTS = 5;
/** After a batch failed for good: hits kept for the next batch wait this long before it is tried. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/**
 * Log rows waiting for the write in progress, of each log. Rows come with requests, which do not stop while the
 * store cannot be reached: past this many (a few KB each), new rows are counted and dropped, so an outage or a
 * store slower than the traffic costs log rows, never the process's memory. Above what a healthy store leaves
 * waiting (a batch of 500 rows is written in milliseconds).
 */
export const MAX_WAITING_LOG_ROWS = 10_000;

/** What waits to be written (see `VisitRecorder.waiting`). */
export interface RecorderBacklog {
  /** Redirects whose hits wait (each redirect once, whatever its count). */
  hits: number;
  redirectLog: number;
  notFoundLog: number;
  /** Log rows dropped since the start because too many waited. */
  droppedLogRows: number;
}

/**
 * Hits and log rows are written after the response, in batches: one atomic increment statement for all hits of a
 * batch and one insert per log. One batch is written at a time; what comes meanwhile waits for the next one, so
 * the memory held is one batch and what waits, however slow the store is:
 * - hits are counters, merged per redirect (bounded by the redirects), and never dropped: a batch whose hits could
 *   not be stored after its retries gives them back to the next batch;
 * - log rows wait up to MAX_WAITING_LOG_ROWS per log; beyond that they are dropped and counted (logged once a
 *   batch). A batch's log rows that could not be stored after its retries are given up (and logged).
 * `flush()` (called by the API before it reads, and by `site.close()`) waits until everything queued so far has
 * been written or given up.
 */
export class VisitRecorder {
  private hits = new Map<number, RedirectHits>();
  private redirectRows: NewRedirectLog[] = [];
  private notFoundRows: NewRedirectLog[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** The batch chained after the one being written and not started yet: it takes all that waits when it starts. */
  private next: Promise<void> | null = null;
  private pending = 0;
  private dropped = 0;
  private droppedReported = 0;
  /** After `close()`: hits that could not be stored are given up rather than kept for a batch that never comes. */
  private closed = false;

  constructor(
    private readonly repositories: () => RedirectionRepositories,
    private readonly logger: Logger,
  ) {}

  hit(id: number, at: number): void {
    this.addHits(id, 1, at);
    this.queued();
  }

  redirectLog(row: NewRedirectLog): void {
    if (this.redirectRows.length >= MAX_WAITING_LOG_ROWS) return void this.dropped++;
    this.redirectRows.push(row);
    this.queued();
  }

  notFoundLog(row: NewRedirectLog): void {
    if (this.notFoundRows.length >= MAX_WAITING_LOG_ROWS) return void this.dropped++;
    this.notFoundRows.push(row);
    this.queued();
  }

  /** Writes what waits; hits that cannot be stored then are given up (and logged). */
  close(): Promise<void> {
    this.closed = true;
    return this.flush();
  }

  /** What waits for a batch now (the batch being written not counted): for monitoring and tests. */
  waiting(): RecorderBacklog {
    return { hits: this.hits.size, redirectLog: this.redirectRows.length, notFoundLog: this.notFoundRows.length, droppedLogRows: this.dropped };
  }

  private addHits(id: number, count: number, at: number): void {
    const entry = this.hits.get(id);
    if (entry) {
      entry.count += count;
      entry.at = Math.max(entry.at, at);
    } else this.hits.set(id, { id, count, at });
  }

  private queued(delayMs = FLUSH_DELAY_MS): void {
    this.pending++;
    if (this.pending >= FLUSH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), delayMs).unref();
  }

  /** Writes everything queued until now; resolves when it is stored (or given up after retries). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A batch not started yet takes everything queued so far when it starts.
    if (this.next) return this.next;
    if (this.pending === 0) return this.writing;
    // Batches are written one after the other, so a flush also waits for the batch before it.
    const next = this.writing.then(() => {
      this.next = null;
      return this.writeWaiting();
    });
    this.next = next;
    this.writing = next;
    return next;
  }

  private writeWaiting(): Promise<void> {
    const hits = [...this.hits.values()];
    const redirectRows = this.redirectRows;
    const notFoundRows = this.notFoundRows;
    this.hits = new Map();
    this.redirectRows = [];
    this.notFoundRows = [];
    this.pending = 0;
    if (this.dropped > this.droppedReported) {
      this.logger.warn('redirection: log rows dropped while earlier ones waited for the store', { dropped: this.dropped - this.droppedReported, waitingAtMost: MAX_WAITING_LOG_ROWS });
      this.droppedReported = this.dropped;
    }
    return this.write(hits, redirectRows, notFoundRows);
  }

  private async write(hits: RedirectHits[], redirectRows: NewRedirectLog[], notFoundRows: NewRedirectLog[]): Promise<void> {
    const repos = this.repositories();
    const steps: Array<[string, () => Promise<void>, () => void]> = [];
    const keepHits = () => {
      if (this.closed) return;
      for (const entry of hits) this.addHits(entry.id, entry.count, entry.at);
      this.queued(RETRY_AFTER_FAILURE_MS);
    };
    if (hits.length) steps.push(['hits', () => repos.redirects.recordHits(hits), keepHits]);
    if (redirectRows.length) steps.push(['redirect log', () => repos.redirectLog.insert(redirectRows), () => undefined]);
    if (notFoundRows.length) steps.push(['404 log', () => repos.notFoundLog.insert(notFoundRows), () => undefined]);
    for (const [name, step, failed] of steps) {
      for (let attempt = 1; ; attempt++) {
        try {
          await step();
          break;
        } catch (error) {
          if (attempt >= ATTEMPTS) {
            this.logger.error(`redirection: could not store the ${name}`, { error: String(error) });
            failed();
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        }
      }
    }
  }
}
