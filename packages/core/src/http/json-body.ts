import type { ApiError } from './api-error.js';
import { coreErrors } from './errors.js';

/** PHP json_decode's default depth: at most 512 nested arrays and objects. */
const JSON_MAX_DEPTH = 512;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What PHP's json_decode refuses in a value JSON.parse accepted: nesting past 512 levels ("Maximum stack depth
 * exceeded") and `\uD800`-style escapes of a lone surrogate, in keys or strings ("Single unpaired UTF-16
 * surrogate in unicode escape"). Walked with a stack of its own, so no depth of input can overflow the call stack.
 */
export function jsonDecodeError(value: unknown): ApiError | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) return coreErrors.invalidJson('Single unpaired UTF-16 surrogate in unicode escape', 10);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= JSON_MAX_DEPTH) return coreErrors.invalidJson('Maximum stack depth exceeded', 1);
    if (Array.isArray(item)) {
      for (const element of item) stack.push([element, depth + 1]);
      continue;
    }
    for (const [key, element] of Object.entries(item)) {
      if (LONE_SURROGATE.test(key)) return coreErrors.invalidJson('Single unpaired UTF-16 surrogate in unicode escape', 10);
      stack.push([element, depth + 1]);
    }
  }
  return null;
}
