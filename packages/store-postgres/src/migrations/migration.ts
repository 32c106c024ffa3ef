/**
 * A versioned schema change. Statements are plain SQL with unqualified names: the runner sets the search_path
 * to the store's schema (and the extensions' schemas) for the migration's transaction.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Extensions the statements use; created once per database, in a shared schema, if missing. */
  readonly extensions: readonly string[];
  readonly statements: readonly string[];
  /**
   * Tables whose existing rows the statements fill or rewrite (a backfill): vacuumed and analysed once the migration
   * has committed. A rewritten row leaves its old version behind and clears the page's all-visible bit, so until a
   * vacuum every index-only scan of the table reads the table as well (a month's events list at a million events:
   * 1 s instead of 2 ms), and the planner's statistics do not know the new rows. Autovacuum gets there on its own
   * in time, where it is on.
   */
  readonly vacuums?: readonly string[];
}
