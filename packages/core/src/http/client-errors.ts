import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { coreErrors } from './errors.js';
import { encodeJson } from './json.js';

/** The error a Node HTTP server reports for a request it could not parse. */
type ClientError = Error & { code?: string; rawPacket?: unknown };

/**
 * Whether the refused request was a HEAD, whose answer must have no body (a client reads the bytes after the
 * headers as garbage). Node hands over the data it was parsing; a request line is at its start when the request
 * came in one piece, which is how such requests come. Unknown counts as not HEAD.
 */
function isHead(error: ClientError): boolean {
  const packet = error.rawPacket;
  return Buffer.isBuffer(packet) && packet.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/** WordPress's error envelope for a request Node's parser refused: headers too large, too slow, or malformed. */
function envelopeFor(error: ClientError) {
  if (error.code === 'HPE_HEADER_OVERFLOW') return coreErrors.headersTooLarge();
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return coreErrors.requestTimeout();
  return coreErrors.badRequest();
}

/**
 * The raw HTTP answer to a request Node's parser refused, as WordPress's JSON envelope rather than Node's empty
 * 431 or 400. Such a request never reaches a route, so it is answered on the socket and the connection closed.
 */
function clientErrorAnswer(error: ClientError, withBody: boolean): string {
  const apiError = envelopeFor(error);
  const body = encodeJson(apiError.toWire());
  return [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? ''}`,
    'Content-Type: application/json; charset=UTF-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    withBody ? body : '',
  ].join('\r\n');
}

/** A `clientError` listener (Node's `server.on('clientError', …)`, Fastify's `clientErrorHandler` option). */
export function handleClientError(error: ClientError, socket: Duplex): void {
  // A connection the client already dropped has nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(error, !isHead(error)));
}

/**
 * Makes a Node HTTP server answer requests its parser refuses (over-large headers, malformed request lines,
 * header timeouts) with WordPress's JSON envelope. The adapters cannot do it from inside the app: these requests
 * never reach the app, so the app's server must be told — `answerClientErrors(app.listen(…))` for Express; for
 * Fastify pass `clientErrorHandler: handleClientError` to `Fastify({ … })`.
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', handleClientError);
  return server;
}
