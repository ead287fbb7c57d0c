import type { IncomingMessage, ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** Answers after `ms`, the way a slow provider does; the timers are cleared when the simulator closes. */
export function answerLate(hanging: Set<NodeJS.Timeout>, ms: number, answer: () => void): void {
  const timer = setTimeout(() => {
    hanging.delete(timer);
    answer();
  }, ms);
  hanging.add(timer);
}
