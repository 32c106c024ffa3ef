import { parseList, strval } from './php.js';

/**
 * The requested fields as a tree. A Map, not an object: field names are the caller's (`__proto__`,
 * `constructor.prototype.x`), so they must never become property names walked through a prototype chain.
 */
type FieldTree = Map<string, FieldTree | true>;

/** WordPress rest_filter_response_fields: keep only the listed (dotted) fields, parents winning over children. */
export function filterFields(data: unknown, fieldsParam: unknown): unknown {
  const fields = parseList(fieldsParam).map((f) => strval(f).trim()).filter(Boolean);
  if (!fields.length) return data;
  const tree: FieldTree = new Map();
  for (const field of fields) {
    const parts = field.split('.');
    const leaf = parts.pop()!;
    let node: FieldTree | null = tree;
    for (const part of parts) {
      const next: FieldTree | true | undefined = node.get(part);
      if (next === true) {
        node = null;
        break;
      }
      if (next === undefined) {
        const child: FieldTree = new Map();
        node.set(part, child);
        node = child;
      } else node = next;
    }
    if (node) node.set(leaf, true);
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
    .filter(([key]) => tree.has(key))
    .map(([key, v]): [string, unknown] => {
      const sub = tree.get(key)!;
      return [key, sub !== true && v !== null && typeof v === 'object' ? intersect(v, sub) : v];
    });
  // Object.fromEntries defines own properties, so even a field named `__proto__` stays a plain key.
  if (Array.isArray(value)) return kept.every(([k], i) => k === String(i)) ? kept.map(([, v]) => v) : Object.fromEntries(kept);
  return Object.fromEntries(kept);
}

/** WordPress rest_is_field_included: a field counts when listed, when a child of it is, or when its parent is. */
export function isFieldIncluded(field: string, fields: readonly string[]): boolean {
  return fields.some((accepted) => accepted === field || accepted.startsWith(`${field}.`) || field.startsWith(`${accepted}.`));
}
