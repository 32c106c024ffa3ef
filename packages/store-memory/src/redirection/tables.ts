import type { RedirectGroupRecord, RedirectLogRecord, RedirectRecord } from '@siterest/core';
import type { Counter } from '../db.js';
import { JournaledMap } from '../journal.js';

/** Redirection's state in the memory store: its own maps and id sequences, beside the calendar's. */
export class RedirectionTables {
  readonly redirects = new JournaledMap<number, RedirectRecord>();
  readonly groups = new JournaledMap<number, RedirectGroupRecord>();
  readonly redirectLog = new JournaledMap<number, RedirectLogRecord>();
  readonly notFoundLog = new JournaledMap<number, RedirectLogRecord>();
  /** The plugin settings live under one key, null before installation. */
  readonly settings = new JournaledMap<'settings', Record<string, unknown>>();
  readonly nextRedirectId: Counter = { value: 1 };
  readonly nextGroupId: Counter = { value: 1 };
  readonly nextRedirectLogId: Counter = { value: 1 };
  readonly nextNotFoundLogId: Counter = { value: 1 };
}
