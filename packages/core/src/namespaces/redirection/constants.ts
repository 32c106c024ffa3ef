/** `redirection/v1`: Redirection 5.4.2's REST API. */
export const REDIRECTION_NAMESPACE = 'redirection/v1';
export const PLUGIN_VERSION = '5.4.2';
/** The database schema version Redirection 5.4.2 reports. */
export const DATABASE_VERSION = '4.2';

export const MODULE_NAMES: Readonly<Record<number, string>> = Object.freeze({ 1: 'WordPress', 2: 'Apache', 3: 'Nginx' });

export const MATCH_TYPES = ['url', 'referrer', 'agent', 'login', 'header', 'custom', 'cookie', 'role', 'server', 'ip', 'page', 'language'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const ACTION_TYPES = ['url', 'error', 'nothing', 'random', 'pass'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const REDIRECT_CODES: readonly number[] = [301, 302, 303, 304, 307, 308];
export const ERROR_CODES: readonly number[] = [400, 401, 403, 404, 410, 418, 451, 500, 501, 502, 503, 504];

export const FLAG_QUERY_VALUES = ['exact', 'exactorder', 'ignore', 'pass'] as const;
export type FlagQuery = (typeof FLAG_QUERY_VALUES)[number];

/** Methods a log row may record (anything else is stored as ""). */
export const LOG_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];

/** Capabilities of Redirection; by default each of them maps to `manage_options`. */
export const CAPS = {
  redirectManage: 'redirection_cap_redirect_manage',
  redirectAdd: 'redirection_cap_redirect_add',
  redirectDelete: 'redirection_cap_redirect_delete',
  groupManage: 'redirection_cap_group_manage',
  groupAdd: 'redirection_cap_group_add',
  groupDelete: 'redirection_cap_group_delete',
  notFoundManage: 'redirection_cap_404_manage',
  notFoundDelete: 'redirection_cap_404_delete',
  logManage: 'redirection_cap_log_manage',
  logDelete: 'redirection_cap_log_delete',
  ioManage: 'redirection_cap_io_manage',
  optionManage: 'redirection_cap_option_manage',
  supportManage: 'redirection_cap_support_manage',
  siteManage: 'redirection_cap_site_manage',
} as const;

/** Per list route: the filterBy keys and orderby values it accepts (the empty string is always allowed). */
export const REDIRECT_FILTERS = ['status', 'url-match', 'match', 'action', 'http', 'access', 'url', 'target', 'title', 'group', 'id'];
export const REDIRECT_ORDERS = ['source', 'last_count', 'last_access', 'position', 'id', ''];
export const GROUP_FILTERS = ['status', 'module', 'name'];
export const GROUP_ORDERS = ['name', 'id', ''];
export const LOG_FILTERS = ['ip', 'url-exact', 'referrer', 'agent', 'url', 'target', 'domain', 'method', 'http', 'redirect_by'];
export const NOT_FOUND_FILTERS = ['ip', 'url-exact', 'referrer', 'agent', 'url', 'domain', 'method', 'http'];
export const LOG_ORDERS = ['url', 'ip', 'total', 'count', ''];

/** Sizes bounded before any work (compatibility.md lists where they are stricter than the plugin). */
export const LIMITS = {
  /** Longest source URL or target kept (the log keeps 2000 characters of a URL, as upstream). */
  url: 2000,
  title: 500,
  groupName: 50,
  /** Largest import file. */
  importBytes: 5 * 1024 * 1024,
  /** Most redirects one import creates. */
  importRows: 50_000,
  /** Most ids one bulk request names. */
  bulkItems: 10_000,
  /** Longest filter value. */
  filterValue: 500,
  /** Longest regex pattern compiled. */
  pattern: 2000,
  /**
   * Largest RE2 program a pattern may compile to (a rough count of its states). Real redirect patterns are
   * 20–60; at 150 the worst pattern costs a few milliseconds on the longest text tested (`url`).
   */
  programSize: 150,
} as const;
