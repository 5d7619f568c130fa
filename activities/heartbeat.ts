/** The one heartbeat loop: activities that may run long (a model call, a tool call, grading) heartbeat while they wait,
 * so the workflow notices a dead worker within the heartbeat timeout instead of the start-to-close timeout. */
import { activityInfo, heartbeat } from '@temporalio/activity';

/** Run fn, heartbeating every `everyMs` (with `details`, which Temporal shows on the pending activity). */
export async function withHeartbeat<T>(fn: () => Promise<T>, opts: { everyMs: number; details?: unknown }): Promise<T> {
  // Local activities cannot heartbeat (their worker reports them with the workflow task).
  if (activityInfo().isLocal) return fn();
  const timer = setInterval(() => heartbeat(opts.details), opts.everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
