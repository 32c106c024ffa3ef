import { DateTime, type Zone } from 'luxon';

/**
 * PHP's `date()` / WordPress's `wp_date()` formats (`F j, Y`, `g:i a`) rendered with luxon, English names.
 * Backslash escapes a character, as in PHP.
 */
export function formatPhpDate(format: string, epochMs: number, zone: Zone | string): string {
  const dt = DateTime.fromMillis(epochMs, { zone }).setLocale('en-US');
  let out = '';
  for (let i = 0; i < format.length && i < 200; i++) {
    const c = format[i]!;
    if (c === '\\') {
      out += format[++i] ?? '';
      continue;
    }
    out += part(dt, c);
  }
  return out;
}

function ordinal(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

function part(dt: DateTime, c: string): string {
  switch (c) {
    case 'd': return dt.toFormat('dd');
    case 'D': return dt.toFormat('ccc');
    case 'j': return String(dt.day);
    case 'l': return dt.toFormat('cccc');
    case 'N': return String(dt.weekday);
    case 'S': return ordinal(dt.day);
    case 'w': return String(dt.weekday % 7);
    case 'z': return String(dt.ordinal - 1);
    case 'W': return dt.toFormat('WW');
    case 'F': return dt.toFormat('LLLL');
    case 'm': return dt.toFormat('LL');
    case 'M': return dt.toFormat('LLL');
    case 'n': return String(dt.month);
    case 't': return String(dt.daysInMonth);
    case 'L': return dt.isInLeapYear ? '1' : '0';
    case 'o': return String(dt.weekYear);
    case 'Y': return String(dt.year);
    case 'y': return dt.toFormat('yy');
    case 'a': return dt.hour < 12 ? 'am' : 'pm';
    case 'A': return dt.hour < 12 ? 'AM' : 'PM';
    case 'g': return String(dt.hour % 12 || 12);
    case 'G': return String(dt.hour);
    case 'h': return String(dt.hour % 12 || 12).padStart(2, '0');
    case 'H': return dt.toFormat('HH');
    case 'i': return dt.toFormat('mm');
    case 's': return dt.toFormat('ss');
    case 'u': return '000000';
    case 'v': return dt.toFormat('SSS');
    case 'e': return dt.zoneName ?? 'UTC';
    case 'I': return dt.isInDST ? '1' : '0';
    case 'O': return dt.toFormat('ZZZ');
    case 'P': return dt.toFormat('ZZ');
    case 'p': return dt.offset === 0 ? 'Z' : dt.toFormat('ZZ');
    case 'T': return dt.offset === 0 ? 'UTC' : dt.toFormat('ZZ');
    case 'Z': return String(dt.offset * 60);
    case 'c': return dt.toFormat("yyyy-LL-dd'T'HH:mm:ssZZ");
    case 'r': return dt.toFormat('ccc, dd LLL yyyy HH:mm:ss ZZZ');
    case 'U': return String(Math.floor(dt.toSeconds()));
    default: return c;
  }
}
