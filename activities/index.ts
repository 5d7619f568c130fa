/** All activities, built from their dependencies (the activities-dependency-injection pattern): the worker passes real
 * clients, unit tests pass fakes, and workflows type their proxies with `Activities`. */
import type { Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import type { Config } from '../common/config';
import { createAttestationActivities } from './attestation';
import { createEpisodeActivities } from './episode';
import { createEvaluationActivities } from './evaluation';
import { createPipelineActivities } from './pipeline';
import { createPolicyActivities } from './policies';
import { createSandboxActivities, SessionRegistry } from './sandbox';
import { createSmokeActivities } from './smoke';
import { createStarActivities } from './star';
import { createTrainingActivities } from './training-coordinator';

export interface ActivityDeps {
  config: Config;
  pool: Pool;
  kafka: Kafka;
  /** Lazily connected, shared idempotent producer. */
  producer: () => Promise<Producer>;
}

export interface WorkerLocal {
  /** This process's own task queue (sandbox affinity). */
  hostQueue: string;
  /** The harness sessions this process holds. */
  sessions: SessionRegistry;
}

export function createActivities(deps: ActivityDeps, local: WorkerLocal = { hostQueue: 'unset-host-queue', sessions: new SessionRegistry() }) {
  return {
    ...createSmokeActivities(deps),
    ...createEpisodeActivities(deps),
    ...createEvaluationActivities(deps),
    ...createPolicyActivities(deps),
    ...createSandboxActivities({ ...deps, ...local }),
    ...createTrainingActivities(deps),
    ...createAttestationActivities(deps),
    ...createStarActivities(deps),
    ...createPipelineActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
