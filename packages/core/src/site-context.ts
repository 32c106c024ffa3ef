import type { MediaLibrary } from './media/library.js';
import type { OembedSettings } from './namespaces/oembed/proxy.js';
import type { RedirectEngine } from './namespaces/redirection/runtime/engine.js';
import type { Registry } from './registry/registry.js';
import type { SiteSettings } from './settings.js';
import type { FragmentCache } from './fragment-cache.js';
import type { ChangeScope } from './store/change-scopes.js';
import type { SiteStore } from './store/repositories.js';

export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  error: (message, details) => console.error(`[siterest] ${message}`, details ?? ''),
  warn: (message, details) => console.warn(`[siterest] ${message}`, details ?? ''),
  info: (message, details) => console.info(`[siterest] ${message}`, details ?? ''),
};

export const silentLogger: Logger = { error() {}, warn() {}, info() {} };

/**
 * The app's logger with every call guarded: a logger that throws (a closed stream, a full disk) must not take an
 * answer with it, nor turn background work that logs its own failure (redirect logs, mail, settings reloads) into
 * an unhandled rejection, which ends a Node process. Called as the app's own methods (`this` is its logger).
 */
export function guardedLogger(logger: Logger): Logger {
  const guarded = (level: keyof Logger) => (message: string, details?: Record<string, unknown>) => {
    try {
      logger[level](message, details);
    } catch {
      // Nothing more can be told.
    }
  };
  return { error: guarded('error'), warn: guarded('warn'), info: guarded('info') };
}

/** What handlers and services can reach of the site. */
export interface SiteContext {
  readonly store: SiteStore;
  readonly settings: SiteSettings;
  readonly registry: Registry;
  readonly logger: Logger;
  /** The site clock, epoch milliseconds. */
  now(): number;
  /**
   * Runs `compute` unless an answer for `keyParts` computed at the current change version of `scopes` is at hand
   * (list routes; see answer-cache.ts), and keeps what it gives. The key parts must name everything the answer
   * depends on besides the data of `scopes`, the caller's rights included (`callerKey`). `compute` is given the
   * change version it runs at when the cache has read it (read before any data, so data built from it is never
   * older than it claims; it may be newer, as a write can land between the two reads); `onVersion` learns the
   * version the answer belongs to.
   */
  cached<T>(keyParts: readonly unknown[], scopes: readonly ChangeScope[], compute: (version?: number) => Promise<T>, onVersion?: (version: number) => void): Promise<T>;
  /**
   * Whether `cached` keeps answers at all: when it does not (`cache: false`), callers skip building keys that
   * nothing would look up.
   */
  readonly keepsAnswers: boolean;
  /** Serialized records of list answers (see fragment-cache.ts); null when turned off. */
  readonly fragments: FragmentCache | null;
  /** Uploads, image sizes, regeneration, outbound fetches (see media/). */
  readonly media: MediaLibrary;
  /** The oEmbed proxy's providers and cache lifetime. */
  readonly oembed: OembedSettings;
  /** Redirection's front end: the redirect matcher, its settings and the hit and log recorder. */
  readonly redirects: RedirectEngine;
  /** Whether built-in application passwords are on, and the authorization page advertised for them. */
  readonly applicationPasswords: { enabled: boolean; authorizationUrl: string };
}
