import type { MediaLibrary } from '../../media/library.js';
import type { AttachmentRecord } from '../../store/media-records.js';
import { escUrl } from '../calendar/format/index.js';
import { escAttr } from '../../text/sanitize.js';


/** Whether `text` names `wp-image-<id>` exactly (not `wp-image-<id>5`). */
function namesImage(text: string, id: number): boolean {
  const needle = `wp-image-${id}`;
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
    const next = lower.charCodeAt(at + needle.length);
    if (!(next >= 48 && next <= 57)) return true;
  }
  return false;
}

/** The `size-<name>` of an img tag's class attribute (Regenerate Thumbnails reads the last one). */
function sizeOfTag(tag: string): string | null {
  const match = / class="([^"]*)"/i.exec(tag);
  if (!match) return null;
  const sizes = match[1]!.split(/\s+/).filter((c) => c.startsWith('size-'));
  return sizes.length ? sizes[sizes.length - 1]!.slice(5) : null;
}

/**
 * Regenerate Thumbnails' update_usages_in_posts for one post's content: every `<img … wp-image-<id> … />`
 * gets the current `src`, `width` and `height` of the size its `size-<name>` class names, and every
 * `[caption id="attachment_<id>" … width="…"]` wrapping such an image its width. Tags are found with
 * indexOf scans, so the work is linear in the content's length.
 */
export function rewriteImageUsages(content: string, record: AttachmentRecord, media: MediaLibrary): string {
  let out = '';
  let cursor = 0;
  const lower = content.toLowerCase();
  for (let start = lower.indexOf('<img ', cursor); start !== -1; start = lower.indexOf('<img ', cursor)) {
    const end = content.indexOf('>', start);
    if (end === -1) break;
    let tag = content.slice(start, end + 1);
    if (tag.endsWith('/>') && namesImage(tag, record.id)) {
      const size = sizeOfTag(tag);
      const shown = size ? media.downsize(record, size) : null;
      if (shown) {
        tag = tag.replace(/ src="[^"]*"/i, ` src="${escUrl(shown.url)}"`);
        tag = tag.replace(/ width="[^"]*" height="[^"]*"/i, ` width="${escAttr(String(shown.width))}" height="${escAttr(String(shown.height))}"`);
      }
    }
    out += content.slice(cursor, start) + tag;
    cursor = end + 1;
  }
  out += content.slice(cursor);
  return rewriteCaptions(out, record, media);
}

function rewriteCaptions(content: string, record: AttachmentRecord, media: MediaLibrary): string {
  const opening = `[caption id="attachment_${record.id}"`;
  let out = '';
  let cursor = 0;
  for (let start = content.indexOf(opening, cursor); start !== -1; start = content.indexOf(opening, cursor)) {
    const close = content.indexOf(']', start);
    const end = close === -1 ? -1 : content.indexOf('[/caption]', close);
    if (close === -1 || end === -1) break;
    const inner = content.slice(close + 1, end);
    let head = content.slice(start, close + 1);
    const size = /size-([^" ]+)/.exec(inner)?.[1];
    const shown = size && !inner.includes('[') ? media.downsize(record, size) : null;
    if (shown && / width="[^"]+"\]$/.test(head)) head = head.replace(/ width="[^"]+"\]$/, ` width="${escAttr(String(shown.width))}"]`);
    out += content.slice(cursor, start) + head + inner + '[/caption]';
    cursor = end + '[/caption]'.length;
  }
  return out + content.slice(cursor);
}

