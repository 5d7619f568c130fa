/** Opens the real clients the activities need, once per process. */
import type { ActivityDeps } from '../activities';
import { makeKafka, sharedProducer } from '../activities/kafka';
import { makePool } from '../activities/pg';
import type { Config } from '../common/config';
import { pgConnectionString } from '../common/connections';

export interface OpenDeps extends ActivityDeps {
  close(): Promise<void>;
}

export function openDeps(config: Config, clientId = `debugrl-${process.pid}`): OpenDeps {
  // Both survive their server's restart: a lost connection fails the activity using it (Temporal retries it) and is
  // logged, instead of an unhandled 'error' event ending the process.
  const pool = makePool(pgConnectionString(config), { max: 8 });
  const kafka = makeKafka(config, clientId);
  const producer = sharedProducer(kafka);
  return {
    config,
    pool,
    kafka,
    producer: () => producer.get(),
    async close() {
      await producer.close();
      await pool.end();
    },
  };
}
