import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { withoutTrailingSlashes } from '../http/php.js';

/** Bytes to store: all at once, or streamed (an upload as it arrives). */
export type FileData = Uint8Array | AsyncIterable<Uint8Array>;

export interface StoredFile {
  /** Where the file is, relative to the storage root (`2026/11/photo.jpg`). */
  key: string;
  size: number;
}

export interface WriteFileOptions {
  /** Refuse (FileTooLargeError, nothing kept) once more bytes than this arrive. */
  maxBytes?: number;
  /**
   * When a file already has the key, `rename` stores it as `name-1.ext`, `name-2.ext`… as WordPress's
   * wp_unique_filename does (atomically: two writers never get the same name); `replace` overwrites it.
   */
  onConflict?: 'rename' | 'replace';
}

/**
 * Where uploaded and generated files live (media, form attachments). Keys are relative paths with `/`;
 * a key that could leave the storage root (`..`, absolute, backslash, NUL) is refused.
 */
export interface FileStorage {
  write(key: string, data: FileData, options?: WriteFileOptions): Promise<StoredFile>;
  read(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /** The public URL the file is served at. */
  url(key: string): string;
  /** The file's path on this machine, for storages that are a local folder (image processing reads it). */
  localPath?(key: string): string;
  /** Names of the files directly in a folder (`2026/11`), for cleaning up stale image sizes. */
  list?(folder: string): Promise<string[]>;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes.`);
    this.name = 'FileTooLargeError';
  }
}

export class InvalidFileKeyError extends Error {
  constructor(key: string) {
    super(`"${key.slice(0, 200)}" is not a valid file key.`);
    this.name = 'InvalidFileKeyError';
  }
}

/** Checks a key and returns its parts; keys are short relative paths of plain segments. */
export function checkFileKey(key: string): string[] {
  const parts = key.split('/');
  const valid =
    key.length > 0 &&
    key.length <= 1024 &&
    !/[\\\0]/.test(key) &&
    parts.every((part) => part !== '' && part !== '.' && part !== '..' && part.length <= 255);
  if (!valid) throw new InvalidFileKeyError(key);
  return parts;
}

/** `photo.jpg` → `photo-1.jpg`, `archive.tar.gz` → `archive.tar-1.gz` (WordPress numbers before the last extension). */
export function numberedKey(key: string, n: number): string {
  const slash = key.lastIndexOf('/');
  const dot = key.lastIndexOf('.');
  return dot > slash + 1 ? `${key.slice(0, dot)}-${n}${key.slice(dot)}` : `${key}-${n}`;
}

async function* limited(data: FileData, maxBytes: number): AsyncIterable<Uint8Array> {
  const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > maxBytes) throw new FileTooLargeError(maxBytes);
    yield chunk;
  }
}

export interface LocalFileStorageOptions {
  /** The folder files are kept in (created when missing). */
  directory: string;
  /**
   * The public URL of that folder, e.g. `https://example.org/uploads` (served by the host app); a function
   * when it follows something that can change (the site's address).
   */
  baseUrl: string | (() => string);
}

/**
 * Files in a local folder. A write goes to a temporary file next to its target and is renamed into place when
 * complete, so readers never see half a file and a failed or oversized upload leaves nothing behind.
 */
export function localFileStorage(options: LocalFileStorageOptions): FileStorage {
  const root = resolve(options.directory);
  const baseUrl = () => withoutTrailingSlashes(typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl);
  const pathOf = (key: string) => {
    const path = join(root, ...checkFileKey(key));
    if (!path.startsWith(root + sep)) throw new InvalidFileKeyError(key);
    return path;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

  /**
   * Creates a file exclusively, and its folder when missing. A delete removes folders it leaves empty (below), so
   * the folder can go between the two: then it is made again. Once the file is in it, the folder stays.
   */
  async function createExclusively(path: string): Promise<FileHandle> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await open(path, 'wx');
      } catch (error) {
        if (!missing(error) || attempt >= 5) throw error;
        await mkdir(dirname(path), { recursive: true });
      }
    }
  }

  /**
   * Removes the folders above `path` that are left empty, up to the root (uploads of contact forms each get a
   * folder of their own; left behind, the empty folders would pile up). Stops at the first that is not empty.
   */
  async function removeEmptyFolders(path: string): Promise<void> {
    for (let folder = dirname(path); folder.startsWith(root + sep); folder = dirname(folder)) {
      try {
        await rmdir(folder);
      } catch {
        return;
      }
    }
  }

  /** Claims `key` (or a numbered variant) by creating it exclusively; returns the key claimed. */
  async function claim(key: string): Promise<string> {
    for (let n = 0; n < 10_000; n++) {
      const candidate = n === 0 ? key : numberedKey(key, n);
      try {
        await (await createExclusively(pathOf(candidate))).close();
        return candidate;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new Error(`No free file name for "${key}".`);
  }

  return {
    async write(key, data, writeOptions = {}) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const finalKey = writeOptions.onConflict === 'replace' ? key : await claim(key);
      const finalPath = pathOf(finalKey);
      const temporary = `${finalPath}.${randomBytes(6).toString('hex')}.part`;
      try {
        const handle = await createExclusively(temporary);
        await pipeline(limited(data, writeOptions.maxBytes ?? Number.POSITIVE_INFINITY), handle.createWriteStream());
        await rename(temporary, finalPath);
      } catch (error) {
        await rm(temporary, { force: true });
        if (finalKey !== key || writeOptions.onConflict !== 'replace') await rm(finalPath, { force: true });
        await removeEmptyFolders(finalPath);
        throw error;
      }
      return { key: finalKey, size: (await stat(finalPath)).size };
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },
    async delete(key) {
      try {
        const path = pathOf(key);
        await rm(path);
        await removeEmptyFolders(path);
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },
    async list(folder) {
      try {
        const entries = await readdir(folder ? pathOf(folder) : root, { withFileTypes: true });
        return entries.filter((e) => e.isFile() && !e.name.endsWith('.part')).map((e) => e.name);
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
    },
    url: (key) => `${baseUrl()}/${checkFileKey(key).map(encodeURIComponent).join('/')}`,
    localPath: pathOf,
  };
}
