import type { ChangeScope } from '@siterest/core';
import { assertPlainName, quoteIdent } from './sql/identifiers.js';

/** Schema-qualified table names, so the store never depends on the connection's search_path. */
export interface Tables {
  readonly schema: string;
  readonly posts: string;
  readonly events: string;
  /** Event counts per status, hidden flag and UTC days of start and end (migration 012). */
  readonly eventDayCounts: string;
  /** Each event's list keys and lower-cased searched text (migration 014). */
  readonly eventSearch: string;
  /** The searches whose matches are counted by day, and their counts (migration 068). */
  readonly eventCountedSearches: string;
  readonly eventSearchCounts: string;
  readonly venues: string;
  readonly organizers: string;
  readonly terms: string;
  readonly termRelationships: string;
  readonly users: string;
  readonly applicationPasswords: string;
  readonly options: string;
  readonly contactForms: string;
  readonly contactFormSubmissions: string;
  readonly contactFormOutbox: string;
  readonly contactFormRateHits: string;
  readonly contactFormSecrets: string;
  readonly popups: string;
  readonly popupTotals: string;
  readonly content: string;
  readonly attachments: string;
  readonly oembedCache: string;
  readonly migrations: string;
  /** Tables migrations rewrote that are still to be vacuumed (migrate.ts). */
  readonly migrationVacuums: string;
  /** The sequences behind changeVersion(), one per change scope. */
  readonly changes: Readonly<Record<ChangeScope, string>>;
  readonly redirection: { groups: string; items: string; logs: string; notFound: string; settings: string };
}

/** siterest keeps its tables in a schema of its own, so they never meet an app's `users` or `options`. */
export const DEFAULT_SCHEMA = 'siterest';

export function tablesIn(schema: string): Tables {
  const s = quoteIdent(assertPlainName(schema, 'The schema name'));
  return {
    schema,
    posts: `${s}.posts`,
    events: `${s}.events`,
    eventDayCounts: `${s}.event_day_counts`,
    eventSearch: `${s}.event_search`,
    eventCountedSearches: `${s}.event_counted_searches`,
    eventSearchCounts: `${s}.event_search_counts`,
    venues: `${s}.venues`,
    organizers: `${s}.organizers`,
    terms: `${s}.terms`,
    termRelationships: `${s}.term_relationships`,
    users: `${s}.users`,
    applicationPasswords: `${s}.application_passwords`,
    options: `${s}.options`,
    contactForms: `${s}.contact_forms`,
    contactFormSubmissions: `${s}.contact_form_submissions`,
    contactFormOutbox: `${s}.contact_form_outbox`,
    contactFormRateHits: `${s}.contact_form_rate_hits`,
    contactFormSecrets: `${s}.contact_form_secrets`,
    popups: `${s}.popups`,
    popupTotals: `${s}.popup_totals`,
    content: `${s}.content`,
    attachments: `${s}.attachments`,
    oembedCache: `${s}.oembed_cache`,
    migrations: `${s}.siterest_migrations`,
    migrationVacuums: `${s}.siterest_migration_vacuums`,
    changes: {
      calendar: `${s}.siterest_changes_calendar`,
      options: `${s}.siterest_changes_options`,
      users: `${s}.siterest_changes_users`,
      application_passwords: `${s}.siterest_changes_application_passwords`,
    },
    redirection: { groups: `${s}.redirection_groups`, items: `${s}.redirection_items`, logs: `${s}.redirection_logs`, notFound: `${s}.redirection_404`, settings: `${s}.redirection_settings` },
  };
}
