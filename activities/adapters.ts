/** Publishing adapters is activities/learner/publish.ts; this type stays importable from here for
 * workflows/training-run.ts. */
export type { AdapterActivities } from './learner';
