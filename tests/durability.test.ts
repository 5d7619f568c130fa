/** The clients a worker holds survive their servers going away (issue 10, bug 2): a PostgreSQL connection killed
 * server-side is an event the pool handles, not an unhandled 'error' that ends the process; a failed Kafka send drops
 * the producer so the next one reconnects; and the one partition scanner reads exactly the asked-for range. Real
 * PostgreSQL and Kafka, except the producer test, which fakes kafkajs to fail a send on demand. */
import * as net from 'node:net';
import type { Kafka, Producer } from 'kafkajs';
import { Client } from 'pg';
import { makeKafka, scanPartition, sharedProducer, topicOffsets } from '../activities/kafka';
import { inTransaction, makePool } from '../activities/pg';
import { SMOKE_TOPIC } from '../activities/smoke';
import { config } from './helpers/services';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function terminateBackend(pid: number): Promise<void> {
  const admin = new Client({ connectionString: config.DEBUGRL_DATABASE_URL });
  await admin.connect();
  try {
    const r = await admin.query('select pg_terminate_backend($1) as ok', [pid]);
    expect(r.rows[0].ok).toBe(true);
  } finally {
    await admin.end();
  }
}

describe('makePool (real PostgreSQL)', () => {
  it('survives the server closing an idle pooled connection, and reconnects', async () => {
    const logged: string[] = [];
    const pool = makePool(config.DEBUGRL_DATABASE_URL, { max: 1 }, (m) => logged.push(m));
    try {
      const pid = (await pool.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      await terminateBackend(pid); // what a PostgreSQL restart does to every connection
      for (let i = 0; i < 50 && !logged.length; i++) await sleep(100);
      expect(logged.join('\n')).toMatch(/lost/);
      const again = (await pool.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      expect(again).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });

  it('survives losing a checked-out connection: its query fails, the pool carries on', async () => {
    const logged: string[] = [];
    const pool = makePool(config.DEBUGRL_DATABASE_URL, { max: 1 }, (m) => logged.push(m));
    try {
      const err = await inTransaction(pool, async (client) => {
        const pid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
        await terminateBackend(pid);
        for (let i = 0; i < 50 && !logged.length; i++) await sleep(100);
        await client.query('select 1');
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(logged.join('\n')).toMatch(/client lost/);
      // The broken client was destroyed, not handed out again (max: 1 would otherwise give it back).
      expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});

/** A TCP proxy to the real server that can be opened late, as a restarting server's port is. */
async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

function proxyTo(port: number, target: URL): Promise<net.Server> {
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port), target.hostname);
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  });
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

describe('makePool while the server restarts (real PostgreSQL behind a proxy)', () => {
  const real = new URL(config.DEBUGRL_DATABASE_URL);

  it('waits out a refused connection until the server is back', async () => {
    const port = await freePort();
    const url = new URL(config.DEBUGRL_DATABASE_URL);
    url.port = String(port);
    const logged: string[] = [];
    const pool = makePool(url.toString(), { max: 1 }, (m) => logged.push(m), 20_000);
    let server: net.Server | undefined;
    try {
      const query = pool.query('select 1 as one');
      await sleep(1200); // refused all this while
      server = await proxyTo(port, real);
      expect((await query).rows[0].one).toBe(1);
      expect(logged.join('\n')).toMatch(/connect failed \(.*ECONNREFUSED.*\); retrying/);
    } finally {
      await pool.end();
      server?.close();
    }
  });

  it('gives up after its limit, with the connection error', async () => {
    const url = new URL(config.DEBUGRL_DATABASE_URL);
    url.port = String(await freePort());
    const pool = makePool(url.toString(), { max: 1 }, () => undefined, 1000);
    const t0 = Date.now();
    try {
      await expect(pool.query('select 1')).rejects.toThrow(/ECONNREFUSED/);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    } finally {
      await pool.end();
    }
  });

  it('does not retry a wrong password', async () => {
    const url = new URL(config.DEBUGRL_DATABASE_URL);
    url.password = 'not-the-password';
    const logged: string[] = [];
    const pool = makePool(url.toString(), { max: 1 }, (m) => logged.push(m), 20_000);
    try {
      await expect(pool.query('select 1')).rejects.toThrow(/password/);
      expect(logged).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

describe('scanPartition (real Kafka)', () => {
  const kafka = makeKafka(config.DEBUGRL_KAFKA_BROKERS, 'durability-test');
  const producer = sharedProducer(kafka);
  afterAll(async () => producer.close());

  it('visits exactly [from, until), in order, and stops early when asked', async () => {
    const tag = `scan-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const p = await producer.get();
    const sent = await p.send({ topic: SMOKE_TOPIC, messages: [0, 1, 2, 3].map((i) => ({ value: `${tag}:${i}`, headers: { tag } })) });
    const first = BigInt(sent[0].baseOffset ?? '0');
    const partition = sent[0].partition;

    const seen: string[] = [];
    const n = await scanPartition(kafka, { topic: SMOKE_TOPIC, partition, from: String(first + 1n), until: String(first + 3n) }, (m) => {
      seen.push(m.value!.toString());
    });
    expect(n).toBe(2);
    expect(seen).toEqual([`${tag}:1`, `${tag}:2`]);

    // Default range: the whole partition up to its end; stop at the first of ours.
    let offset: string | undefined;
    const visited = await scanPartition(kafka, { topic: SMOKE_TOPIC, partition }, (m) => {
      if (m.headers?.tag?.toString() !== tag) return false;
      offset = m.offset;
      return true;
    });
    expect(offset).toBe(String(first));
    const [offsets] = await topicOffsets(kafka, SMOKE_TOPIC);
    expect(BigInt(visited)).toBe(first - BigInt(offsets.low) + 1n);
  }, 90_000);

  it('returns at once for an empty range', async () => {
    const [o] = await topicOffsets(kafka, SMOKE_TOPIC);
    expect(await scanPartition(kafka, { topic: SMOKE_TOPIC, partition: o.partition, from: o.high }, () => true)).toBe(0);
  });
});

describe('sharedProducer (fake kafkajs)', () => {
  function fakeKafka(failSends: number) {
    let made = 0;
    let disconnected = 0;
    let sends = 0;
    const kafka = {
      producer: () => {
        made++;
        const producer = {
          connect: async () => undefined,
          disconnect: async () => void disconnected++,
          send: async () => {
            if (sends++ < failSends) throw new Error('Connection error: connect ECONNREFUSED');
            return [{ topicName: 't', partition: 0, errorCode: 0, baseOffset: '0' }];
          },
        };
        return producer as unknown as Producer;
      },
    } as unknown as Kafka;
    return { kafka, made: () => made, disconnected: () => disconnected };
  }

  it('reuses one producer while sends succeed', async () => {
    const f = fakeKafka(0);
    const shared = sharedProducer(f.kafka, () => undefined);
    await (await shared.get()).send({ topic: 't', messages: [{ value: 'a' }] });
    await (await shared.get()).send({ topic: 't', messages: [{ value: 'b' }] });
    expect(f.made()).toBe(1);
  });

  it('drops a producer whose send failed and connects a new one for the retry', async () => {
    const f = fakeKafka(1);
    const logged: string[] = [];
    const shared = sharedProducer(f.kafka, (m) => logged.push(m));
    const first = await shared.get();
    await expect(first.send({ topic: 't', messages: [{ value: 'a' }] })).rejects.toThrow(/ECONNREFUSED/);
    expect(logged.join('\n')).toMatch(/producer dropped/);
    const second = await shared.get();
    expect(second).not.toBe(first);
    await expect(second.send({ topic: 't', messages: [{ value: 'a' }] })).resolves.toHaveLength(1);
    expect(f.made()).toBe(2);
    await sleep(10);
    expect(f.disconnected()).toBe(1);
  });
});
