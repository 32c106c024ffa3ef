import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError, InvalidFileKeyError, localFileStorage, numberedKey, type FileStorage } from '../src/media/file-storage.js';

let directory: string;
let files: FileStorage;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'siterest-files-'));
  files = localFileStorage({ directory, baseUrl: 'https://example.org/uploads/' });
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('localFileStorage', () => {
  it('writes bytes or a stream, reads them back and gives the public URL', async () => {
    expect(await files.write('2026/11/a.txt', Buffer.from('hello'))).toEqual({ key: '2026/11/a.txt', size: 5 });
    expect(await files.write('2026/11/b.txt', chunks('he', 'llo', '!'))).toEqual({ key: '2026/11/b.txt', size: 6 });
    expect((await files.read('2026/11/b.txt'))?.toString()).toBe('hello!');
    expect(await files.exists('2026/11/a.txt')).toBe(true);
    expect(files.url('2026/11/a b.txt')).toBe('https://example.org/uploads/2026/11/a%20b.txt');
    expect(files.localPath?.('2026/11/a.txt')).toBe(join(directory, '2026', '11', 'a.txt'));
  });

  it('numbers names that are taken, even when writers race for the same name', async () => {
    const written = await Promise.all(Array.from({ length: 20 }, (_, i) => files.write('x/photo.jpg', Buffer.from(String(i)))));
    const keys = written.map((w) => w.key).sort();
    expect(new Set(keys).size).toBe(20);
    expect(keys).toContain('x/photo.jpg');
    expect(keys).toContain('x/photo-19.jpg');
    expect(numberedKey('a/archive.tar.gz', 2)).toBe('a/archive.tar-2.gz');
    expect(numberedKey('a/README', 1)).toBe('a/README-1');
  });

  it('replaces in place when asked', async () => {
    await files.write('f.txt', Buffer.from('one'));
    expect(await files.write('f.txt', Buffer.from('two'), { onConflict: 'replace' })).toEqual({ key: 'f.txt', size: 3 });
    expect((await files.read('f.txt'))?.toString()).toBe('two');
  });

  it('refuses oversized data and leaves nothing behind', async () => {
    await expect(files.write('big/file.bin', chunks('1234', '5678'), { maxBytes: 6 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await readdir(directory)).toEqual([]);
    expect(await files.exists('big/file.bin')).toBe(false);
  });

  it('removes the folders a delete leaves empty, up to the root, and keeps the others', async () => {
    await files.write('contact-forms/0123456789abcdef/cv.txt', Buffer.from('cv'));
    await files.write('2026/11/a.txt', Buffer.from('a'));
    await files.write('2026/11/b.txt', Buffer.from('b'));
    expect(await files.delete('contact-forms/0123456789abcdef/cv.txt')).toBe(true);
    expect(await files.delete('2026/11/a.txt')).toBe(true);
    expect((await readdir(directory)).sort()).toEqual(['2026']);
    expect(await readdir(join(directory, '2026', '11'))).toEqual(['b.txt']);
    expect(await files.delete('2026/11/b.txt')).toBe(true);
    expect(await readdir(directory)).toEqual([]);
  });

  it('writes into a folder that deletes of its last file remove at the same time', async () => {
    // Each round: the folder's only file deleted while writes into the folder start at staggered moments.
    for (let round = 0; round < 100; round++) {
      await files.write(`f/old-${round}.txt`, Buffer.from('old'));
      const deleted = files.delete(`f/old-${round}.txt`);
      const writes: Array<Promise<unknown>> = [];
      for (let i = 0; i < 8; i++) {
        writes.push(files.write(`f/new-${round}-${i}.txt`, chunks('n', 'e', 'w')));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await deleted).toBe(true);
      expect(await Promise.all(writes)).toEqual(Array.from({ length: 8 }, (_, i) => ({ key: `f/new-${round}-${i}.txt`, size: 3 })));
      for (let i = 0; i < 8; i++) {
        expect((await files.read(`f/new-${round}-${i}.txt`))?.toString()).toBe('new');
        await files.delete(`f/new-${round}-${i}.txt`);
      }
    }
    expect(await readdir(directory)).toEqual([]);
  });

  it('refuses keys that could leave the folder', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a\0b', '', 'a//b', './a']) {
      await expect(files.write(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidFileKeyError);
    }
    expect(await files.read('missing.txt')).toBeNull();
    expect(await files.delete('missing.txt')).toBe(false);
  });
});
