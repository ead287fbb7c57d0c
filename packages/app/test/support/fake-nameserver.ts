import { createSocket } from 'node:dgram';

/**
 * What the nameserver does with a query of one type: answer with this address (after a while), with none, fail
 * (SERVFAIL), or say nothing.
 */
export type Answer = { readonly address: string; readonly afterMs?: number } | 'none' | 'servfail' | 'silent';

const TYPE_A = 1;
const TYPE_AAAA = 28;

/**
 * A DNS server on UDP for tests: every name has what `answers` gives its query type (A or AAAA), so a test can
 * make a receiver's nameserver hang, drop one family, or answer. Counts the queries it read.
 */
export async function startNameserver(answers: { a: Answer; aaaa: Answer }) {
  const socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', (query, from) => {
    queries++;
    // The question: after the 12-byte header, the name's labels up to a zero length, then its type and class.
    let end = 12;
    while (end < query.length && query[end] !== 0) end += query[end] + 1;
    if (end + 5 > query.length) return;
    const type = query.readUInt16BE(end + 1);
    const question = query.subarray(12, end + 5);
    const answer = type === TYPE_A ? answers.a : type === TYPE_AAAA ? answers.aaaa : 'none';
    if (answer === 'silent') return;
    const record = typeof answer === 'object' ? resourceRecord(type, answer.address) : Buffer.alloc(0);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // A response, recursion desired and available, no error (or SERVFAIL, response code 2).
    header.writeUInt16BE(answer === 'servfail' ? 0x8182 : 0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(record.length > 0 ? 1 : 0, 6);
    const reply = Buffer.concat([header, question, record]);
    setTimeout(() => socket.send(reply, from.port, from.address), typeof answer === 'object' ? (answer.afterMs ?? 0) : 0);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, queries: () => queries, close: () => socket.close() };
}

/** One answer for the question's name (a pointer to it), 60 s to live; an IPv6 address written in full (8 groups). */
function resourceRecord(type: number, address: string): Buffer {
  if (type === TYPE_AAAA && address.split(':').length !== 8) throw new Error(`${address}: write the IPv6 address in full, 8 groups`);
  const data =
    type === TYPE_A
      ? Buffer.from(address.split('.').map(Number))
      : Buffer.from(address.split(':').flatMap((group) => [parseInt(group.padStart(4, '0').slice(0, 2), 16), parseInt(group.padStart(4, '0').slice(2), 16)]));
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(data.length, 10);
  return Buffer.concat([fixed, data]);
}
