import type { PostgresStore } from '../../src/index.js';

/** A node of PostgreSQL's EXPLAIN (ANALYZE, FORMAT JSON) plan, with the fields plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan. */
export function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The rows a plan read from `relation`: those its scans returned and those their filters dropped, over every loop. */
export function rowsRead(plan: PlanNode, relation: string): number {
  return nodesOf(plan)
    .filter((node) => node['Relation Name'] === relation)
    .reduce((sum, node) => sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1), 0);
}

/** What `work` returns, and the statements it ran on the store (text and values), in order. */
export async function withStatements<T>(store: PostgresStore, work: () => Promise<T>): Promise<{ result: T; statements: Array<[string, unknown[]]> }> {
  const sql = store.sql;
  const run = sql.query;
  const statements: Array<[string, unknown[]]> = [];
  sql.query = ((text: string, values?: unknown[], ...rest: unknown[]) => {
    statements.push([text, values ?? []]);
    return (run as (...args: unknown[]) => Promise<unknown>).call(sql, text, values, ...rest);
  }) as typeof sql.query;
  try {
    return { result: await work(), statements };
  } finally {
    sql.query = run;
  }
}

/** How PostgreSQL ran a statement: its plan, with actual rows. */
export async function explainAnalyze(store: PostgresStore, text: string, values: unknown[]): Promise<PlanNode> {
  const [row] = await store.sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
  return (row!['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
}
