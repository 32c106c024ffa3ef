import { isPlainObject } from '../../http/php.js';
import type { StoredSourceFlags } from '../../store/redirection.js';
import { FLAG_QUERY_VALUES, type FlagQuery } from './constants.js';

/** A redirect's effective source flags (Red_Source_Flags), in the key order Redirection emits them. */
export interface SourceFlags {
  flag_query: FlagQuery;
  flag_case: boolean;
  flag_trailing: boolean;
  flag_regex: boolean;
}

export const CLASS_DEFAULT_FLAGS: Readonly<SourceFlags> = Object.freeze({ flag_query: 'exact', flag_case: false, flag_trailing: false, flag_regex: false });

/** Flags from client input: each one only when it has the right JSON type; the rest come from `base`. */
export function parseFlags(input: unknown, base: SourceFlags): SourceFlags {
  const flags: SourceFlags = { ...base };
  if (isPlainObject(input)) {
    const query = Object.hasOwn(input, 'flag_query') ? input.flag_query : undefined;
    if (typeof query === 'string' && (FLAG_QUERY_VALUES as readonly string[]).includes(query)) flags.flag_query = query as FlagQuery;
    for (const key of ['flag_case', 'flag_trailing', 'flag_regex'] as const) {
      const value = Object.hasOwn(input, key) ? input[key] : undefined;
      if (typeof value === 'boolean') flags[key] = value;
    }
  }
  if (flags.flag_regex) flags.flag_query = 'exact';
  return flags;
}

/** The flags a redirect stores: only those that differ from the site defaults, so it follows later changes of them. */
export function flagsWithoutDefaults(flags: SourceFlags, defaults: SourceFlags): StoredSourceFlags {
  const out: StoredSourceFlags = {};
  if (flags.flag_query !== defaults.flag_query) out.flag_query = flags.flag_query;
  if (flags.flag_case !== defaults.flag_case) out.flag_case = flags.flag_case;
  if (flags.flag_trailing !== defaults.flag_trailing) out.flag_trailing = flags.flag_trailing;
  if (flags.flag_regex !== defaults.flag_regex) out.flag_regex = flags.flag_regex;
  return out;
}

/** Stored overrides laid over the site defaults (and the regex column, as Redirection does). */
export function effectiveFlags(stored: StoredSourceFlags | undefined, defaults: SourceFlags, regex: boolean): SourceFlags {
  const flags = parseFlags({ ...defaults, flag_regex: regex, ...(stored ?? {}) }, CLASS_DEFAULT_FLAGS);
  return flags;
}
