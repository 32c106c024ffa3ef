import { embedPage, type Site } from '@siterest/core';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif' };

/** A stored upload for `GET /uploads/<key>`: its bytes and type, or null (unknown, or a key that would leave the folder). */
export async function readUpload(site: Site, key: string): Promise<{ type: string; data: Buffer } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    return null;
  }
  let data: Buffer | null;
  try {
    data = await site.files.read(decoded);
  } catch {
    return null;
  }
  if (!data) return null;
  const ext = decoded.slice(decoded.lastIndexOf('.') + 1).toLowerCase();
  return { type: TYPES[ext] ?? 'application/octet-stream', data };
}

/** The page behind an oEmbed iframe (`/event/<slug>/embed/`), or null. */
export function readEmbedPage(site: Site, path: string): Promise<string | null> {
  return embedPage(site, `${site.settings.home}${path}`);
}
