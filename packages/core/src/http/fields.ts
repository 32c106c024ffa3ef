import { parseList } from './php.js';

type FieldTree = { [key: string]: FieldTree | true };

/** WordPress rest_filter_response_fields: keep only the listed (dotted) fields, parents winning over children. */
export function filterFields(data: unknown, fieldsParam: unknown): unknown {
  const fields = parseList(fieldsParam).map((f) => String(f).trim()).filter(Boolean);
  if (!fields.length) return data;
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let node: FieldTree = tree;
    let skipped = false;
    while (parts.length > 1) {
      const next = parts.shift()!;
      if (node[next] === true) {
        skipped = true;
        break;
      }
      node[next] = (node[next] as FieldTree | undefined) ?? {};
      node = node[next] as FieldTree;
    }
    if (!skipped) node[parts.shift()!] = true;
  }
  if (Array.isArray(data)) return data.map((item) => intersect(item, tree));
  return intersect(data, tree);
}

function intersect(value: unknown, tree: FieldTree): unknown {
  if (value === null || typeof value !== 'object') return value;
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const kept = entries
    .filter(([key]) => key in tree)
    .map(([key, v]): [string, unknown] => {
      const sub = tree[key];
      return [key, sub !== true && v !== null && typeof v === 'object' ? intersect(v, sub!) : v];
    });
  if (Array.isArray(value)) return kept.every(([k], i) => k === String(i)) ? kept.map(([, v]) => v) : Object.fromEntries(kept);
  return Object.fromEntries(kept);
}

/** WordPress rest_is_field_included: a field counts when listed, when a child of it is, or when its parent is. */
export function isFieldIncluded(field: string, fields: readonly string[]): boolean {
  return fields.some((accepted) => accepted === field || accepted.startsWith(`${field}.`) || field.startsWith(`${accepted}.`));
}
