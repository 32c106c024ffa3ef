import type { Pool, PoolClient } from 'pg';
import type { Listening } from './client.js';
import { CLIENT_GRACE_MS, DEFAULT_TIMEOUTS, withDeadline, type Timeouts } from './limits.js';

interface Subscription {
  channel: string;
  onMessage: (payload: string) => void;
  onReconnect?: () => void;
}

const MAX_RETRY_DELAY_MS = 5_000;

function sleep(ms: number): Promise<void> {
  // Unref'd: a reconnect loop must never keep a finished process alive.
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * LISTEN needs one connection that stays open. This holds one client checked out of the app's pool (so it
 * uses the app's credentials, TLS and client class) and, when that connection dies, takes a new one and
 * LISTENs again, backing off while the database is away. A connection that silently stopped carrying anything
 * (a firewall or NAT forgot it) is found by asking it `SELECT 1` every `listenerHeartbeat` ms, and dropped when
 * it does not answer in time.
 */
export class PgListener {
  private readonly subscriptions = new Set<Subscription>();
  private client: PoolClient | null = null;
  private listened = new Set<string>();
  private session: Promise<void> | null = null;
  private closed = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private beating = false;

  constructor(
    private readonly pool: Pool,
    private readonly timeouts: Pick<Timeouts, 'statement' | 'listenerHeartbeat'> = DEFAULT_TIMEOUTS,
  ) {}

  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Listening {
    const subscription: Subscription = { channel, onMessage, onReconnect };
    this.subscriptions.add(subscription);
    return {
      ready: this.ensureListening(channel),
      stop: () => this.stop(subscription),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriptions.clear();
    await this.release();
  }

  private async ensureListening(channel: string): Promise<void> {
    while (!this.closed && [...this.subscriptions].some((s) => s.channel === channel)) {
      const session = (this.session ??= this.connect(false));
      await session;
      const client = this.client;
      if (!client) {
        // That attempt gave up (everyone had unsubscribed meanwhile): start a new one rather than wait on it again.
        if (this.session === session) this.session = null;
        continue;
      }
      if (this.listened.has(channel)) return;
      try {
        await client.query(`LISTEN ${channel}`);
        this.listened.add(channel);
        return;
      } catch {
        // The connection died under us; the drop handler has started a new session that LISTENs again.
        if (this.client === client) this.dropped(client, undefined);
      }
    }
  }

  private async connect(reconnecting: boolean): Promise<void> {
    for (let delay = 100; !this.closed && this.subscriptions.size > 0; delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS)) {
      let client: PoolClient | null = null;
      try {
        client = await this.pool.connect();
        const current = client;
        current.on('notification', (message) => this.deliver(message.channel, message.payload ?? ''));
        current.on('error', (error) => this.dropped(current, error));
        current.on('end', () => this.dropped(current, undefined));
        const channels = new Set([...this.subscriptions].map((s) => s.channel));
        for (const channel of channels) await current.query(`LISTEN ${channel}`);
        if (this.closed || this.subscriptions.size === 0) {
          current.release(true);
          return;
        }
        this.client = current;
        this.listened = channels;
        this.startHeartbeat();
        if (reconnecting) for (const s of this.subscriptions) safely(() => s.onReconnect?.());
        return;
      } catch (error) {
        try {
          client?.release(error instanceof Error ? error : true);
        } catch {
          // Already released by its own error handling.
        }
        await sleep(delay);
      }
    }
  }

  private dropped(client: PoolClient, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = null;
    this.listened = new Set();
    try {
      client.release(error ?? true);
    } catch {
      // Releasing twice throws; the connection is gone either way.
    }
    this.session = this.closed || this.subscriptions.size === 0 ? null : this.connect(true);
  }

  private startHeartbeat(): void {
    if (this.heartbeat || !this.timeouts.listenerHeartbeat) return;
    this.heartbeat = setInterval(() => void this.beat(), this.timeouts.listenerHeartbeat);
    // A check must never keep a finished process alive.
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** One check of the listening connection; one at a time, and none while a new connection is being made. */
  private async beat(): Promise<void> {
    const client = this.client;
    if (!client || this.beating) return;
    this.beating = true;
    try {
      const limit = (this.timeouts.statement || DEFAULT_TIMEOUTS.statement) + CLIENT_GRACE_MS;
      await withDeadline(client.query('SELECT 1'), limit, 'checking the listening connection');
    } catch (error) {
      // Dropped as a broken connection (the pool destroys it); a new one LISTENs and the caches resync.
      this.dropped(client, error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.beating = false;
    }
  }

  private deliver(channel: string, payload: string): void {
    for (const s of this.subscriptions) if (s.channel === channel) safely(() => s.onMessage(payload));
  }

  private async stop(subscription: Subscription): Promise<void> {
    this.subscriptions.delete(subscription);
    const client = this.client;
    if (!client) return;
    if (this.subscriptions.size === 0) {
      await this.release();
      return;
    }
    if (![...this.subscriptions].some((s) => s.channel === subscription.channel)) {
      this.listened.delete(subscription.channel);
      await client.query(`UNLISTEN ${subscription.channel}`).catch(() => undefined);
    }
  }

  private async release(): Promise<void> {
    this.stopHeartbeat();
    const client = this.client;
    this.client = null;
    this.session = null;
    this.listened = new Set();
    if (!client) return;
    client.removeAllListeners('notification');
    // A connection that listened must not go back to the pool: destroy it instead of UNLISTENing.
    client.release(true);
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A failing listener must not stop the others, nor the connection.
  }
}
