/**
 * From sealed groups and their stored trajectory records to the learner's batch, and back from what the learner
 * reports to the step's counts.
 *
 * Token in, token out: a trajectory travels as the server's own prompt ids, completion ids and logprobs, turn by turn;
 * nothing is re-tokenized and nothing is padded. A trajectory that lacks them is refused here, with its reason. The
 * policy-lag rule is the learner's alone (loss.py `fresh_mask`, applied per trajectory while the whole group still
 * sets the baseline): this side sends every well-formed trajectory and counts what the learner says it dropped.
 */
import { TrajectoryRecord } from '../../common/trajectory';
import type { GroupRecord, RejectReason, StepResult } from '../../common/training';

/** One model call, as the learner's `Step` takes it (protocol.py). */
export interface LearnerStep {
  prompt_ids: number[];
  completion_ids: number[];
  completion_logprobs: number[];
  policy_version: number;
  /** Per completion token, whether the server's grammar forced it; the learner leaves those out of the loss. */
  completion_forced?: boolean[];
}

type Built = { ok: true; steps: LearnerStep[]; minVersion: number } | { ok: false; reason: RejectReason; detail: string };

/** A trajectory record's model calls as learner steps, or why it cannot be trained on. (Chains, where a turn's prompt
 * extends the previous one, are built by the learner.) */
export function learnerSteps(raw: unknown): Built {
  const parsed = TrajectoryRecord.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'no-turns', detail: `not a trajectory record: ${parsed.error.issues[0]?.message}` };
  const turns = parsed.data.turns;
  if (!turns.length) return { ok: false, reason: 'no-turns', detail: 'the episode has no model turns' };
  const steps: LearnerStep[] = [];
  for (const { turn, assistant: a } of turns) {
    if (!a.promptTokenIds?.length || !a.tokenIds) return { ok: false, reason: 'missing-token-ids', detail: `turn ${turn}: the server returned no prompt/completion token ids` };
    if (!a.logprobs) return { ok: false, reason: 'missing-logprobs', detail: `turn ${turn}: ${a.tokenIds.length} completion tokens but no logprobs` };
    if (a.logprobs.length !== a.tokenIds.length) return { ok: false, reason: 'misaligned-logprobs', detail: `turn ${turn}: ${a.tokenIds.length} completion tokens but ${a.logprobs.length} logprobs` };
    const bad = a.logprobs.findIndex((x) => !Number.isFinite(x) || x > 0);
    if (bad >= 0) return { ok: false, reason: 'misaligned-logprobs', detail: `turn ${turn}: logprob ${a.logprobs[bad]} at token ${bad} is not a log probability` };
    if (a.forcedTokens && a.forcedTokens.length !== a.tokenIds.length) return { ok: false, reason: 'misaligned-logprobs', detail: `turn ${turn}: ${a.tokenIds.length} completion tokens but ${a.forcedTokens.length} forced flags` };
    steps.push({ prompt_ids: a.promptTokenIds, completion_ids: a.tokenIds, completion_logprobs: a.logprobs, policy_version: a.policyVersion, ...(a.forcedTokens ? { completion_forced: a.forcedTokens } : {}) });
  }
  return { ok: true, steps, minVersion: Math.min(...steps.map((s) => s.policy_version)) };
}

export interface BatchTrajectory {
  episodeId: string;
  reward: number;
  passed: boolean;
  steps: LearnerStep[];
}

export interface BuiltBatch {
  /** Groups with at least one well-formed trajectory, in the order read. */
  groups: { group: GroupRecord; trajectories: BatchTrajectory[] }[];
  /** Groups none of whose trajectories could be sent (with the last trajectory's reason). */
  rejectedGroups: StepResult['rejectedGroups'];
  rejectedTrajectories: StepResult['rejectedTrajectories'];
  /** Trajectories per lag (versionBefore - oldest step version), over every group read. */
  lagHistogram: Record<string, number>;
}

/** The groups read for a step, with their records (episode id -> stored record), as a batch. */
export function buildBatch(read: GroupRecord[], records: Map<string, unknown>, versionBefore: number): BuiltBatch {
  const out: BuiltBatch = { groups: [], rejectedGroups: [], rejectedTrajectories: [], lagHistogram: {} };
  for (const group of read) {
    const lag = versionBefore - Math.min(...group.episodes.map((e) => e.minPolicyVersion));
    const trajectories: BatchTrajectory[] = [];
    for (const e of group.episodes) {
      const l = String(versionBefore - e.minPolicyVersion);
      out.lagHistogram[l] = (out.lagHistogram[l] ?? 0) + 1;
      const built = learnerSteps(records.get(e.episodeId));
      if (!built.ok) out.rejectedTrajectories.push({ episodeId: e.episodeId, reason: built.reason, detail: built.detail });
      else trajectories.push({ episodeId: e.episodeId, reward: e.reward, passed: e.passed, steps: built.steps });
    }
    if (trajectories.length) out.groups.push({ group, trajectories });
    else out.rejectedGroups.push({ groupId: group.groupId, reason: out.rejectedTrajectories.at(-1)!.reason, lag });
  }
  return out;
}

/** The learner's batch (protocol.py TrainBatch) for the groups, with replayed SFT examples if any. */
export function trainBatch(groups: BuiltBatch['groups'], sftExamples: unknown[] = []): Record<string, unknown> {
  return {
    groups: groups.map((a) => ({ group_id: a.group.groupId, trajectories: a.trajectories.map((t) => ({ trajectory_id: t.episodeId, reward: t.reward, steps: t.steps })) })),
    ...(sftExamples.length ? { sft_examples: sftExamples } : {}),
  };
}

/** A trajectory the learner left out (protocol.py DroppedTrajectory). */
export interface Dropped {
  trajectory_id: string;
  group_id: string;
  reason: 'policy-lag' | 'too-long';
  lag: number;
}

export interface Counted {
  trained: BuildBatchGroup[];
  rejectedGroups: StepResult['rejectedGroups'];
  rejectedTrajectories: StepResult['rejectedTrajectories'];
}
type BuildBatchGroup = BuiltBatch['groups'][number];

/** What the learner reported, counted: a group it dropped whole is a rejected group (its reason, its largest lag); a
 * trajectory it dropped from a group it trained is a rejected trajectory. `maxPolicyLag` only words the detail. */
export function countDropped(sent: BuiltBatch['groups'], dropped: Dropped[], maxPolicyLag: number): Counted {
  const out: Counted = { trained: [], rejectedGroups: [], rejectedTrajectories: [] };
  for (const g of sent) {
    const mine = dropped.filter((d) => d.group_id === g.group.groupId);
    if (mine.length && mine.length >= g.trajectories.length) {
      out.rejectedGroups.push({ groupId: g.group.groupId, reason: mine[0]!.reason, lag: Math.max(...mine.map((d) => d.lag)) });
      continue;
    }
    for (const d of mine) {
      out.rejectedTrajectories.push({ episodeId: d.trajectory_id, reason: d.reason, detail: d.reason === 'policy-lag' ? `lag ${d.lag} > ${maxPolicyLag} versions` : 'a chain longer than the learner takes' });
    }
    const gone = new Set(mine.map((d) => d.trajectory_id));
    out.trained.push({ ...g, trajectories: g.trajectories.filter((t) => !gone.has(t.episodeId)) });
  }
  return out;
}
