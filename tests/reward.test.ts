/** common/reward.ts: hand-computed oracles (arithmetic in the comments), property tests over random inputs and
 * configs (fast-check, fixed seed), and the reward inputs read from a trajectory record. */
import fc from 'fast-check';
import {
  episodeReward,
  isScorable,
  REWARD_CONFIG,
  RewardConfig,
  rewardBounds,
  rewardInputsFromRecord,
  UnscorableEpisodeError,
  type RewardInputs,
} from '../common/reward';
import { TRAJECTORY_SCHEMA, TrajectoryRecord } from '../common/trajectory';

const FC = { seed: 20261201, numRuns: 2000 };

const base: RewardInputs = {
  passed: false,
  exitReason: 'done',
  turns: 10,
  maxTurns: 50,
  initiallyFailing: 2,
  nowPassingOfInitiallyFailing: 0,
  inspectedThenEdited: false,
  usedDebugger: false,
  debuggerPreference: 'recommended',
  editedFixLocation: false,
  madeSourceEdit: false,
};
const total = (i: Partial<RewardInputs>) => episodeReward({ ...base, ...i }).total;

describe('episodeReward: hand-computed oracles (default config reward/v1)', () => {
  it('a clean success with every process credit', () => {
    // success 1.0; turn cost −0.20 × min(1.4, 10 / (0.5 × 50)) = −0.20 × 0.4 = −0.08;
    // process 0.20 + 0.15 + 0.10 + 0.05 = 0.50 (uncapped on a success) → 1.0 − 0.08 + 0.50 = 1.42
    const r = episodeReward({ ...base, passed: true, nowPassingOfInitiallyFailing: 2, inspectedThenEdited: true, usedDebugger: true, editedFixLocation: true, madeSourceEdit: true });
    expect(r.total).toBeCloseTo(1.42, 10);
    expect(r.components).toEqual({ success: 1, failingTests: 0, budgetExhausted: 0, guardExit: 0, turnCost: expect.closeTo(-0.08, 10), process: expect.closeTo(0.5, 10), successFloor: 0 });
  });

  it("the seed's trajectory A (guard-stopped, credit for edits that changed nothing) scores far below B", () => {
    // A: failing tests −1.0 (no progress); guard −0.60; turn cost charged for the whole budget: −0.20 × min(1.4, 50/25 = 2)
    // = −0.28; process as the seed scored it 0.20 + 0.15 + 0.10 + 0.05 = 0.50, capped at 0.10 → −1.0 − 0.6 − 0.28 + 0.1 = −1.78
    const a = total({ exitReason: 'guard', turns: 12, inspectedThenEdited: true, usedDebugger: true, editedFixLocation: true, madeSourceEdit: true });
    expect(a).toBeCloseTo(-1.78, 10);
    // B: turn cap with real edits, 1 of 2 failing tests fixed (progress 0.5, relief 1 − 0.5 × 0.5 = 0.75):
    // failing −1.0 × 0.75 = −0.75; turn cap −0.5 × 0.75 = −0.375; turn cost −0.28; process capped 0.10 → −1.305
    const b = total({ exitReason: 'turn_cap', turns: 50, nowPassingOfInitiallyFailing: 1, inspectedThenEdited: true, usedDebugger: true, editedFixLocation: true, madeSourceEdit: true });
    expect(b).toBeCloseTo(-1.305, 10);
    expect(b).toBeGreaterThan(a); // the seed's run had A at +0.095 on average against B's −0.949
  });

  it('the floor lifts a success that stalled into a guard', () => {
    // 1.0 − 0.60 (guard) − 0.28 (whole budget) + 0 (optional task, no credits) = 0.12 < floor 0.50 → lifted by 0.38
    const r = episodeReward({ ...base, passed: true, exitReason: 'guard', debuggerPreference: 'optional', nowPassingOfInitiallyFailing: 2 });
    expect(r.total).toBeCloseTo(0.5, 10);
    expect(r.components.successFloor).toBeCloseTo(0.38, 10);
  });

  it('the best kind of failure: every failing test repaired, but another broke', () => {
    // failing −1.0 × (1 − 0.5 × 3/3) = −0.5; turn cost −0.20 × 5/25 = −0.04; process 0.10 + 0.05 = 0.15 → cap 0.10
    // → −0.5 − 0.04 + 0.1 = −0.44
    expect(total({ turns: 5, initiallyFailing: 3, nowPassingOfInitiallyFailing: 3, editedFixLocation: true, madeSourceEdit: true })).toBeCloseTo(-0.44, 10);
  });

  it('abstaining on an avoid task earns the debugger-choice credit', () => {
    // 1.0; turn cost −0.20 × 20/25 = −0.16; process 0.15 (left closed on avoid) + 0.10 + 0.05 = 0.30 → 1.14
    expect(total({ passed: true, turns: 20, debuggerPreference: 'avoid', editedFixLocation: true, madeSourceEdit: true })).toBeCloseTo(1.14, 10);
    // the same episode with the debugger opened: no choice credit → 0.99
    expect(total({ passed: true, turns: 20, debuggerPreference: 'avoid', usedDebugger: true, editedFixLocation: true, madeSourceEdit: true })).toBeCloseTo(0.99, 10);
  });

  it('context exhaustion pays like the turn cap, for the whole budget', () => {
    // −1.0 − 0.5 − 0.28 = −1.78 even though it ended at turn 8
    expect(total({ exitReason: 'context_exhausted', turns: 8 })).toBeCloseTo(-1.78, 10);
  });

  it('the turn cost stops growing at its cap of 1.4 (−0.28)', () => {
    // 40 of 50 turns: 40/25 = 1.6 → capped at 1.4 → −0.28; 35 turns: 35/25 = 1.4 → −0.28; 30 turns: 1.2 → −0.24
    expect(episodeReward({ ...base, turns: 40 }).components.turnCost).toBeCloseTo(-0.28, 10);
    expect(episodeReward({ ...base, turns: 35 }).components.turnCost).toBeCloseTo(-0.28, 10);
    expect(episodeReward({ ...base, turns: 30 }).components.turnCost).toBeCloseTo(-0.24, 10);
  });

  it('infrastructure failures are never scored', () => {
    expect(isScorable({ exitReason: 'error' })).toBe(false);
    expect(isScorable({ exitReason: 'guard' })).toBe(true);
    expect(() => episodeReward({ ...base, exitReason: 'error' })).toThrow(UnscorableEpisodeError);
  });

  it('bounds of reward/v1', () => {
    // min: −1.0 − max(0.5, 0.6) − 0.28 = −1.88; max: 1.0 + 0.50 = 1.5
    expect(rewardBounds()).toEqual({ min: expect.closeTo(-1.88, 10), max: expect.closeTo(1.5, 10) });
    expect(REWARD_CONFIG.version).toBe('reward/v1');
  });
});

describe('RewardConfig refuses configs that reopen the hacks', () => {
  it('a guard penalty below the turn-cap penalty', () => {
    const r = RewardConfig.safeParse({ ...REWARD_CONFIG, guardExitPenalty: 0.4 });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('guardExitPenalty');
  });
  it('a floor at or below the best failure', () => {
    // best failure −1.0 × 0.5 + 0.10 = −0.40
    expect(RewardConfig.safeParse({ ...REWARD_CONFIG, successFloor: -0.4 }).success).toBe(false);
    expect(RewardConfig.safeParse({ ...REWARD_CONFIG, successFloor: -0.39 }).success).toBe(true);
  });
  it('out-of-range numbers and unknown keys', () => {
    expect(RewardConfig.safeParse({ ...REWARD_CONFIG, progressRelief: 1.5 }).success).toBe(false);
    expect(RewardConfig.safeParse({ ...REWARD_CONFIG, bonus: 1 }).success).toBe(false);
  });
});

// --- properties ---------------------------------------------------------------------------------------------------

const scorableExit = fc.constantFrom('done', 'turn_cap', 'guard', 'context_exhausted') as fc.Arbitrary<RewardInputs['exitReason']>;
const inputsArb = (passed?: boolean): fc.Arbitrary<RewardInputs> =>
  fc
    .record({
      passed: passed === undefined ? fc.boolean() : fc.constant(passed),
      exitReason: scorableExit,
      maxTurns: fc.integer({ min: 1, max: 500 }),
      turnShare: fc.double({ min: 0, max: 1, noNaN: true }),
      initiallyFailing: fc.integer({ min: 1, max: 20 }),
      passingShare: fc.double({ min: 0, max: 1, noNaN: true }),
      inspectedThenEdited: fc.boolean(),
      usedDebugger: fc.boolean(),
      debuggerPreference: fc.constantFrom('recommended', 'optional', 'avoid') as fc.Arbitrary<RewardInputs['debuggerPreference']>,
      editedFixLocation: fc.boolean(),
      madeSourceEdit: fc.boolean(),
    })
    .map(({ turnShare, passingShare, ...r }) => ({
      ...r,
      turns: r.exitReason === 'turn_cap' ? r.maxTurns : Math.round(turnShare * r.maxTurns),
      nowPassingOfInitiallyFailing: r.passed ? r.initiallyFailing : Math.floor(passingShare * r.initiallyFailing),
    }));

/** Random configs within the schema's bounds that the schema accepts. */
const configArb: fc.Arbitrary<RewardConfig> = fc
  .record({
    success: fc.double({ min: 0.5, max: 3, noNaN: true }),
    failingTestsPenalty: fc.double({ min: 0, max: 3, noNaN: true }),
    budgetExhaustedPenalty: fc.double({ min: 0, max: 2, noNaN: true }),
    extraGuard: fc.double({ min: 0, max: 1, noNaN: true }),
    progressRelief: fc.double({ min: 0, max: 1, noNaN: true }),
    turnCostWeight: fc.double({ min: 0, max: 1, noNaN: true }),
    turnCostCap: fc.double({ min: 0, max: 3, noNaN: true }),
    turnCostReferenceShare: fc.double({ min: 0.05, max: 1, noNaN: true }),
    credits: fc.tuple(...[0, 1, 2, 3].map(() => fc.double({ min: 0, max: 0.5, noNaN: true }))),
    failureProcessCap: fc.double({ min: 0, max: 0.3, noNaN: true }),
    floorShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ extraGuard, credits, floorShare, ...c }) => {
    const bestFailure = -c.failingTestsPenalty * (1 - c.progressRelief) + c.failureProcessCap;
    return {
      ...c,
      version: 'reward/v9',
      guardExitPenalty: c.budgetExhaustedPenalty + extraGuard,
      processCredit: { inspectThenEdit: credits[0], debuggerChoice: credits[1], localization: credits[2], codeChange: credits[3] },
      successFloor: bestFailure + 1e-6 + floorShare * (c.success - bestFailure - 1e-6),
    };
  })
  .filter((c) => RewardConfig.safeParse(c).success);

const configs = fc.oneof({ weight: 1, arbitrary: fc.constant(REWARD_CONFIG) }, { weight: 3, arbitrary: configArb });

describe('episodeReward: properties', () => {
  it('every success scores above every failure, under any accepted config', () => {
    fc.assert(fc.property(configs, inputsArb(true), inputsArb(false), (c, s, f) => episodeReward(s, c).total > episodeReward(f, c).total), FC);
  });

  it('a guard exit never scores above a turn-cap failure with the same work', () => {
    fc.assert(
      fc.property(configs, inputsArb(), fc.double({ min: 0, max: 1, noNaN: true }), (c, i, stopShare) => {
        const guard = { ...i, exitReason: 'guard' as const, turns: Math.round(stopShare * i.maxTurns) };
        const capped = { ...i, exitReason: 'turn_cap' as const, turns: i.maxTurns };
        return episodeReward(guard, c).total <= episodeReward(capped, c).total + 1e-12;
      }),
      FC,
    );
    // strictly below under the default config, for failures: −0.60 against at most −0.5 × (1 − 0.5 × progress)
    fc.assert(
      fc.property(inputsArb(false), (i) => total({ ...i, exitReason: 'guard' }) < total({ ...i, exitReason: 'turn_cap', turns: i.maxTurns })),
      FC,
    );
  });

  it('rewards stay within rewardBounds, and the components add up to the total', () => {
    fc.assert(
      fc.property(configs, inputsArb(), (c, i) => {
        const r = episodeReward(i, c);
        const { min, max } = rewardBounds(c);
        const sum = Object.values(r.components).reduce((a, b) => a + b, 0);
        return r.total >= min - 1e-9 && r.total <= max + 1e-9 && Math.abs(sum - r.total) < 1e-9;
      }),
      FC,
    );
  });

  it('monotone in test progress: one more initially failing test passing never lowers the reward', () => {
    fc.assert(
      fc.property(configs, inputsArb(false), (c, i) => {
        fc.pre(i.nowPassingOfInitiallyFailing < i.initiallyFailing);
        const more = { ...i, nowPassingOfInitiallyFailing: i.nowPassingOfInitiallyFailing + 1 };
        return episodeReward(more, c).total >= episodeReward(i, c).total - 1e-12;
      }),
      FC,
    );
  });

  it('process credit on a failure is worth at most the cap', () => {
    fc.assert(
      fc.property(inputsArb(false), (i) => {
        const none = { ...i, inspectedThenEdited: false, usedDebugger: i.debuggerPreference === 'avoid', editedFixLocation: false, madeSourceEdit: false };
        const all = { ...i, inspectedThenEdited: true, usedDebugger: i.debuggerPreference !== 'avoid', editedFixLocation: true, madeSourceEdit: true };
        return total(all) - total(none) <= REWARD_CONFIG.failureProcessCap + 1e-12;
      }),
      FC,
    );
  });
});

// --- from a trajectory record -------------------------------------------------------------------------------------

type Call = { name: string; arguments: Record<string, unknown>; ok?: boolean; debugger?: boolean };

function record(calls: Call[], outcome: { passed: boolean; exitReason: RewardInputs['exitReason']; tests: Record<string, string> }): TrajectoryRecord {
  return TrajectoryRecord.parse({
    schema: TRAJECTORY_SCHEMA,
    episodeId: 'ep-1',
    workflowId: 'wf-1',
    taskId: 'task_one',
    split: 'train',
    policy: { spec: 'scripted:x.jsonl', version: 0 },
    toolset: 'full',
    evaluationId: null,
    seed: 0,
    limits: { maxTurns: 50, maxContextTokens: 30000 },
    messages: [],
    turns: calls.map((c, i) => ({
      turn: i + 1,
      assistant: {
        message: { role: 'assistant', content: null },
        toolCall: { name: c.name, arguments: c.arguments },
        invalidReason: null,
        promptTokens: 1,
        completionTokens: 1,
        tokenCounting: 'approx-chars/4',
        policyVersion: 0,
        latencyMs: 1,
      },
      tool: { tool: c.name, ok: c.ok ?? true, output: '', stateChanging: c.name === 'edit_file', debugger: c.debugger ?? false, meta: {}, latencyMs: 1 },
    })),
    recoveries: [],
    outcome: { ...outcome, error: null, gradeNotes: [] },
    tokens: { prompt: 1, completion: 1, finalContext: 1 },
    timings: { startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:01:00Z', durationMs: 60000 },
  });
}

const task = { debuggerPreference: 'recommended' as const, fixFiles: ['pkg/cache.py'], failingTests: ['test_cache.py::test_a', 'test_cache.py::test_b'] };
const edit = (p: string, oldText: string, newText: string, ok = true): Call => ({ name: 'edit_file', arguments: { path: p, old_text: oldText, new_text: newText }, ok });

describe('rewardInputsFromRecord', () => {
  it('reads the debugger, inspection → edit, localization, source edits and test progress', () => {
    const r = record(
      [
        { name: 'start_debugger', arguments: { test_file: 'test_cache.py' }, debugger: true },
        { name: 'examine_locals', arguments: {}, debugger: true },
        edit('/workspace/./pkg/cache.py', 'a', 'b'),
        { name: 'run_tests', arguments: {} },
      ],
      { passed: false, exitReason: 'turn_cap', tests: { 'test_cache.py::test_a': 'passed', 'test_cache.py::test_b': 'failed', 'test_cache.py::test_c': 'passed' } },
    );
    expect(rewardInputsFromRecord(r, task)).toEqual({
      passed: false,
      exitReason: 'turn_cap',
      turns: 4,
      maxTurns: 50,
      initiallyFailing: 2,
      nowPassingOfInitiallyFailing: 1, // test_c was passing already and does not count
      inspectedThenEdited: true,
      usedDebugger: true,
      debuggerPreference: 'recommended',
      editedFixLocation: true, // "/workspace/./pkg/cache.py" is the fix file pkg/cache.py
      madeSourceEdit: true,
    });
  });

  it('edits that change nothing, fail, or touch only tests earn no credit; an edit before the inspection does not convert it', () => {
    const r = record(
      [
        edit('pkg/cache.py', 'x = 1', 'x = 1'), // no-op, like the seed's trajectory A
        edit('pkg/cache.py', 'y', 'z', false), // failed edit
        edit('helpers.py', 'a', 'b'), // a real source edit, before the inspection, not the fix file
        { name: 'start_debugger', arguments: {}, ok: false, debugger: true }, // failed to start
        { name: 'print_variable', arguments: { name: 'x' }, debugger: true },
        edit('test_cache.py', 'assert a', 'assert b'), // a test edit after the inspection
      ],
      { passed: false, exitReason: 'guard', tests: {} },
    );
    expect(rewardInputsFromRecord(r, task)).toMatchObject({
      inspectedThenEdited: false,
      usedDebugger: false,
      editedFixLocation: false,
      madeSourceEdit: true,
      nowPassingOfInitiallyFailing: 0,
    });
  });

  it('a record with no turn cap in its limits is refused', () => {
    const r = record([], { passed: false, exitReason: 'done', tests: {} });
    expect(() => rewardInputsFromRecord({ ...r, limits: {} }, task)).toThrow(/no limits.maxTurns/);
  });
});
