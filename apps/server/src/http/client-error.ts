import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { ApiError, errorBody } from '../services/api-error.ts';
import { securityHeaderValues } from './security-headers.ts';

/**
 * Errors Node's HTTP parser raises before Express sees a request (a request line or headers over
 * Node's limit, a line that is not HTTP, a request that took too long to arrive) answered like every
 * other error: the envelope of docs/contract.md §1 and the security headers, instead of Node's bare
 * `431`/`400`/`408` with neither.
 */

/** The answer to a `clientError` by its Node error code; null when the peer is gone (nothing to tell it). */
export function clientErrorAnswer(code: string | undefined): ApiError | null {
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'HEADERS_TOO_LARGE',
        'headers: the request line and headers are larger than allowed',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('PAYLOAD_TOO_LARGE', 'body: its chunk extensions are larger than allowed');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT', 'the request did not arrive in time');
    default:
      return new ApiError('VALIDATION_ERROR', 'the request is not valid HTTP/1.1');
  }
}

/** A whole HTTP/1.1 response carrying the error's envelope, closing the connection (the parser's state is lost). */
export function rawErrorResponse(error: ApiError, headers: Readonly<Record<string, string>>): string {
  const body = JSON.stringify(errorBody(error));
  const lines = [
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * Listens for the server's `clientError`. The socket may already be closed, or may be carrying
 * another request's answer that is not finished (a keep-alive or pipelined connection): only a
 * writable socket with no answer in progress gets the response; any other is destroyed, never
 * written into. (Node's own default decides the same way, from its private `_httpMessage`.)
 */
export function answerClientErrors(
  server: Server,
  options: { securityHeaders: RequestHandler; logger: Logger },
): void {
  const answering = new WeakMap<Duplex, number>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once('close', () => answering.set(socket, (answering.get(socket) ?? 1) - 1));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = clientErrorAnswer(error.code);
    if (!answer || !socket.writable || (answering.get(socket) ?? 0) > 0) {
      socket.destroy();
      return;
    }
    // Never the error's rawPacket: it holds what the client sent, tokens included.
    options.logger.info('request refused before routing', { status: answer.status, code: error.code });
    // Closed once the answer is handed to the system: a peer that never reads holds nothing open.
    socket.end(rawErrorResponse(answer, securityHeaderValues(options.securityHeaders)), () =>
      socket.destroy(),
    );
  });
}
