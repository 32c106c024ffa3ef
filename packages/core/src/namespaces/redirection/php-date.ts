import { DateTime, type Zone } from 'luxon';

/*
 * PHP's date() formats, as WordPress applies the site's `date_format` and `time_format` options and as
 * Redirection stamps its exports (`r`). luxon does the calendar work; this maps PHP's letters onto it.
 */

const ORDINALS = (day: number) => (day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th');

function offset(dt: DateTime, colon: boolean): string {
  const minutes = dt.offset;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${sign}${hh}${colon ? ':' : ''}${mm}`;
}

function letter(dt: DateTime, ch: string): string {
  switch (ch) {
    case 'd': return dt.toFormat('dd');
    case 'D': return dt.toFormat('ccc');
    case 'j': return String(dt.day);
    case 'l': return dt.toFormat('cccc');
    case 'N': return String(dt.weekday);
    case 'S': return ORDINALS(dt.day);
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
    case 'O': return offset(dt, false);
    case 'P': return offset(dt, true);
    case 'p': return dt.offset === 0 ? 'Z' : offset(dt, true);
    case 'T': return dt.offset === 0 && (dt.zoneName === 'UTC' || dt.zone.type === 'fixed') ? (dt.offset === 0 ? 'GMT' : offset(dt, true)) : dt.toFormat('ZZZZ');
    case 'Z': return String(dt.offset * 60);
    case 'c': return dt.toISO({ suppressMilliseconds: true }) ?? '';
    case 'r': return formatPhpDate(dt.toMillis(), 'D, d M Y H:i:s O', dt.zone);
    case 'U': return String(Math.floor(dt.toSeconds()));
    default: return ch;
  }
}

/** PHP `date($format)` for the instant `ms` in `zone`; `\x` escapes a letter. */
export function formatPhpDate(ms: number, format: string, zone: Zone | string = 'UTC'): string {
  const dt = DateTime.fromMillis(ms, { zone }).setLocale('en-US');
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch === '\\' && i + 1 < format.length) out += format[++i];
    else out += /[a-zA-Z]/.test(ch) ? letter(dt, ch) : ch;
  }
  return out;
}
