/**
 * The episode reward for GRPO: one pure function per component, summed by `episodeReward`. Pure and deterministic, so
 * a group record can be re-scored from its stored trajectories, and the config version is stored with every group.
 *
 *   total = success + failingTests + budgetExhausted + guardExit + turnCost + process   (then the success floor)
 *
 * The numbers come from the seed write-up (training-an-llm-to-use-a-debugger, "The GRPO recipe"). Its earlier run
 * showed the hack this shape prevents: a guard that stopped a stalling episode also spared it the failing-test,
 * turn-cap and most turn-cost penalties, while process credit still paid out, so guard-stopped failures averaged
 * +0.095 against −0.949 for turn-cap failures on the same tasks, and the policy learned to stall. Here:
 *   - process credit on a failure is capped (0.10), far below the failure penalties;
 *   - a guard exit pays its own penalty (−0.60, at least the turn-cap penalty and never reduced) and the whole turn
 *     budget's cost, so stopping early is never cheaper than running out of turns with the same work;
 *   - a success never scores below the floor (0.50), which is above the best possible failure (−0.40).
 * Property tests in tests/reward.test.ts check those claims over random inputs and configs.
 *
 * Infrastructure failures (exit reason "error") are never scored: `isScorable` says so and `episodeReward` throws.
 */
import { z } from 'zod';
import { episodeFacts, INSPECTIONS } from './metrics';
import type { TrajectoryRecord } from './trajectory';

const weight = (max: number) => z.number().min(0).max(max);

export const RewardConfig = z
  .object({
    version: z.string().regex(/^reward\/v\d+$/),
    /** A verified fix: the grader's tests all pass. The unit every other number is measured against. */
    success: weight(10),
    /** Seed: −1.0 for failing tests, reduced by up to 50 % for measured test progress. */
    failingTestsPenalty: weight(10),
    /** Seed: −0.5 for reaching the turn cap, reduced by up to 50 % for test progress. Context exhaustion is the same
     * kind of ending (the budget ran out), so it pays the same. */
    budgetExhaustedPenalty: weight(10),
    /** Seed: "each reduced by up to 50 % for measured test progress". progress 1 → penalty × (1 − 0.5). */
    progressRelief: z.number().min(0).max(1),
    /** Seed: turn-cost weight 0.20 … */
    turnCostWeight: weight(1),
    /** … times a cost capped at 1.4, so at most −0.28. */
    turnCostCap: weight(10),
    /** Our choice (the seed does not say how its cost grows): cost 1.0 at this share of the turn budget, linear in turns,
     * so with 50 turns it is 1.0 at 25 turns (about the base model's median without the debugger, 24) and reaches the
     * 1.4 cap at 35. */
    turnCostReferenceShare: z.number().min(0.05).max(1),
    /** Seed: trajectory A's credits, "an inspection followed by an edit (+0.20), for its debugger choice (+0.15), for
     * localization (+0.10), and for code changes (+0.05)". */
    processCredit: z
      .object({
        inspectThenEdit: weight(1),
        debuggerChoice: weight(1),
        localization: weight(1),
        codeChange: weight(1),
      })
      .strict(),
    /** The seed's fix: "limited process credit on failures". 0.10 keeps the best failure (−1.0 × 0.5 + 0.10 = −0.40)
     * well below any success. */
    failureProcessCap: weight(1),
    /** The seed's fix: "protected successful completions with a reward floor". */
    successFloor: z.number().min(-10).max(10),
    /** The seed's fix: "explicitly penalized guard exits". Not reduced by test progress, and at least the budget
     * penalty, so a guard exit never beats running out of turns with the same work. */
    guardExitPenalty: weight(10),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.guardExitPenalty < c.budgetExhaustedPenalty) {
      ctx.addIssue({ code: 'custom', path: ['guardExitPenalty'], message: 'must be at least budgetExhaustedPenalty, or stalling into a guard pays better than running out of turns' });
    }
    const bestFailure = maxFailureReward(c);
    if (!(c.successFloor > bestFailure)) {
      ctx.addIssue({ code: 'custom', path: ['successFloor'], message: `must be above the best possible failure (${bestFailure.toFixed(3)}), so that every success outscores every failure` });
    }
    if (c.successFloor > c.success) ctx.addIssue({ code: 'custom', path: ['successFloor'], message: 'must not exceed success: the floor protects a success, it does not raise it' });
  });
export type RewardConfig = z.infer<typeof RewardConfig>;

export const REWARD_CONFIG: RewardConfig = RewardConfig.parse({
  version: 'reward/v1',
  success: 1.0,
  failingTestsPenalty: 1.0,
  budgetExhaustedPenalty: 0.5,
  progressRelief: 0.5,
  turnCostWeight: 0.2,
  turnCostCap: 1.4,
  turnCostReferenceShare: 0.5,
  processCredit: { inspectThenEdit: 0.2, debuggerChoice: 0.15, localization: 0.1, codeChange: 0.05 },
  failureProcessCap: 0.1,
  successFloor: 0.5,
  guardExitPenalty: 0.6,
});

export interface RewardInputs {
  passed: boolean;
  exitReason: 'done' | 'turn_cap' | 'guard' | 'context_exhausted' | 'error';
  turns: number;
  maxTurns: number;
  /** The task's failing tests on the buggy code. */
  initiallyFailing: number;
  /** How many of those pass at the end. */
  nowPassingOfInitiallyFailing: number;
  /** A successful runtime inspection, then later an edit that changed a source file. */
  inspectedThenEdited: boolean;
  /** The debugger was started successfully. */
  usedDebugger: boolean;
  debuggerPreference: 'recommended' | 'optional' | 'avoid';
  /** An edit changed one of the files the held-back fix changes. */
  editedFixLocation: boolean;
  /** An edit changed a source file (not a test). */
  madeSourceEdit: boolean;
}

export interface RewardTask {
  debuggerPreference: 'recommended' | 'optional' | 'avoid';
  /** Workspace-relative paths of the files the held-back fix changes (the files in the task's fix/ folder). */
  fixFiles: string[];
  /** Pytest node ids of the tests that fail on the buggy code. */
  failingTests: string[];
}

/** Infrastructure failures (a harness error, a sandbox lost after every recovery) are not the policy's doing: they are
 * never scored, never a 0 reward, and stay out of group statistics (the GRPO group retries or fails instead). */
export function isScorable(inputs: Pick<RewardInputs, 'exitReason'>): boolean {
  return inputs.exitReason !== 'error';
}

export class UnscorableEpisodeError extends Error {}

/** The share of the initially failing tests that now pass, in [0, 1]: the seed's "measured test progress". */
export function testProgress(inputs: RewardInputs): number {
  if (inputs.initiallyFailing <= 0) return 0;
  return Math.min(1, Math.max(0, inputs.nowPassingOfInitiallyFailing / inputs.initiallyFailing));
}

/** +success for a verified fix, else 0. The only large positive term: GRPO's comparison within a group should be
 * dominated by whether the bug got fixed. */
export function successReward(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  return inputs.passed ? c.success : 0;
}

/** −1.0 when the tests still fail (seed), reduced by up to 50 % for test progress: −1.0 × (1 − 0.5 × progress). Partial
 * repairs (2 of 3 failing tests fixed) then beat no repair, which gives all-fail groups a real gradient. */
export function failingTestsPenalty(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  return inputs.passed ? 0 : -c.failingTestsPenalty * (1 - c.progressRelief * testProgress(inputs));
}

/** −0.5 for reaching the turn cap (seed), reduced by up to 50 % for test progress; context exhaustion is treated the
 * same (the episode's budget ran out either way). */
export function budgetExhaustedPenalty(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  if (inputs.exitReason !== 'turn_cap' && inputs.exitReason !== 'context_exhausted') return 0;
  return -c.budgetExhaustedPenalty * (1 - c.progressRelief * testProgress(inputs));
}

/** −0.60 for a guard exit (same call repeated, or replies with no valid call), never reduced. The seed's earlier run
 * let guard exits skip the termination penalties, and stalling became the cheapest way to fail. */
export function guardExitPenalty(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  return inputs.exitReason === 'guard' ? -c.guardExitPenalty : 0;
}

/** −0.20 × min(1.4, turns / (0.5 × maxTurns)) (seed: weight −0.20, cost capped at 1.4, so at most −0.28). An episode
 * that a guard or the context limit cut short pays for the whole turn budget, as if it had run to the cap: the seed's
 * guard exit escaped "most turn-cost penalties", and ending early must not be a way to save them. */
export function turnCost(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  if (!(inputs.maxTurns >= 1)) throw new RangeError(`maxTurns must be at least 1, got ${inputs.maxTurns}`);
  const cutShort = inputs.exitReason === 'guard' || inputs.exitReason === 'context_exhausted';
  const turns = cutShort ? inputs.maxTurns : Math.max(0, Math.min(inputs.turns, inputs.maxTurns));
  const cost = Math.min(c.turnCostCap, turns / (c.turnCostReferenceShare * inputs.maxTurns));
  return -c.turnCostWeight * cost;
}

/** The process credits the episode earned, before any cap (seed values): an inspection followed by an edit +0.20; the
 * appropriate debugger choice +0.15 (opened on a recommended task, or left closed on an avoid task, the abstention the
 * curriculum's second phase teaches; nothing either way on an optional task); localization +0.10; a code change +0.05. */
export function processCreditEarned(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): Record<'inspectThenEdit' | 'debuggerChoice' | 'localization' | 'codeChange', number> {
  const p = c.processCredit;
  const appropriate = (inputs.debuggerPreference === 'recommended' && inputs.usedDebugger) || (inputs.debuggerPreference === 'avoid' && !inputs.usedDebugger);
  return {
    inspectThenEdit: inputs.inspectedThenEdited ? p.inspectThenEdit : 0,
    debuggerChoice: appropriate ? p.debuggerChoice : 0,
    localization: inputs.editedFixLocation ? p.localization : 0,
    codeChange: inputs.madeSourceEdit ? p.codeChange : 0,
  };
}

/** The process credit that counts: in full on a success (up to 0.50), capped at 0.10 on a failure. The seed's
 * trajectory A collected 0.50 of credit on a failure with edits that changed nothing; capped, such credit only orders
 * failures among themselves and can never compete with a fix or with real test progress. */
export function processCredit(inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  const earned = Object.values(processCreditEarned(inputs, c)).reduce((a, b) => a + b, 0);
  return inputs.passed ? earned : Math.min(earned, c.failureProcessCap);
}

/** What the floor adds to a success whose other terms sum below it (0.50): a verified fix that took many turns or
 * stalled into a guard afterwards still clearly beats every failure. 0 for failures. */
export function successFloorLift(subtotal: number, inputs: RewardInputs, c: RewardConfig = REWARD_CONFIG): number {
  return inputs.passed && subtotal < c.successFloor ? c.successFloor - subtotal : 0;
}

/** The best reward a failure can reach: every failing test repaired yet the grade failed (other tests broke), no
 * budget or guard penalty, no turns, and the capped process credit. */
export function maxFailureReward(c: RewardConfig): number {
  return -c.failingTestsPenalty * (1 - c.progressRelief) + c.failureProcessCap;
}

/** The range every scorable episode's total lies in. */
export function rewardBounds(c: RewardConfig = REWARD_CONFIG): { min: number; max: number } {
  const p = c.processCredit;
  const worstEnding = Math.max(c.budgetExhaustedPenalty, c.guardExitPenalty);
  return {
    min: -c.failingTestsPenalty - worstEnding - c.turnCostWeight * c.turnCostCap,
    max: c.success + p.inspectThenEdit + p.debuggerChoice + p.localization + p.codeChange,
  };
}

/** The episode's reward and its components (which add up to the total). Throws on an infrastructure failure. */
export function episodeReward(inputs: RewardInputs, config: RewardConfig = REWARD_CONFIG): { total: number; components: Record<string, number> } {
  if (!isScorable(inputs)) throw new UnscorableEpisodeError(`an episode that ended in an infrastructure error is never scored (exit reason "${inputs.exitReason}")`);
  const components: Record<string, number> = {
    success: successReward(inputs, config),
    failingTests: failingTestsPenalty(inputs, config),
    budgetExhausted: budgetExhaustedPenalty(inputs, config),
    guardExit: guardExitPenalty(inputs, config),
    turnCost: turnCost(inputs, config),
    process: processCredit(inputs, config),
  };
  const subtotal = Object.values(components).reduce((a, b) => a + b, 0);
  components.successFloor = successFloorLift(subtotal, inputs, config);
  return { total: subtotal + components.successFloor, components };
}

// --- from a stored trajectory -----------------------------------------------------------------------------------

const WORKSPACE_PREFIX = '/workspace/';
const TEST_FILE = /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py)$/;

/** A path as the model wrote it, made workspace-relative ("/workspace/./a/b.py" and "a/b.py" are the same file). */
function workspaceRelative(p: string): string {
  const parts: string[] = [];
  for (const part of (p.startsWith(WORKSPACE_PREFIX) ? p.slice(WORKSPACE_PREFIX.length) : p).split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/**
 * The reward inputs from a stored trajectory record and its task. Definitions:
 *   - an *edit* is a successful `edit_file` whose new_text differs from its old_text (an edit that changes nothing,
 *     like the seed's trajectory A's, earns no credit);
 *   - *localization* is an edit to one of the files the held-back fix changes. The seed asked for the file and the
 *     function; the task format records files, so this is file-level;
 *   - a *source edit* is an edit to a `.py` file that is not a test (test_*.py, *_test.py, conftest.py);
 *   - *inspected then edited*: a successful runtime inspection (locals, print, expression, where) and a later edit;
 *   - *used the debugger*: `start_debugger` succeeded;
 *   - *test progress*: the task's failing tests that the grader saw pass.
 */
export function rewardInputsFromRecord(record: TrajectoryRecord, task: RewardTask): RewardInputs {
  const maxTurns = record.limits.maxTurns;
  if (maxTurns === undefined) throw new RangeError(`episode ${record.episodeId}: its record has no limits.maxTurns`);
  const calls = record.turns.filter((t) => t.tool && !t.tool.invalidReply);
  const edits = calls.flatMap((t) => {
    if (t.tool!.tool !== 'edit_file' || !t.tool!.ok) return [];
    const args = (t.assistant.toolCall?.arguments ?? {}) as { path?: unknown; old_text?: unknown; new_text?: unknown };
    if (typeof args.path !== 'string' || args.old_text === args.new_text) return [];
    return [{ turn: t.turn, file: workspaceRelative(args.path) }];
  });
  const sourceEdits = edits.filter((e) => e.file.endsWith('.py') && !TEST_FILE.test(e.file));
  const fixFiles = new Set(task.fixFiles.map(workspaceRelative));
  const firstInspection = calls.find((t) => INSPECTIONS.has(t.tool!.tool) && t.tool!.ok);
  return {
    passed: record.outcome.passed,
    exitReason: record.outcome.exitReason,
    turns: record.turns.length,
    maxTurns,
    initiallyFailing: task.failingTests.length,
    nowPassingOfInitiallyFailing: task.failingTests.filter((id) => record.outcome.tests[id] === 'passed').length,
    inspectedThenEdited: firstInspection !== undefined && sourceEdits.some((e) => e.turn > firstInspection.turn),
    usedDebugger: episodeFacts(record).openedDebugger,
    debuggerPreference: task.debuggerPreference,
    editedFixLocation: edits.some((e) => fixFiles.has(e.file)),
    madeSourceEdit: sourceEdits.length > 0,
  };
}
