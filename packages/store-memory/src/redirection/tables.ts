import type { RedirectGroupRecord, RedirectLogRecord, RedirectRecord } from '@siterest/core';
import type { Counter } from '../db.js';
import { JournaledMap, type Journal } from '../journal.js';

/** Default bound of each log's rows in memory (see MemoryStoreOptions.redirectionLogBytes). */
const DEFAULT_LOG_BYTES = 32 * 1024 * 1024;

/** About what a log row holds in memory: its texts (one byte a character, as V8 keeps ASCII) and a fixed part. */
function rowBytes(row: RedirectLogRecord): number {
  const data = row.requestData === null ? 0 : JSON.stringify(row.requestData).length;
  return 200 + row.url.length + row.domain.length + row.ip.length + row.agent.length + (row.referrer?.length ?? 0) + row.requestMethod.length + row.sentTo.length + row.redirectBy.length + data;
}

/**
 * A log's rows, with the bytes they hold kept up to date through writes and their undo. Rows come in id order, so
 * the map's first key is the oldest row.
 */
export class LogRows extends JournaledMap<number, RedirectLogRecord> {
  bytes = 0;

  override set(key: number, value: RedirectLogRecord, journal: Journal | null): void {
    const before = this.map.get(key);
    this.adjust(rowBytes(value) - (before ? rowBytes(before) : 0), journal);
    super.set(key, value, journal);
  }

  override delete(key: number, journal: Journal | null): boolean {
    const row = this.map.get(key);
    if (!row) return false;
    this.adjust(-rowBytes(row), journal);
    return super.delete(key, journal);
  }

  private adjust(delta: number, journal: Journal | null): void {
    this.bytes += delta;
    journal?.record(() => {
      this.bytes -= delta;
    });
  }
}

/** Redirection's state in the memory store: its own maps and id sequences, beside the calendar's. */
export class RedirectionTables {
  readonly redirects = new JournaledMap<number, RedirectRecord>();
  readonly groups = new JournaledMap<number, RedirectGroupRecord>();
  readonly redirectLog = new LogRows();
  readonly notFoundLog = new LogRows();
  /** The plugin settings live under one key, null before installation. */
  readonly settings = new JournaledMap<'settings', Record<string, unknown>>();
  readonly nextRedirectId: Counter = { value: 1 };
  readonly nextGroupId: Counter = { value: 1 };
  readonly nextRedirectLogId: Counter = { value: 1 };
  readonly nextNotFoundLogId: Counter = { value: 1 };

  /** The most bytes each log's rows hold; past it the oldest rows go. */
  constructor(readonly logBytes = DEFAULT_LOG_BYTES) {}
}
