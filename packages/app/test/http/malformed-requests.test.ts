import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerMalformedRequests } from '@rcs/adapters-http';
import { useTestApi } from '../support/test-api';

/** Requests Node's HTTP parser refuses before any route sees them, on the service's own server. */
describe('malformed requests', () => {
  const ctx = useTestApi();

  it('answers with Problem JSON what the HTTP parser refuses before any route: an unknown method, headers too large', async () => {
    const server = createServer(ctx.api.http).listen(0, '127.0.0.1');
    answerMalformedRequests(server);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    /** The answers to `requests` sent on one connection, each once the one before is answered, until the service closes it. */
    const raw = async (...requests: string[]) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      for (const [i, head] of requests.entries()) {
        const sent = `${head}\r\nHost: x\r\n\r\n`;
        if (i === requests.length - 1) socket.end(sent);
        else {
          socket.write(sent);
          await once(socket, 'data');
        }
      }
      await once(socket, 'close');
      return Buffer.concat(chunks)
        .toString('utf8')
        .split(/(?=HTTP\/1\.1 \d{3} )/)
        .map((answer) => {
          const [headers, body] = answer.split('\r\n\r\n');
          const type = /content-type: ([^;\r]*)/i.exec(headers)?.[1];
          return {
            status: Number(headers.split(' ')[1]),
            type,
            body: type === 'application/problem+json' ? (JSON.parse(body) as { code: string }) : undefined,
          };
        });
    };
    try {
      const [unknownMethod] = await raw('FOO /v1/transfers HTTP/1.1');
      expect(unknownMethod).toMatchObject({ status: 400, type: 'application/problem+json', body: { status: 400, code: 'invalid-format' } });
      const [hugeHeaders] = await raw(`GET /v1/transfers HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`);
      expect(hugeHeaders).toMatchObject({ status: 431, type: 'application/problem+json', body: { status: 431, code: 'request-header-fields-too-large' } });
      // On a connection kept alive, after an answer already sent in full.
      const reused = await raw('GET /health HTTP/1.1', 'FOO /v1/transfers HTTP/1.1');
      expect(reused.map((answer) => [answer.status, answer.body?.code])).toEqual([
        [200, undefined],
        [400, 'invalid-format'],
      ]);
      // Behind a request still being handled, a refusal would read as its answer: the connection is closed instead.
      const pipelined = connect(port, '127.0.0.1');
      const text: Buffer[] = [];
      pipelined.on('data', (chunk: Buffer) => text.push(chunk));
      pipelined.end('GET /health HTTP/1.1\r\nHost: x\r\n\r\nFOO /v1/transfers HTTP/1.1\r\nHost: x\r\n\r\n');
      await once(pipelined, 'close');
      expect(Buffer.concat(text).toString('utf8')).not.toMatch(/^HTTP\/1\.1 400/m);
    } finally {
      server.close();
    }
  });
});
