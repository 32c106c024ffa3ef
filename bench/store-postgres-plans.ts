/** Reading EXPLAIN (FORMAT JSON): which scans a plan uses, and whether a big table is read sequentially. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

export interface PlanSummary {
  /** Scans in plan order, e.g. "Index Only Scan events_status_start". */
  scans: string[];
  /** Big tables read with a sequential scan (what the benchmark must not see). */
  seqScans: string[];
}

const ABBREVIATIONS: Record<string, string> = {
  'Index Only Scan': 'IOS',
  'Index Scan': 'IS',
  'Index Scan Backward': 'IS↓',
  'Bitmap Index Scan': 'BIS',
  'Seq Scan': 'SEQ',
};

export function summarizePlan(plan: PlanNode, bigTables: readonly string[]): PlanSummary {
  const scans: string[] = [];
  const seqScans: string[] = [];
  const walk = (node: PlanNode) => {
    const type = node['Node Type'];
    if (type === 'Seq Scan' && node['Relation Name']) {
      scans.push(`SEQ ${node['Relation Name']}`);
      if (bigTables.includes(node['Relation Name'])) seqScans.push(node['Relation Name']);
    } else if (node['Index Name'] && ABBREVIATIONS[type]) {
      scans.push(`${ABBREVIATIONS[type]} ${node['Index Name']}`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return { scans: [...new Set(scans)], seqScans: [...new Set(seqScans)] };
}

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  return sortedMs[Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1))]!;
}
