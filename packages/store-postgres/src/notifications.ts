import type { Listening, SqlClient } from './sql/client.js';

/** What a listener receives after the listening connection came back: messages may have been lost, drop everything. */
export const RESYNC_PAYLOAD = '*';

export type Unsubscribe = (() => void) & {
  /** Resolves once the subscription hears messages (LISTEN is in effect). */
  ready: Promise<void>;
};

/**
 * Cross-instance messages over LISTEN/NOTIFY. All logical channels of a store share one PostgreSQL channel
 * named after its schema (one LISTEN per instance; stores on other schemas never hear them); the message
 * carries its logical channel.
 */
export class Notifications {
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private listening: Listening | null = null;

  constructor(
    private readonly sql: SqlClient,
    private readonly channel: string,
  ) {}

  subscribe(channel: string, listener: (payload: string) => void): Unsubscribe {
    const set = this.listeners.get(channel) ?? new Set();
    set.add(listener);
    this.listeners.set(channel, set);
    this.listening ??= this.sql.listen(this.channel, (message) => this.deliver(message), () => this.resync());
    const ready = this.listening.ready;
    // Awaiting `ready` is optional; a failure there must not become an unhandled rejection.
    ready.catch(() => undefined);
    const unsubscribe = () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(channel);
      if (this.listeners.size === 0 && this.listening) {
        void this.listening.stop().catch(() => undefined);
        this.listening = null;
      }
    };
    return Object.assign(unsubscribe, { ready });
  }

  /** Sent through `sql`, so inside a transaction it is delivered on commit, and never on rollback. */
  async publish(sql: SqlClient, channel: string, payload: string): Promise<void> {
    await sql.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify([channel, payload])]);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    const listening = this.listening;
    this.listening = null;
    await listening?.stop().catch(() => undefined);
  }

  private deliver(message: string): void {
    let channel: unknown;
    let payload: unknown;
    try {
      [channel, payload] = JSON.parse(message) as [unknown, unknown];
    } catch {
      return;
    }
    if (typeof channel !== 'string' || typeof payload !== 'string') return;
    this.emit(channel, payload);
  }

  private resync(): void {
    for (const channel of [...this.listeners.keys()]) this.emit(channel, RESYNC_PAYLOAD);
  }

  private emit(channel: string, payload: string): void {
    for (const listener of [...(this.listeners.get(channel) ?? [])]) {
      try {
        listener(payload);
      } catch {
        // One failing cache must not keep the others stale.
      }
    }
  }
}
