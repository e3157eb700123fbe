import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { ApiError } from '../services/api-error.ts';
import { answerClientErrors, clientErrorAnswer, rawErrorResponse } from './client-error.ts';
import { securityHeaders } from './security-headers.ts';

describe('clientErrorAnswer', () => {
  it('maps Node’s parser errors to the project’s codes, and a gone peer to nothing', () => {
    expect(clientErrorAnswer('HPE_HEADER_OVERFLOW')?.status).toBe(431);
    expect(clientErrorAnswer('HPE_CHUNK_EXTENSIONS_OVERFLOW')?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')?.status).toBe(408);
    for (const code of [
      'HPE_INVALID_METHOD',
      'HPE_INVALID_HEADER_TOKEN',
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      undefined,
    ]) {
      expect(clientErrorAnswer(code)?.code).toBe('VALIDATION_ERROR');
    }
    expect(clientErrorAnswer('ECONNRESET')).toBeNull();
  });
});

describe('rawErrorResponse', () => {
  it('is a whole HTTP/1.1 answer: status line, headers, the envelope with its exact length, Connection: close', () => {
    const raw = rawErrorResponse(new ApiError('VALIDATION_ERROR', 'é'), {
      'X-Content-Type-Options': 'nosniff',
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head?.split('\r\n')).toEqual([
      'HTTP/1.1 400 Bad Request',
      'X-Content-Type-Options: nosniff',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body ?? '')}`,
      'Connection: close',
    ]);
    expect(JSON.parse(body ?? '')).toEqual({ status: 'error', code: 'VALIDATION_ERROR', messages: ['é'] });
  });
});

describe('answerClientErrors', () => {
  it('never writes into a connection whose previous answer is still being written: it closes it', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((_request, response) => held.push(response));
    answerClientErrors(server, {
      securityHeaders: securityHeaders({ publicUrl: () => 'http://127.0.0.1' }),
      logger: createLogger('silent'),
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => {
      received += data.toString('latin1');
    });
    // Pipelined: a good request (whose answer the server holds), then headers over the limit.
    socket.write(
      'GET /a HTTP/1.1\r\nHost: x\r\n\r\n' +
        `GET /b HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    await once(socket, 'close');
    expect(held).toHaveLength(1);
    expect(received).toBe('');
    server.close();
  });
});
