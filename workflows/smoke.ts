/** SmokeWorkflow proves the wiring: Temporal runs an activity that writes a row to PostgreSQL and a message to Kafka,
 * then reads both back. Start it with
 *   temporal workflow start --type SmokeWorkflow --task-queue debugrl --input '{"message":"hello"}'
 */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { parseInput } from '../common/boundary';
import type { Activities } from '../activities';

export const SmokeInput = z
  .object({
    message: z.string().min(1, 'must not be empty').max(1000),
  })
  .strict();
export type SmokeInput = z.infer<typeof SmokeInput>;

export interface SmokeResult {
  rowId: string;
  kafka: { topic: string; partition: number; offset: string };
  readBack: { postgres: string; kafka: string };
}

const { smokeRoundTrip } = proxyActivities<Activities>({
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 5, initialInterval: '1s' },
});

export async function SmokeWorkflow(rawInput: unknown): Promise<SmokeResult> {
  const input = parseInput(SmokeInput, rawInput, 'SmokeWorkflow');
  return smokeRoundTrip({ workflowId: workflowInfo().workflowId, message: input.message });
}
