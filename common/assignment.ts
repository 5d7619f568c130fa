/** Which open group the coordinator's next episode joins. Pure and deterministic: TrainingRunWorkflow calls it, and so
 * does the pool simulation in benchmarks/training-pipeline.ts.
 *
 *   fill-nearest  the open group nearest completion (done + in flight), first opened among equals; a new group only
 *                 when no open group can take one more. A group seals after about one episode time, so the first
 *                 trainable batch comes soon and a group's episodes span few policy versions (the seed's choice).
 *   round-robin   the groups take turns: the next open group after the one that got the previous episode, in opening
 *                 order, with a new group's turn after the newest while fewer than poolSize are open. Each slot
 *                 ends up on its own group, so groups fill at 1/poolSize of the rate; kept as the baseline.
 */
import { z } from 'zod';

export const Assignment = z.enum(['fill-nearest', 'round-robin']);
export type Assignment = z.infer<typeof Assignment>;

export interface GroupSlots {
  done: number;
  inFlight: number;
}

export interface AssignmentInput {
  /** The open groups, in the order they opened. */
  groups: readonly GroupSlots[];
  groupSize: number;
  /** The run still needs another group (beyond those open or queued). */
  mayOpen: boolean;
  /** Round-robin opens at most this many groups at once (one per slot). */
  poolSize: number;
  /** Index in `groups` of the group that got the previous episode; -1 when none (or it has sealed). */
  last: number;
}

/** The index of the open group that takes the next episode, 'new' to open a group for it, or null when none can. */
export function nextGroup(assignment: Assignment, input: AssignmentInput): number | 'new' | null {
  const { groups, groupSize } = input;
  const fill = (i: number) => groups[i].done + groups[i].inFlight;
  const hasRoom = (i: number) => fill(i) < groupSize;
  if (assignment === 'fill-nearest') {
    let best = -1;
    for (let i = 0; i < groups.length; i++) if (hasRoom(i) && (best < 0 || fill(i) > fill(best))) best = i;
    return best >= 0 ? best : input.mayOpen ? 'new' : null;
  }
  // Positions 0..k-1 are the open groups, position k is a new group's turn.
  const k = groups.length;
  const canOpen = input.mayOpen && k < input.poolSize;
  const start = input.last >= 0 && input.last < k ? input.last + 1 : 0;
  for (let step = 0; step <= k; step++) {
    const pos = (start + step) % (k + 1);
    if (pos === k ? canOpen : hasRoom(pos)) return pos === k ? 'new' : pos;
  }
  return null;
}
