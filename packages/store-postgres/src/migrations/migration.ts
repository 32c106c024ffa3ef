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
}
