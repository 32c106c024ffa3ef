import { phpTrim } from '../../http/php.js';
/**
 * File uploads: WordPress's MIME table (for `filetypes:` options and the default audio/video/image rule),
 * Contact Form 7's accept-list and its safe file names.
 */

/** wp_get_mime_types(): extension pattern → MIME type. */
const MIME_TYPES: ReadonlyArray<[string, string]> = [
  ['jpg|jpeg|jpe', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['png', 'image/png'],
  ['bmp', 'image/bmp'],
  ['tiff|tif', 'image/tiff'],
  ['webp', 'image/webp'],
  ['avif', 'image/avif'],
  ['ico', 'image/x-icon'],
  ['heic', 'image/heic'],
  ['heif', 'image/heif'],
  ['heics', 'image/heic-sequence'],
  ['heifs', 'image/heif-sequence'],
  ['asf|asx', 'video/x-ms-asf'],
  ['wmv', 'video/x-ms-wmv'],
  ['wmx', 'video/x-ms-wmx'],
  ['wm', 'video/x-ms-wm'],
  ['avi', 'video/avi'],
  ['divx', 'video/divx'],
  ['flv', 'video/x-flv'],
  ['mov|qt', 'video/quicktime'],
  ['mpeg|mpg|mpe', 'video/mpeg'],
  ['mp4|m4v', 'video/mp4'],
  ['ogv', 'video/ogg'],
  ['webm', 'video/webm'],
  ['mkv', 'video/x-matroska'],
  ['3gp|3gpp', 'video/3gpp'],
  ['3g2|3gp2', 'video/3gpp2'],
  ['txt|asc|c|cc|h|srt', 'text/plain'],
  ['csv', 'text/csv'],
  ['tsv', 'text/tab-separated-values'],
  ['ics', 'text/calendar'],
  ['rtx', 'text/richtext'],
  ['css', 'text/css'],
  ['htm|html', 'text/html'],
  ['vtt', 'text/vtt'],
  ['dfxp', 'application/ttaf+xml'],
  ['mp3|m4a|m4b', 'audio/mpeg'],
  ['aac', 'audio/aac'],
  ['ra|ram', 'audio/x-realaudio'],
  ['wav|x-wav', 'audio/wav'],
  ['ogg|oga', 'audio/ogg'],
  ['flac', 'audio/flac'],
  ['mid|midi', 'audio/midi'],
  ['wma', 'audio/x-ms-wma'],
  ['wax', 'audio/x-ms-wax'],
  ['mka', 'audio/x-matroska'],
  ['rtf', 'application/rtf'],
  ['js', 'application/javascript'],
  ['pdf', 'application/pdf'],
  ['swf', 'application/x-shockwave-flash'],
  ['class', 'application/java'],
  ['tar', 'application/x-tar'],
  ['zip', 'application/zip'],
  ['gz|gzip', 'application/x-gzip'],
  ['rar', 'application/rar'],
  ['7z', 'application/x-7z-compressed'],
  ['exe', 'application/x-msdownload'],
  ['psd', 'application/octet-stream'],
  ['xcf', 'application/octet-stream'],
  ['doc', 'application/msword'],
  ['pot|pps|ppt', 'application/vnd.ms-powerpoint'],
  ['wri', 'application/vnd.ms-write'],
  ['xla|xls|xlt|xlw', 'application/vnd.ms-excel'],
  ['mdb', 'application/vnd.ms-access'],
  ['mpp', 'application/vnd.ms-project'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['docm', 'application/vnd.ms-word.document.macroEnabled.12'],
  ['dotx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.template'],
  ['dotm', 'application/vnd.ms-word.template.macroEnabled.12'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
  ['xlsb', 'application/vnd.ms-excel.sheet.binary.macroEnabled.12'],
  ['xltx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.template'],
  ['xltm', 'application/vnd.ms-excel.template.macroEnabled.12'],
  ['xlam', 'application/vnd.ms-excel.addin.macroEnabled.12'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['pptm', 'application/vnd.ms-powerpoint.presentation.macroEnabled.12'],
  ['ppsx', 'application/vnd.openxmlformats-officedocument.presentationml.slideshow'],
  ['ppsm', 'application/vnd.ms-powerpoint.slideshow.macroEnabled.12'],
  ['potx', 'application/vnd.openxmlformats-officedocument.presentationml.template'],
  ['potm', 'application/vnd.ms-powerpoint.template.macroEnabled.12'],
  ['ppam', 'application/vnd.ms-powerpoint.addin.macroEnabled.12'],
  ['sldx', 'application/vnd.openxmlformats-officedocument.presentationml.slide'],
  ['sldm', 'application/vnd.ms-powerpoint.slide.macroEnabled.12'],
  ['onetoc|onetoc2|onetmp|onepkg', 'application/onenote'],
  ['oxps', 'application/oxps'],
  ['xps', 'application/vnd.ms-xpsdocument'],
  ['odt', 'application/vnd.oasis.opendocument.text'],
  ['odp', 'application/vnd.oasis.opendocument.presentation'],
  ['ods', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['odg', 'application/vnd.oasis.opendocument.graphics'],
  ['odc', 'application/vnd.oasis.opendocument.chart'],
  ['odb', 'application/vnd.oasis.opendocument.database'],
  ['odf', 'application/vnd.oasis.opendocument.formula'],
  ['wp|wpd', 'application/wordperfect'],
  ['key', 'application/vnd.apple.keynote'],
  ['numbers', 'application/vnd.apple.numbers'],
  ['pages', 'application/vnd.apple.pages'],
];

/** `wpcf7_convert_mime_to_ext`: the extensions of a MIME type (`image/*` allowed). */
function extensionsOfMime(mime: string): string[] {
  const m = /^([a-z]+)\/([*]|[a-z0-9.+-]+)$/i.exec(mime);
  if (!m) return [];
  const out = new Set<string>();
  for (const [exts, type] of MIME_TYPES) {
    if ((m[2] === '*' && type.startsWith(`${m[1]}/`)) || type === m[0]) for (const ext of exts.split('|')) if (ext) out.add(ext);
  }
  return [...out];
}

/** The MIME type of a file name, by extension (application/octet-stream when unknown). */
export function mimeOfFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot === -1) return 'application/octet-stream';
  const ext = filename.slice(dot + 1).toLowerCase();
  for (const [exts, type] of MIME_TYPES) if (exts.split('|').includes(ext)) return type;
  return 'application/octet-stream';
}

/** `wpcf7_acceptable_filetypes( $types, 'attr' )`: the `accept` list of a file tag's `filetypes:` options. */
export function acceptableFiletypes(types: readonly string[]): string[] {
  let list: string[];
  if (types.length === 0) {
    list = ['audio/*', 'video/*', 'image/*'];
  } else {
    list = [...new Set(types.flatMap((t) => t.toLowerCase().split(/[\s|,]+/)))].filter(Boolean);
  }
  return list
    .map((type) => {
      if (!type.includes('/')) return `.${phpTrim(type, '.')}`;
      const wildcard = /^([a-z]+)\/[*]$/i.exec(type);
      if (wildcard) return ['audio', 'video', 'image'].includes(wildcard[1]!) ? type : '';
      return extensionsOfMime(type).length ? type : '';
    })
    .filter(Boolean);
}

/** The lower-cased `.ext` suffixes an accept list allows (the SWV `file` rule). */
export function acceptedSuffixes(accept: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const item of accept) {
    if (/^\.[a-z0-9]+$/i.test(item)) out.add(item.toLowerCase());
    else for (const ext of extensionsOfMime(item)) out.add(`.${phpTrim(ext.toLowerCase(), ' .')}`);
  }
  return out;
}

const SCRIPT_EXTENSION = /^(php|phtml|pl|py|rb|cgi|asp|aspx)\d?$/i;

/**
 * `wpcf7_antiscript_file_name`: the base name with white space and dashes collapsed, control and separator
 * characters removed, and script extensions defused (`x.php` → `x.php_.txt`).
 */
export function antiscriptFileName(name: string): string {
  let base = name.replace(/\\/g, '/');
  base = base.slice(base.lastIndexOf('/') + 1);
  base = base.replace(/[\r\n\t -]+/g, '-').replace(/[\p{C}\p{Z}]+/gu, '');
  const parts = base.split('.');
  if (parts.length < 2) return base;
  let out = parts.shift()!;
  const extension = parts.pop()!;
  for (const part of parts) out += SCRIPT_EXTENSION.test(part) ? `.${part}_` : `.${part}`;
  out += SCRIPT_EXTENSION.test(extension) ? `.${extension}_.txt` : `.${extension}`;
  return out;
}
