import { ApiResponse } from './http/api-response.js';
import type { SiteStore } from './store/repositories.js';

/** Data of cached answers: shared between requests and never changed, so their JSON can be reused. */
export const sharedAnswerData = new WeakSet<object>();

/**
 * Recent list answers, each kept with the store's change version it was computed at and reused only while
 * that version is current — so an answer is never staler than the last committed write of any instance.
 * The Events Calendar caches its archive answers per user the same way, cleared on every save.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { version: number; value: unknown }>();

  constructor(
    private readonly store: SiteStore,
    private readonly size = 256,
  ) {}

  async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.store.changeVersion) return compute();
    const version = await this.store.changeVersion();
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as T;
    }
    // Computed after reading the version: a write meanwhile makes this entry stale at once.
    const value = await compute();
    if (value instanceof ApiResponse && value.data !== null && typeof value.data === 'object') sharedAnswerData.add(value.data);
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
