import type { Logger } from '../../../site-context.js';
import type { NewRedirectLog, RedirectHits, RedirectionRepositories } from '../../../store/redirection.js';

/** Rows are written after this long, or at once when this many wait. */
const FLUSH_DELAY_MS = 50;
const FLUSH_SIZE = 500;
/** Failed writes are retried this often before they are given up (and logged). */
const ATTEMPTS = 5;

/**
 * Hits and log rows are written after the response, in batches: one atomic increment statement for all hits of a
 * batch and one insert per log. Nothing is dropped: a failed batch is retried, and `flush()` (called by the
 * API before it reads, and by `site.close()`) waits until everything queued so far is stored.
 */
export class VisitRecorder {
  private hits = new Map<number, RedirectHits>();
  private redirectRows: NewRedirectLog[] = [];
  private notFoundRows: NewRedirectLog[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly repositories: () => RedirectionRepositories,
    private readonly logger: Logger,
  ) {}

  hit(id: number, at: number): void {
    const entry = this.hits.get(id);
    if (entry) {
      entry.count++;
      entry.at = Math.max(entry.at, at);
    } else this.hits.set(id, { id, count: 1, at });
    this.queued();
  }

  redirectLog(row: NewRedirectLog): void {
    this.redirectRows.push(row);
    this.queued();
  }

  notFoundLog(row: NewRedirectLog): void {
    this.notFoundRows.push(row);
    this.queued();
  }

  private queued(): void {
    this.pending++;
    if (this.pending >= FLUSH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes everything queued until now; resolves when it is stored (or given up after retries). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === 0) return this.writing;
    const hits = [...this.hits.values()];
    const redirectRows = this.redirectRows;
    const notFoundRows = this.notFoundRows;
    this.hits = new Map();
    this.redirectRows = [];
    this.notFoundRows = [];
    this.pending = 0;
    // Batches are written one after the other, so a flush also waits for the batches before it.
    this.writing = this.writing.then(() => this.write(hits, redirectRows, notFoundRows));
    return this.writing;
  }

  private async write(hits: RedirectHits[], redirectRows: NewRedirectLog[], notFoundRows: NewRedirectLog[]): Promise<void> {
    const repos = this.repositories();
    const steps: Array<[string, () => Promise<void>]> = [];
    if (hits.length) steps.push(['hits', () => repos.redirects.recordHits(hits)]);
    if (redirectRows.length) steps.push(['redirect log', () => repos.redirectLog.insert(redirectRows)]);
    if (notFoundRows.length) steps.push(['404 log', () => repos.notFoundLog.insert(notFoundRows)]);
    for (const [name, step] of steps) {
      for (let attempt = 1; ; attempt++) {
        try {
          await step();
          break;
        } catch (error) {
          if (attempt >= ATTEMPTS) {
            this.logger.error(`redirection: could not store the ${name}`, { error: String(error) });
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        }
      }
    }
  }
}
