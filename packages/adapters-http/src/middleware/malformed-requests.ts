import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemOf, PROBLEM_CONTENT_TYPE } from './problem';

/** Node's status for what its parser refused (as its own default answer chooses), with what to tell the caller. */
function answerTo(code: string | undefined): { status: number; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, detail: 'the request headers exceed the 16 KiB this service reads' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, detail: 'the request did not arrive in time' };
  return { status: 400, detail: `the request is not well-formed HTTP/1.1 (${code ?? 'parse error'}): an unknown method, or a malformed line or header` };
}

/**
 * Requests Node's parser refuses before any route sees them (a method it does not know, headers too large, a
 * malformed line) are answered with Problem JSON like every other error, instead of Node's empty default answer.
 * Their code is `invalid-format`; the status is the one Node would send.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    if (!socket.writable || socket.bytesWritten !== 0) return socket.destroy();
    const { status, detail } = answerTo(error.code);
    const body = JSON.stringify({ ...problemOf('invalid-format', detail), status });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
