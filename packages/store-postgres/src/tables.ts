import { assertPlainName, quoteIdent } from './sql/identifiers.js';

/** Schema-qualified table names, so the store never depends on the connection's search_path. */
export interface Tables {
  readonly schema: string;
  readonly posts: string;
  readonly events: string;
  readonly venues: string;
  readonly organizers: string;
  readonly terms: string;
  readonly termRelationships: string;
  readonly users: string;
  readonly applicationPasswords: string;
  readonly options: string;
  readonly migrations: string;
  /** The sequence behind changeVersion(). */
  readonly changes: string;
  readonly redirection: { groups: string; items: string; logs: string; notFound: string; settings: string };
}

export function tablesIn(schema: string): Tables {
  const s = quoteIdent(assertPlainName(schema, 'The schema name'));
  return {
    schema,
    posts: `${s}.posts`,
    events: `${s}.events`,
    venues: `${s}.venues`,
    organizers: `${s}.organizers`,
    terms: `${s}.terms`,
    termRelationships: `${s}.term_relationships`,
    users: `${s}.users`,
    applicationPasswords: `${s}.application_passwords`,
    options: `${s}.options`,
    migrations: `${s}.siterest_migrations`,
    changes: `${s}.siterest_changes`,
    redirection: { groups: `${s}.redirection_groups`, items: `${s}.redirection_items`, logs: `${s}.redirection_logs`, notFound: `${s}.redirection_404`, settings: `${s}.redirection_settings` },
  };
}
