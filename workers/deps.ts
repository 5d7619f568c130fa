/** Opens the real clients the activities need, once per process. */
import { Pool } from 'pg';
import type { Producer } from 'kafkajs';
import type { ActivityDeps } from '../activities';
import { connectProducer, makeKafka } from '../activities/kafka';
import type { Config } from '../common/config';

export interface OpenDeps extends ActivityDeps {
  close(): Promise<void>;
}

export function openDeps(config: Config, clientId = `debugrl-${process.pid}`): OpenDeps {
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL, max: 8 });
  const kafka = makeKafka(config.DEBUGRL_KAFKA_BROKERS, clientId);
  let producer: Promise<Producer> | undefined;
  return {
    config,
    pool,
    kafka,
    producer: () => {
      producer ??= connectProducer(kafka).catch((e) => {
        producer = undefined; // let the next call retry the connection
        throw e;
      });
      return producer;
    },
    async close() {
      if (producer) await (await producer.catch(() => undefined))?.disconnect();
      await pool.end();
    },
  };
}
