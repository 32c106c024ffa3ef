import qs from 'qs';

/**
 * Query strings and urlencoded bodies parsed as PHP does: `a[]=1&a[]=2` is a list, `v[city]=x` an object,
 * a repeated plain key keeps its last value.
 */
export function parseFormString(input: string): Record<string, unknown> {
  if (!input) return Object.create(null) as Record<string, unknown>;
  return qs.parse(input, {
    depth: 5,
    arrayLimit: 1000,
    parameterLimit: 5000,
    duplicates: 'last',
    allowPrototypes: false,
    plainObjects: true,
  }) as Record<string, unknown>;
}
