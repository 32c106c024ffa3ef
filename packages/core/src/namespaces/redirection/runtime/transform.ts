import { createHash } from 'node:crypto';
import type { Principal } from '../../../auth/principal.js';

/**
 * Redirection's target shortcodes (Red_Url_Transform): `[userid]`, `[userlogin]`, `[unixtime]`, `[md5]…[/md5]`,
 * `[upper]…`, `[lower]…`, `[dashes]…`, `[underscores]…`, and the legacy `%userid%`, `%userlogin%`, `%userurl%`.
 */
export function transformTarget(target: string, principal: Principal | null, now: number): string {
  if (!target.includes('[') && !target.includes('%user')) return target;
  let out = target
    .replace(/%userid%/g, String(principal?.id ?? 0))
    .replace(/%userlogin%/g, principal?.login ?? '')
    .replace(/%userurl%/g, '');
  out = out.replace(/\[(userid|userlogin|unixtime)\]/g, (_, code: string) =>
    code === 'userid' ? String(principal?.id ?? 0) : code === 'userlogin' ? (principal?.login ?? '') : String(Math.floor(now / 1000)),
  );
  // Innermost first, bounded: each pass removes one pair of tags.
  for (let pass = 0; pass < 10; pass++) {
    const next = out.replace(/\[(md5|upper|lower|dashes|underscores)\]([^[]*)\[\/\1\]/g, (_, code: string, value: string) => {
      if (code === 'md5') return createHash('md5').update(value).digest('hex');
      if (code === 'upper') return value.toUpperCase();
      if (code === 'lower') return value.toLowerCase();
      if (code === 'dashes') return value.replace(/[_ ]/g, '-');
      return value.replace(/[- ]/g, '_');
    });
    if (next === out) break;
    out = next;
  }
  return out;
}
