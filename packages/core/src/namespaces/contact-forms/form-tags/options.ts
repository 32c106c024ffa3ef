import type { FormTag } from './scanner.js';

/*
 * WPCF7_FormTag's option readers. Options are short `name:value` words of the tag; every reader is a single
 * anchored match per option.
 */

const PRESETS: Record<string, string> = {
  date: '[0-9]{4}-[0-9]{2}-[0-9]{2}',
  int: '[0-9]+',
  signed_int: '-?[0-9]+',
  num: '(?:[0-9]+|[0-9]*[.][0-9]+)',
  signed_num: '-?(?:[0-9]+|[0-9]*[.][0-9]+)',
  class: '[-0-9a-zA-Z_]+',
  id: '[-0-9a-zA-Z_]+',
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function isRequired(tag: FormTag): boolean {
  return tag.type.endsWith('*');
}

/** `has_option`: the bare option, or the option with any value (`opt:value`). */
export function hasOption(tag: FormTag, name: string): boolean {
  const lower = name.toLowerCase();
  return tag.options.some((o) => {
    const l = o.toLowerCase();
    return l === lower || (l.startsWith(`${lower}:`) && l.length > lower.length + 1);
  });
}

/** `get_option( $opt, $pattern, true )`: the value of the first `opt:value` whose value matches, or null. */
export function optionValue(tag: FormTag, name: string, pattern = ''): string | null {
  return optionValues(tag, name, pattern)[0] ?? null;
}

/** `get_option( $opt, $pattern )`: every matching value. */
export function optionValues(tag: FormTag, name: string, pattern = ''): string[] {
  const re = new RegExp(`^${escapeRegex(name)}:${PRESETS[pattern] ?? (pattern || '.+')}$`, 'i');
  const out: string[] = [];
  for (const option of tag.options) if (re.test(option)) out.push(option.slice(name.length + 1));
  return out;
}

/** `get_id_option`. */
export function idOption(tag: FormTag): string | null {
  return optionValue(tag, 'id', 'id');
}

/** `get_maxlength_option`: `maxlength:N`, else the `/N` of a `40/100` or `40x10/100` option, else the default. */
export function maxlengthOption(tag: FormTag, fallback: string | null = null): string | null {
  const explicit = optionValue(tag, 'maxlength', 'int');
  if (explicit && explicit !== '0') return explicit;
  for (const option of tag.options) {
    const slash = option.lastIndexOf('/');
    if (slash === -1) continue;
    const head = option.slice(0, slash);
    const tail = option.slice(slash + 1);
    if (/^[0-9]+$/.test(tail) && /^[0-9]*x?[0-9]*$/.test(head)) return tail;
  }
  return fallback;
}

/** `get_minlength_option`. */
export function minlengthOption(tag: FormTag): string | null {
  const explicit = optionValue(tag, 'minlength', 'int');
  return explicit && explicit !== '0' ? explicit : null;
}

/** `get_limit_option`: a file size limit in bytes (`limit:2mb`), 1 MiB by default. */
export function limitOption(tag: FormTag, fallback = 1024 * 1024): number {
  for (const option of tag.options) {
    const m = /^limit:([1-9][0-9]{0,15})([kKmM]?[bB])?$/.exec(option);
    if (!m) continue;
    let size = Number(m[1]);
    const unit = (m[2] ?? '').toLowerCase();
    if (unit === 'kb') size *= 1024;
    else if (unit === 'mb') size *= 1024 * 1024;
    return size;
  }
  return fallback;
}
