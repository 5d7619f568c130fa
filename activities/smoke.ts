import type { Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import { readRecord } from './kafka';

export const SMOKE_TOPIC = 'smoke';

export function createSmokeActivities(deps: { pool: Pool; kafka: Kafka; producer: () => Promise<Producer> }) {
  return {
    /** Writes one row and one Kafka message, then reads both back. Keyed by workflow id, so a retry rewrites nothing. */
    async smokeRoundTrip(input: { workflowId: string; message: string }) {
      const rowId = `smoke:${input.workflowId}`;
      await deps.pool.query(
        'insert into smoke_events (id, workflow_id, message) values ($1, $2, $3) on conflict (id) do nothing',
        [rowId, input.workflowId, input.message],
      );
      const producer = await deps.producer();
      const [sent] = await producer.send({ topic: SMOKE_TOPIC, messages: [{ key: rowId, value: input.message }] });
      const at = { topic: SMOKE_TOPIC, partition: sent.partition, offset: sent.baseOffset ?? sent.offset ?? '0' };
      const row = await deps.pool.query('select message from smoke_events where id = $1', [rowId]);
      const record = await readRecord(deps.kafka, at);
      return { rowId, kafka: at, readBack: { postgres: row.rows[0].message as string, kafka: record.value?.toString() ?? '' } };
    },
  };
}
