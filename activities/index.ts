/** All activities, built from their dependencies (the activities-dependency-injection pattern): the worker passes real
 * clients, unit tests pass fakes, and workflows type their proxies with `Activities`. */
import type { Kafka, Producer } from 'kafkajs';
import type { Pool } from 'pg';
import type { Config } from '../common/config';
import { createSmokeActivities } from './smoke';

export interface ActivityDeps {
  config: Config;
  pool: Pool;
  kafka: Kafka;
  /** Lazily connected, shared idempotent producer. */
  producer: () => Promise<Producer>;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSmokeActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
