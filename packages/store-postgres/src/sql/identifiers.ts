/**
 * Identifiers cannot be bound as parameters. The only ones built from outside input are the schema and the
 * NOTIFY channel, so both are restricted to plain lower-case names and quoted anyway.
 */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertPlainName(name: string, what: string): string {
  if (!PLAIN_NAME.test(name)) {
    throw new Error(`${what} "${name}" must be a lower-case PostgreSQL name: letters, digits and "_", at most 63 characters.`);
  }
  return name;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A channel name (NOTIFY limits them to 63 bytes) derived from the schema, so stores on different schemas never hear each other. */
export function channelFor(schema: string): string {
  const name = `siterest_${schema}`;
  if (name.length <= 63) return name;
  let hash = 0x811c9dc5;
  for (const char of schema) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return `siterest_${schema.slice(0, 40)}_${hash.toString(16)}`;
}
