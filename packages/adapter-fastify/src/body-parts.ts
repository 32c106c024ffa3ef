import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { bodyLength, type BodyPart } from '@siterest/core';

/**
 * An answer's body in pieces (`SiteResponse.bodyParts`) as a Fastify payload. Fastify takes one buffer, a string
 * or a stream; joining the pieces would copy tens of kilobytes into a fresh buffer per request, so they go out
 * as a stream instead. Piped into the Node response (Fastify's own sending), they are written corked, after
 * the stream has ended, so they leave in one system call rather than one per piece; anything else the app puts
 * in between (an onSend hook's compression) reads it as an ordinary stream.
 */
export class BodyParts extends Readable {
  private next = 0;

  constructor(private readonly parts: readonly BodyPart[]) {
    super();
  }

  override _read(): void {
    while (this.next < this.parts.length) if (!this.push(this.parts[this.next++])) return;
    this.push(null);
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Only untouched and into a whole response; with trailers (`end: false`) Fastify ends the response itself.
    if (this.next !== 0 || this.readableFlowing !== null || !(destination instanceof ServerResponse) || options?.end === false) {
      return super.pipe(destination, options);
    }
    const parts = this.parts;
    this.next = parts.length;
    // Written once the stream has ended, so that Fastify, which watches both, sees the source done first.
    this.once('end', () => {
      // The length, as Fastify gives a buffer's; set here, not on the reply, because an onSend hook may still
      // replace the payload or add trailers (a chunked answer must not carry a Content-Length).
      if (!destination.headersSent && !destination.hasHeader('content-length') && !destination.hasHeader('transfer-encoding')) {
        destination.setHeader('content-length', bodyLength(parts));
      }
      destination.cork();
      for (const part of parts) destination.write(part);
      destination.end();
    });
    this.push(null);
    this.resume();
    return destination;
  }
}
