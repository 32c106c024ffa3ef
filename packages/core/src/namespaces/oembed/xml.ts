import { xmlElements } from '../../text/markup-scans.js';

/** esc_html then SimpleXML: `&` (unless it starts an entity), `<` and `>` escaped in element text. */
function escapeXml(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function elements(data: Record<string, unknown>, depth: number): string {
  let out = '';
  for (const [key, value] of Object.entries(data)) {
    // Numeric keys become `<oembed>` elements, as WordPress's _oembed_create_xml does for lists.
    const name = /^\d/.test(key) || !/^[A-Za-z_][\w.-]*$/.test(key) ? 'oembed' : key;
    if (value !== null && typeof value === 'object') {
      out += depth < 8 ? `<${name}>${elements(value as Record<string, unknown>, depth + 1)}</${name}>` : `<${name}/>`;
    } else if (value === null || value === undefined) out += `<${name}/>`;
    else if (value === false || value === '') out += `<${name}></${name}>`;
    else out += `<${name}>${escapeXml(value === true ? '1' : String(value))}</${name}>`;
  }
  return out;
}

/** WordPress _oembed_create_xml: `<?xml …?>\n<oembed>…</oembed>\n`. */
export function oembedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${elements(data, 0)}</oembed>\n`;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

/**
 * A provider's XML answer as WordPress's _parse_xml reads it: the direct children of `<oembed>` as strings.
 * No DTD or entity is ever expanded; CDATA sections are taken as text.
 */
export function parseOembedXml(body: string): Record<string, string> | null {
  const start = body.indexOf('<oembed>');
  const end = body.lastIndexOf('</oembed>');
  if (start === -1 || end < start) return null;
  const inner = body.slice(start + '<oembed>'.length, end);
  const out: Record<string, string> = {};
  for (const [name, raw] of xmlElements(inner, 100)) {
    const text = raw.startsWith('<![CDATA[') && raw.endsWith(']]>') ? raw.slice(9, -3) : decodeEntities(raw);
    Object.defineProperty(out, name, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length ? out : null;
}
