import net from 'node:net';

interface Link {
  client: net.Socket;
  upstream: net.Socket;
}

/** What the proxy does to the next client message that contains a given text (a statement). */
export type MessageFault =
  /** Forward it, then cut the connection before the server's answer comes back. */
  | 'cut-after'
  /** Drop it and cut the connection: the server never sees it. */
  | 'cut-before';

/**
 * A TCP proxy in front of the database, so a test can take the database away (refuse and cut every
 * connection), make the network go silent (blackhole), or cut one connection at one statement, and bring it
 * back on the same address without touching the server.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly links = new Set<Link>();
  private silent = false;
  private fault: { text: string; kind: MessageFault; hit: () => void } | null = null;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** The database "goes down": new connections are refused, open ones are cut. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream.destroy();
    }
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * A silent network cut: connections stay open and new ones are accepted, but no byte gets through in either
   * direction, and nobody is told (no reset, no close), as when a cable or a firewall drops packets.
   */
  blackhole(): void {
    this.silent = true;
    for (const { client, upstream } of this.links) {
      client.pause();
      upstream.pause();
    }
  }

  /** The network is back: what was held is delivered and traffic flows again. */
  restore(): void {
    this.silent = false;
    for (const { client, upstream } of this.links) {
      client.resume();
      upstream.resume();
    }
  }

  /**
   * The connections open now go silent for good, while new ones work: as when a firewall or NAT forgets a long
   * idle connection. Neither end is told; nothing sent on them arrives.
   */
  strand(): void {
    for (const { client, upstream } of this.links) {
      client.removeAllListeners('data');
      upstream.removeAllListeners('data');
      client.pause();
      upstream.pause();
    }
  }

  /** Arms a one-time fault on the next client message containing `text`; resolves when it struck. */
  failAt(text: string, kind: MessageFault): Promise<void> {
    return new Promise((hit) => {
      this.fault = { text, kind, hit };
    });
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    const link: Link = { client, upstream };
    this.links.add(link);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      const fault = this.fault;
      if (fault && chunk.includes(fault.text)) {
        this.fault = null;
        if (fault.kind === 'cut-after') upstream.end(chunk);
        else upstream.destroy();
        client.destroy();
        fault.hit();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    if (this.silent) {
      client.pause();
      upstream.pause();
    }
  }
}
