/** common/curriculum.ts: posterior arithmetic by hand, the phase mixes, advancement on fixes and debugger use (not
 * reward), the 30–70 % band and its reported share, fewer picks for unsolved tasks with retries, and state that
 * survives a JSON round trip (continue-as-new). */
import {
  CurriculumState,
  curriculumSummary,
  estimatedSuccess,
  initialCurriculum,
  pickTask,
  updateCurriculum,
  type CurriculumTask,
  type CurriculumGroup,
} from '../common/curriculum';

const TASKS: CurriculumTask[] = [
  { id: 'rec_a', debuggerPreference: 'recommended' },
  { id: 'rec_b', debuggerPreference: 'recommended' },
  { id: 'opt_a', debuggerPreference: 'optional' },
  { id: 'avoid_a', debuggerPreference: 'avoid' },
];

/** The exact share of [0, 1) that pickTask maps to each task, measured on a fine grid. */
function pickShares(state: CurriculumState, steps = 5_000): Record<string, number> {
  const shares: Record<string, number> = {};
  for (let i = 0; i < steps; i++) {
    const { taskId } = pickTask(state, i / steps);
    shares[taskId] = (shares[taskId] ?? 0) + 1 / steps;
  }
  return shares;
}

const group = (taskId: string, successes: number, failures: number, extra: Partial<CurriculumGroup> = {}): CurriculumGroup => ({
  taskId,
  successes,
  failures,
  debuggerOpenedOnRecommended: 0,
  debuggerClosedOnAvoid: 0,
  episodes: successes + failures,
  ...extra,
});
const taskOf = (s: CurriculumState, id: string) => s.tasks.find((t) => t.id === id)!;

describe('Beta posterior with decay', () => {
  it('starts from Beta(1, 1) plus any prior evidence', () => {
    const s = initialCurriculum([{ id: 'a_task', debuggerPreference: 'recommended', prior: { successes: 3, failures: 1 } }, { id: 'b_task', debuggerPreference: 'optional' }]);
    // (1 + 3) / (2 + 3 + 1) = 4/6
    expect(estimatedSuccess(taskOf(s, 'a_task'), s.config)).toBeCloseTo(4 / 6, 12);
    expect(estimatedSuccess(taskOf(s, 'b_task'), s.config)).toBeCloseTo(0.5, 12);
  });

  it('adds a group and decays every task by 0.98 per group', () => {
    let s = initialCurriculum(TASKS);
    s = updateCurriculum(s, group('rec_a', 3, 9));
    // rec_a: (1 + 3) / (2 + 12) = 4/14
    expect(estimatedSuccess(taskOf(s, 'rec_a'), s.config)).toBeCloseTo(4 / 14, 12);
    s = updateCurriculum(s, group('rec_b', 12, 0));
    // rec_a decayed: successes 3 × 0.98 = 2.94, failures 9 × 0.98 = 8.82 → (1 + 2.94) / (2 + 11.76) = 3.94 / 13.76
    expect(estimatedSuccess(taskOf(s, 'rec_a'), s.config)).toBeCloseTo(3.94 / 13.76, 12);
    // rec_b: (1 + 12) / (2 + 12) = 13/14
    expect(estimatedSuccess(taskOf(s, 'rec_b'), s.config)).toBeCloseTo(13 / 14, 12);
  });

  it('an unsolved task left alone drifts back toward the prior', () => {
    let s = updateCurriculum(initialCurriculum(TASKS), group('rec_a', 0, 12));
    const after = estimatedSuccess(taskOf(s, 'rec_a'), s.config); // 1/14
    for (let i = 0; i < 60; i++) s = updateCurriculum(s, group('rec_b', 6, 6));
    // failures 12 × 0.98^60 = 3.56 → 1 / (2 + 3.56) = 0.18
    expect(estimatedSuccess(taskOf(s, 'rec_a'), s.config)).toBeCloseTo(1 / (2 + 12 * 0.98 ** 60), 12);
    expect(estimatedSuccess(taskOf(s, 'rec_a'), s.config)).toBeGreaterThan(after);
  });
});

describe('phases', () => {
  it('acquisition: 80 % recommended, 20 % optional, never an avoid task', () => {
    const shares = pickShares(initialCurriculum(TASKS));
    expect((shares.rec_a ?? 0) + (shares.rec_b ?? 0)).toBeCloseTo(0.8, 3);
    expect(shares.opt_a).toBeCloseTo(0.2, 3);
    expect(shares.avoid_a).toBeUndefined();
  });

  it('a task set acquisition cannot pick from (all avoid, like the starter split) is picked from whole', () => {
    const shares = pickShares(initialCurriculum([{ id: 'avoid_a', debuggerPreference: 'avoid' }, { id: 'avoid_b', debuggerPreference: 'avoid' }]));
    expect(shares.avoid_a).toBeCloseTo(0.5, 3);
    expect(shares.avoid_b).toBeCloseTo(0.5, 3);
  });

  it('advances on fixes and debugger use on recommended tasks, then adds avoid tasks (30 %)', () => {
    let s = initialCurriculum(TASKS);
    // 4 groups × 12 = 48 episodes (the minimum), 9/12 fixed, the debugger opened in 10 of 12 on recommended tasks
    for (const id of ['rec_a', 'rec_b', 'rec_a', 'rec_b']) s = updateCurriculum(s, group(id, 9, 3, { debuggerOpenedOnRecommended: 10 }));
    expect(s.phase).toBe('abstention');
    expect(s.advancedAtGroup).toBe(4);
    const shares = pickShares(s);
    expect(shares.avoid_a).toBeCloseTo(0.3, 3);
    expect(shares.opt_a).toBeCloseTo(0.2, 3);
    const summary = curriculumSummary(s);
    expect(summary.phase).toBe('abstention');
    // the recent rates are decayed sums: successes 9 × (1 + 0.9 + 0.81 + 0.729) over episodes 12 × (same) = 0.75
    expect(summary.advancement.successRate).toBeCloseTo(0.75, 12);
    expect(summary.advancement.debuggerOnRecommended).toBeCloseTo(10 / 12, 12);
  });

  it('does not advance on fixes without the debugger on recommended tasks (however high the reward)', () => {
    let s = initialCurriculum(TASKS);
    for (let i = 0; i < 20; i++) s = updateCurriculum(s, group(i % 2 ? 'rec_a' : 'rec_b', 12, 0, { debuggerOpenedOnRecommended: 2 }));
    expect(s.phase).toBe('acquisition');
    expect(curriculumSummary(s).advancement).toMatchObject({ ready: false, successRate: 1 });
  });

  it('does not advance on debugger use without fixes', () => {
    let s = initialCurriculum(TASKS);
    for (let i = 0; i < 20; i++) s = updateCurriculum(s, group('rec_a', 2, 10, { debuggerOpenedOnRecommended: 12 }));
    expect(s.phase).toBe('acquisition');
  });

  it('does not advance before the minimum number of acquisition episodes', () => {
    let s = initialCurriculum(TASKS);
    for (let i = 0; i < 3; i++) s = updateCurriculum(s, group('rec_a', 12, 0, { debuggerOpenedOnRecommended: 12 })); // 36 < 48
    expect(s.phase).toBe('acquisition');
    s = updateCurriculum(s, group('rec_a', 12, 0, { debuggerOpenedOnRecommended: 12 })); // 48
    expect(s.phase).toBe('abstention');
  });

  it('abstention reports how often the debugger stayed closed on avoid tasks', () => {
    let s = initialCurriculum(TASKS);
    for (let i = 0; i < 4; i++) s = updateCurriculum(s, group('rec_a', 12, 0, { debuggerOpenedOnRecommended: 12 }));
    s = updateCurriculum(s, group('avoid_a', 6, 6, { debuggerClosedOnAvoid: 9 }));
    expect(curriculumSummary(s).advancement.debuggerClosedOnAvoid).toBeCloseTo(9 / 12, 12);
  });

  it('an optional-only corpus fills acquisition with optional tasks', () => {
    const s = initialCurriculum([{ id: 'opt_a', debuggerPreference: 'optional' }, { id: 'avoid_a', debuggerPreference: 'avoid' }]);
    expect(pickShares(s, 1000)).toEqual({ opt_a: expect.closeTo(1, 9) });
  });
});

describe('the 30–70 % band', () => {
  it('a task in the band is picked 3× as often as one outside it, within its category', () => {
    let s = initialCurriculum(TASKS);
    s = updateCurriculum(s, group('rec_a', 6, 6)); // (1 + 6) / 14 = 0.5: in the band
    s = updateCurriculum(s, group('rec_b', 12, 0)); // (1 + 12) / 14 = 0.93: out
    const shares = pickShares(s);
    // recommended share 0.8 split 3 : 1 → rec_a 0.6, rec_b 0.2
    expect(shares.rec_a).toBeCloseTo(0.6, 3);
    expect(shares.rec_b).toBeCloseTo(0.2, 3);
    const pick = pickTask(s, 0.1); // opt_a comes first in id order ([0, 0.2)), then rec_a
    expect(pick.taskId).toBe('opt_a');
    expect(pickTask(s, 0.5)).toMatchObject({ taskId: 'rec_a', inBand: true, probability: expect.closeTo(0.6, 12) });
    expect(pickTask(s, 0.5).reason).toMatch(/^acquisition: recommended tasks get 80 % of picks; estimated success 50 %, in the 30 %–70 % band/);
  });

  it('reports the share of rollouts drawn from tasks estimated in the band', () => {
    let s = initialCurriculum(TASKS);
    s = updateCurriculum(s, group('rec_a', 12, 0)); // estimated 0.5 when it finished: 12 rollouts in the band
    s = updateCurriculum(s, group('rec_a', 12, 0)); // now estimated (1 + 11.76)/(2 + 11.76) = 0.93: 12 outside
    s = updateCurriculum(s, group('opt_a', 2, 2)); // 0.5: 4 in the band
    // (12 + 4) / 28 = 0.5714
    expect(curriculumSummary(s)).toMatchObject({ share30to70: expect.closeTo(16 / 28, 12), rollouts: 28, groups: 3 });
    expect(curriculumSummary(initialCurriculum(TASKS)).share30to70).toBe(0);
  });
});

describe('repeatedly unsolved tasks', () => {
  it('are sampled less, halving per unsolved group from the second, down to a 10 % floor: retries continue', () => {
    let s = initialCurriculum(TASKS);
    s = updateCurriculum(s, group('rec_a', 0, 12));
    s = updateCurriculum(s, group('rec_b', 0, 12));
    // both unsolved once, both estimated 1/14 (out of band): equal
    expect(pickShares(s).rec_a).toBeCloseTo(0.4, 3);
    s = updateCurriculum(s, group('rec_a', 0, 12)); // rec_a: 2 in a row → weight × 0.5
    // rec_a 0.5 against rec_b 1 → 0.8 × 0.5/1.5 = 0.2667
    expect(pickShares(s).rec_a).toBeCloseTo(0.8 / 3, 3);
    for (let i = 0; i < 6; i++) s = updateCurriculum(s, group('rec_a', 0, 12)); // 8 in a row: 0.5^7 → floor 0.1
    expect(pickShares(s).rec_a).toBeCloseTo(0.8 * (0.1 / 1.1), 3);
    expect(pickTask(s, 0.25).reason).toContain('unsolved 8 groups in a row');
    expect(curriculumSummary(s).repeatedlyUnsolved).toBe(1);
    s = updateCurriculum(s, group('rec_a', 1, 11)); // one fix resets the streak
    expect(taskOf(s, 'rec_a').unsolvedStreak).toBe(0);
  });
});

describe('state and inputs', () => {
  it('survives a JSON round trip (continue-as-new) and picks the same afterwards', () => {
    let s = initialCurriculum(TASKS, { decay: 0.95 });
    for (const [i, id] of ['rec_a', 'opt_a', 'rec_b', 'rec_a'].entries()) s = updateCurriculum(s, group(id, i, 12 - i, { debuggerOpenedOnRecommended: id.startsWith('rec') ? 5 : 0 }));
    const carried = CurriculumState.parse(JSON.parse(JSON.stringify(s)));
    expect(carried).toEqual(s);
    for (const r of [0, 0.13, 0.5, 0.77, 0.999]) expect(pickTask(carried, r)).toEqual(pickTask(s, r));
    expect(updateCurriculum(carried, group('opt_a', 3, 3))).toEqual(updateCurriculum(s, group('opt_a', 3, 3)));
  });

  it('does not change the state it is given', () => {
    const s = initialCurriculum(TASKS);
    const before = JSON.stringify(s);
    updateCurriculum(s, group('rec_a', 3, 3));
    expect(JSON.stringify(s)).toBe(before);
  });

  it('refuses bad groups, random numbers, tasks and configs with a message', () => {
    const s = initialCurriculum(TASKS);
    expect(() => updateCurriculum(s, group('nope_task', 1, 1))).toThrow(/unknown task "nope_task"/);
    expect(() => updateCurriculum(s, { ...group('rec_a', 1, 1), episodes: 3 })).toThrow(/must equal successes \+ failures/);
    expect(() => updateCurriculum(s, group('rec_a', 1, 1, { debuggerOpenedOnRecommended: 5 }))).toThrow(/cannot exceed episodes/);
    expect(() => pickTask(s, 1)).toThrow(/\[0, 1\)/);
    expect(() => pickTask(s, Number.NaN)).toThrow(/\[0, 1\)/);
    expect(() => initialCurriculum([TASKS[0]!, TASKS[0]!])).toThrow(/duplicate/);
    expect(() => initialCurriculum(TASKS, { band: { low: 0.7, high: 0.3 } })).toThrow(/low must be below high/);
    expect(() => initialCurriculum(TASKS, { decay: 2 })).toThrow(/decay/);
  });
});
