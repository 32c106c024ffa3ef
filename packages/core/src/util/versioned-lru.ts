/** Bounds of a {@link VersionedLru}. */
export interface VersionedLruBounds {
  /** Most entries kept. */
  maxEntries: number;
  /** Most memory the entries may take, as estimated by their callers. */
  maxBytes: number;
  /** One entry larger than this share of `maxBytes` is not kept (8: an eighth). */
  largestShare: number;
  /** Longest time an entry is reused, in milliseconds. */
  maxAgeMs: number;
}

interface Entry {
  version: number;
  /** A second condition besides the version (the settings object a fragment was built with), compared by identity. */
  tag: unknown;
  storedAt: number;
  bytes: number;
  value: unknown;
  /** Read since it last came to the front of the eviction order (a second chance, instead of moving it on every read). */
  touched: boolean;
}

/**
 * Values kept with the change version they were computed at, reused only at that version (and tag) and while
 * younger than `maxAgeMs`; bounded in entries and in estimated bytes, the least recently used dropped first
 * (approximately: a read only marks the entry, and eviction gives a marked entry a second chance at the back of
 * the order — a list request reads dozens of fragments, and moving each in the map on every read cost more than
 * the read). The answer cache and the fragment cache both keep their values this way.
 */
export class VersionedLru {
  // Keys are text or numbers (the fragment cache numbers most of its keys: no string to build and hash per read).
  private readonly entries = new Map<string | number, Entry>();
  private bytes = 0;

  constructor(
    private readonly now: () => number,
    private readonly bounds: VersionedLruBounds,
  ) {}

  /** The number of entries kept and the memory they are estimated to take. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The value kept for `key` if it was stored at `version` with `tag` and is young enough; a stale one is dropped. */
  get(key: string | number, version: number, tag?: unknown): unknown {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // A negative age is a clock set back: nothing says how old the entry is, so it is dropped.
    const age = this.now() - hit.storedAt;
    if (hit.version === version && hit.tag === tag && age >= 0 && age < this.bounds.maxAgeMs) {
      hit.touched = true;
      return hit.value;
    }
    this.drop(key, hit);
    return undefined;
  }

  /** The value kept for `key` whatever its version, tag and age (to learn what to check it against): not a hit. */
  peek(key: string | number): unknown {
    return this.entries.get(key)?.value;
  }

  /**
   * Keeps `value` (estimated at `size` bytes) unless it is too large or a newer version is already kept. Its age
   * counts from `storedAt` (now): a value put together from older ones is no younger than they are.
   */
  set(key: string | number, version: number, value: unknown, size: number, tag?: unknown, storedAt: number = this.now()): void {
    const bytes = (typeof key === 'string' ? key.length : 8) + 64 + size;
    if (bytes > this.bounds.maxBytes / this.bounds.largestShare) return;
    const old = this.entries.get(key);
    if (old && old.version > version) return;
    if (old) this.drop(key, old);
    this.entries.set(key, { version, tag, storedAt, bytes, value, touched: false });
    this.bytes += bytes;
    while (this.entries.size > this.bounds.maxEntries || this.bytes > this.bounds.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      // Read since it came to the front: it goes to the back once, unmarked. The entry being kept goes there too
      // when every older one was read and went behind it: dropped at once, a new answer could never get in beside
      // a set of answers all in use. The loop ends: every other entry is moved at most once, this one twice.
      if (oldest.touched || (oldestKey === key && this.entries.size > 1)) {
        oldest.touched = false;
        this.entries.delete(oldestKey);
        this.entries.set(oldestKey, oldest);
        continue;
      }
      this.drop(oldestKey, oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string | number, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
