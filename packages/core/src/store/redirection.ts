import type { Page } from './records.js';

/*
 * What the Redirection plugin persists: redirects, their groups, the redirect log, the 404 log and the plugin's
 * settings. Every store keeps them apart from the calendar's tables, and writes here never advance the store's
 * change version (the calendar's list-answer cache does not depend on them).
 */

export type RedirectStatus = 'enabled' | 'disabled';

/** Source flags a redirect sets for itself; unset ones follow the site defaults (Redirection's inheritance). */
export interface StoredSourceFlags {
  flag_query?: 'exact' | 'exactorder' | 'ignore' | 'pass';
  flag_case?: boolean;
  flag_trailing?: boolean;
  flag_regex?: boolean;
}

export interface StoredMatchData {
  source?: StoredSourceFlags;
  options?: { log_exclude?: boolean };
}

export interface RedirectRecord {
  id: number;
  /** The source as stored: a path (with query) or, for regex redirects, the pattern. */
  url: string;
  /** The lookup key (`regex` for regex redirects). */
  matchUrl: string;
  matchData: StoredMatchData | null;
  regex: boolean;
  position: number;
  groupId: number;
  status: RedirectStatus;
  actionType: string;
  actionCode: number;
  /** The matcher's saved data (`{url}`, `{logged_in, logged_out}`, …), or null when nothing was saved. */
  actionData: Record<string, unknown> | null;
  matchType: string;
  /** null when none. */
  title: string | null;
  hits: number;
  /** Epoch milliseconds of the last hit; 0 = never. */
  lastAccess: number;
}

export type NewRedirect = Omit<RedirectRecord, 'id'>;

export interface RedirectGroupRecord {
  id: number;
  name: string;
  moduleId: number;
  status: RedirectStatus;
  position: number;
}

export type NewRedirectGroup = Omit<RedirectGroupRecord, 'id'>;

/** A row of the redirect log (`sentTo` and the redirect) or of the 404 log (without them). */
export interface RedirectLogRecord {
  id: number;
  /** Epoch milliseconds. */
  created: number;
  url: string;
  domain: string;
  ip: string;
  agent: string;
  referrer: string | null;
  httpCode: number;
  requestMethod: string;
  requestData: Record<string, unknown> | null;
  /** Redirect log only. */
  sentTo: string;
  redirectionId: number;
  redirectBy: string;
}

export type NewRedirectLog = Omit<RedirectLogRecord, 'id'>;

export type LogKind = 'redirect' | '404';

/** Filters of the redirect list (Redirection's Red_Item_Filters), all ANDed; absent = no condition. */
export interface RedirectFilter {
  ids?: readonly number[];
  status?: RedirectStatus;
  regex?: boolean;
  id?: number;
  groupId?: number;
  /** Only redirects of groups of this module (exports). */
  moduleId?: number;
  /** With moduleId: only enabled groups. */
  enabledGroups?: boolean;
  matchType?: string;
  actionType?: string;
  actionCode?: number;
  /** Last hit before this instant (epoch ms); never-hit redirects count as hit in 1970. */
  lastAccessBefore?: number;
  neverAccessed?: boolean;
  /** Case-insensitive substrings. */
  url?: string;
  title?: string;
  /** Substring of the saved action data (its JSON text). */
  target?: string;
}

export interface RedirectQuery {
  filter: RedirectFilter;
  orderBy: 'id' | 'url' | 'hits' | 'lastAccess' | 'position';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface GroupFilter {
  ids?: readonly number[];
  status?: RedirectStatus;
  moduleId?: number;
  name?: string;
}

export interface GroupQuery {
  filter: GroupFilter;
  orderBy: 'id' | 'name';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface LogFilter {
  ids?: readonly number[];
  /** Exact (normalised) IP, or a substring when `ipContains`. */
  ip?: string;
  ipContains?: string;
  urlExact?: string;
  url?: string;
  referrer?: string;
  agent?: string;
  domain?: string;
  target?: string;
  method?: string;
  httpCode?: number;
  redirectBy?: string;
  /** Rows whose `field` equals one of the values (bulk delete of grouped rows). */
  fieldIn?: { field: 'url' | 'ip' | 'agent'; values: readonly string[] };
}

export interface LogQuery {
  filter: LogFilter;
  orderBy: 'id' | 'url' | 'ip';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface LogGroupQuery {
  filter: LogFilter;
  field: 'url' | 'ip' | 'agent';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface LogGroupRow {
  value: string;
  count: number;
}

/** Hits of one redirect gathered since the last flush. */
export interface RedirectHits {
  id: number;
  count: number;
  /** Epoch ms of the latest of them. */
  at: number;
}

/** One file's worth of groups and redirects, stored together or not at all. */
export interface RedirectImportBatch {
  /** Groups to create; redirects refer to them by `ref`. */
  groups: Array<NewRedirectGroup & { ref: number }>;
  /** `groupRef` names a group of the batch; otherwise `groupId` must exist. `appendPosition` places it last in its group. */
  redirects: Array<NewRedirect & { groupRef?: number; appendPosition: boolean }>;
}

export interface RedirectRepository {
  get(id: number): Promise<RedirectRecord | null>;
  list(query: RedirectQuery): Promise<Page<RedirectRecord>>;
  /** Every redirect matching the filter (exports, the matcher), ordered by position then id. */
  all(filter: RedirectFilter): Promise<RedirectRecord[]>;
  /**
   * Creates one redirect. With `appendPosition` its position becomes the number of redirects already in its
   * group, counted atomically with the insert. Fails with a StoreError 'not_found' when the group is missing.
   */
  create(input: NewRedirect, options: { appendPosition: boolean }): Promise<RedirectRecord>;
  /** Replaces the editable fields (not status, hits or last access unless given); null when the id is unknown. */
  update(id: number, patch: Partial<NewRedirect>): Promise<RedirectRecord | null>;
  /** Ids of redirects matching the filter, affected; returns how many rows changed. */
  setStatus(filter: RedirectFilter, status: RedirectStatus): Promise<number>;
  resetHits(filter: RedirectFilter): Promise<number>;
  delete(filter: RedirectFilter): Promise<number>;
  /** Number of redirects per group id. */
  countByGroup(): Promise<Map<number, number>>;
  /** Atomic increments; unknown ids are skipped. */
  recordHits(hits: readonly RedirectHits[]): Promise<void>;
}

export interface RedirectGroupRepository {
  get(id: number): Promise<RedirectGroupRecord | null>;
  list(query: GroupQuery): Promise<Page<RedirectGroupRecord>>;
  /** Every group, by id. */
  all(): Promise<RedirectGroupRecord[]>;
  create(input: NewRedirectGroup): Promise<RedirectGroupRecord>;
  update(id: number, patch: Partial<NewRedirectGroup>): Promise<RedirectGroupRecord | null>;
  /** Sets the groups' status and the same status on all their redirects, atomically. */
  setStatus(filter: GroupFilter, status: RedirectStatus): Promise<number>;
  /** Deletes the groups and all their redirects, atomically. */
  delete(filter: GroupFilter): Promise<number>;
}

export interface RedirectLogRepository {
  insert(rows: readonly NewRedirectLog[]): Promise<void>;
  list(query: LogQuery): Promise<Page<RedirectLogRecord>>;
  groups(query: LogGroupQuery): Promise<Page<LogGroupRow>>;
  delete(filter: LogFilter): Promise<number>;
  /** Deletes rows created before the instant, at most `limit` of them; returns how many. */
  expire(before: number, limit: number): Promise<number>;
}

export interface RedirectionRepositories {
  readonly redirects: RedirectRepository;
  readonly groups: RedirectGroupRepository;
  /** The log of redirects made. */
  readonly redirectLog: RedirectLogRepository;
  /** The log of requests answered 404. */
  readonly notFoundLog: RedirectLogRepository;
  /** The plugin's settings object (`redirection_options`), or null before installation. */
  getSettings(): Promise<Record<string, unknown> | null>;
  setSettings(settings: Record<string, unknown>): Promise<void>;
  /**
   * First start of the plugin on this data: when no settings exist yet, creates the groups and saves the
   * settings `build` returns for their ids — once, even when several instances start together.
   */
  install(groups: readonly NewRedirectGroup[], build: (groupIds: number[]) => Record<string, unknown>): Promise<boolean>;
  /** Stores a whole import or nothing; returns the number of redirects created. */
  importBatch(batch: RedirectImportBatch): Promise<number>;
  /** Removes every group, redirect, log row and the settings (the plugin's own "delete"). */
  uninstall(): Promise<void>;
}
