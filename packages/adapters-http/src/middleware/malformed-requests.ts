import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemOf, PROBLEM_CONTENT_TYPE, wireProblem, type ProblemBody } from './problem';

/** Node's status for what its parser refused (as its own default answer chooses), in a Problem body of that status. */
function answerTo(code: string | undefined): ProblemBody {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return wireProblem('request-header-fields-too-large', 431, 'the request headers exceed the 16 KiB this service reads');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return problemOf('payload-too-large', "the request body's chunk extensions exceed what this service reads");
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return wireProblem('request-timeout', 408, 'the request did not arrive in time');
    default:
      return problemOf(
        'invalid-format',
        `the request is not well-formed HTTP/1.1 (${code ?? 'parse error'}): an unknown method, or a malformed line or header`,
      );
  }
}

/** What Node keeps of the answer in progress on a connection (`_httpMessage`, null once it is sent in full). */
type ServerSocket = Duplex & { readonly _httpMessage?: object | null };

/**
 * Requests Node's parser refuses before any route sees them (a method it does not know, headers too large, a
 * malformed line) are answered with Problem JSON like every other error, instead of Node's empty default answer,
 * with the status Node would send. Only on a connection owing no answer: behind a request still being handled, the
 * refusal would be read as that request's answer (a 400 says nothing was done, and it may have been), so the
 * connection is closed instead and the earlier request's outcome stays unknown, for its retry under its key.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: ServerSocket) => {
    if (!socket.writable || socket._httpMessage) return void socket.destroy(error);
    const problem = answerTo(error.code);
    const body = JSON.stringify(problem);
    socket.end(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
