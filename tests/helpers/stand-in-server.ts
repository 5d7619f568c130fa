/** A stand-in HTTP server for client unit tests: it records each JSON request body and answers with whatever the
 * test queued (a default once the queue is empty). */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  body: unknown;
}

export interface StandIn {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  bodies: Record<string, unknown>[];
  queue: Answer[];
  close(): Promise<void>;
}

export async function startStandIn(fallback: Answer): Promise<StandIn> {
  const bodies: Record<string, unknown>[] = [];
  const queue: Answer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const { status, body } = queue.shift() ?? fallback;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    queue,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
