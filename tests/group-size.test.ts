/** Dynamic group size (common/group-size.ts) and the hardware profiles that fix its range (common/hardware-profiles.ts),
 * with the run input's checks and the `train` options that set them. Hand-computed cases. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { foldGroupEpisodes, initialCurriculum } from '../common/curriculum';
import { dynamicGroupSize, groupSizeBounds, minToSealFor, successEstimate, zeroSignalChance } from '../common/group-size';
import { HARDWARE_PROFILE_NAMES, HARDWARE_PROFILES } from '../common/hardware-profiles';
import { runSettings, TrainingRunInput } from '../common/training';
import { trainingInputFrom } from '../workers/commands/train';

const general = { min: 2, max: 16 };

describe('zeroSignalChance', () => {
  it('is p^n + (1-p)^n', () => {
    expect(zeroSignalChance(0.5, 4)).toBeCloseTo(0.125, 12);
    expect(zeroSignalChance(0.5, 5)).toBeCloseTo(0.0625, 12);
    expect(zeroSignalChance(0.9, 2)).toBeCloseTo(0.81 + 0.01, 12);
  });
});

describe('dynamicGroupSize', () => {
  it('gives a task at 50 % the smallest group under the 0.1 target: 5 (2 x 0.5^4 = 0.125 > 0.1, 2 x 0.5^5 = 0.0625)', () => {
    expect(dynamicGroupSize(general, 0.5)).toBe(5);
  });

  it('gives tasks far from 50 % larger groups, the same on both sides, capped at max', () => {
    expect(dynamicGroupSize(general, 0.7)).toBe(7); // 0.7^6 + 0.3^6 = 0.118, 0.7^7 + 0.3^7 = 0.083
    expect(dynamicGroupSize(general, 0.3)).toBe(7);
    expect(dynamicGroupSize({ min: 2, max: 64 }, 0.9)).toBe(22); // 0.9^21 = 0.109, 0.9^22 = 0.098
    expect(dynamicGroupSize(general, 0.9)).toBe(16);
    expect(dynamicGroupSize(general, 0.1)).toBe(16);
  });

  it('gives max when the success rate is unknown, or when no size gets under the target (p = 0 or 1)', () => {
    expect(dynamicGroupSize(general, null)).toBe(16);
    expect(dynamicGroupSize(general, 1)).toBe(16);
    expect(dynamicGroupSize(general, 0)).toBe(16);
  });

  it('never goes below min, and a range fixed at 12 gives 12 whatever the task', () => {
    expect(dynamicGroupSize({ min: 12, max: 16 }, 0.5)).toBe(12);
    for (const p of [null, 0, 0.1, 0.5, 0.9, 1]) expect(dynamicGroupSize({ min: 12, max: 12 }, p)).toBe(12);
  });

  it('follows the target: at 0.2 a task at 50 % needs 4 (0.125), at 0.01 it needs 8 (0.0078)', () => {
    expect(dynamicGroupSize(general, 0.5, 0.2)).toBe(4);
    expect(dynamicGroupSize(general, 0.5, 0.01)).toBe(8);
  });

  it('refuses a range upside down and an estimate outside [0, 1]', () => {
    expect(() => dynamicGroupSize({ min: 8, max: 4 }, 0.5)).toThrow(/min <= max/);
    expect(() => dynamicGroupSize(general, 1.5)).toThrow(/\[0, 1\]/);
    expect(() => dynamicGroupSize(general, Number.NaN)).toThrow(/\[0, 1\]/);
  });
});

describe('hardware profiles', () => {
  it('each has a valid range', () => {
    for (const name of HARDWARE_PROFILE_NAMES) {
      const { min, max } = HARDWARE_PROFILES[name].groupSize;
      expect(Number.isInteger(min) && Number.isInteger(max) && min >= 2 && min <= max && max <= 64).toBe(true);
    }
  });

  it('3xh200 fixes groups at 12, as the seed and docs/recipe-3xH200.md', () => {
    expect(HARDWARE_PROFILES['3xh200'].groupSize).toEqual({ min: 12, max: 12 });
    const recipe = fs.readFileSync(path.join(__dirname, '../docs/recipe-3xH200.md'), 'utf8');
    expect(recipe).toMatch(/npx debugrl train [^\n]*--profile 3xh200/);
  });
});

describe('groupSizeBounds', () => {
  const base = TrainingRunInput.parse({ steps: 1 }); // groupSize 12
  it('is null without a range or a profile: every group has groupSize, as before', () => {
    expect(groupSizeBounds(base)).toBeNull();
  });
  it('takes the general maximum of 16 and groupSize as the minimum', () => {
    expect(groupSizeBounds(TrainingRunInput.parse({ steps: 1, groupSizeRange: {} }))).toEqual({ min: 12, max: 16 });
    expect(groupSizeBounds(TrainingRunInput.parse({ steps: 1, groupSize: 4, groupSizeRange: { max: 8 } }))).toEqual({ min: 4, max: 8 });
    expect(groupSizeBounds(TrainingRunInput.parse({ steps: 1, groupSizeRange: { min: 2, max: 6 } }))).toEqual({ min: 2, max: 6 });
  });
  it("takes a profile's range over the general maximum", () => {
    expect(groupSizeBounds(TrainingRunInput.parse({ steps: 1, profile: '3xh200' }))).toEqual({ min: 12, max: 12 });
    expect(groupSizeBounds(TrainingRunInput.parse({ steps: 1, groupSize: 4, profile: 'cpu-dev' }))).toEqual(HARDWARE_PROFILES['cpu-dev'].groupSize);
  });
});

describe('the run input', () => {
  const issues = (input: object) => {
    const r = TrainingRunInput.safeParse({ steps: 1, ...input });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('refuses a profile together with a range, a max below groupSize, min above max and an unknown profile', () => {
    expect(issues({ profile: '3xh200', groupSizeRange: { max: 16 } })).toEqual([expect.stringMatching(/^groupSizeRange: profile "3xh200" fixes/)]);
    expect(issues({ groupSizeRange: { max: 8 } })).toEqual(['groupSizeRange.max: must be at least groupSize (12), the range\'s min']);
    expect(issues({ groupSizeRange: { min: 8, max: 4 } })).toEqual(['groupSizeRange.max: must be at least min']);
    expect(issues({ profile: '8xb200' })).toHaveLength(1);
    expect(issues({ groupSizeRange: { max: 16 } })).toEqual([]);
  });

  it('comes from `train --group-size-max` and `--profile`', () => {
    expect(trainingInputFrom({ steps: 1, groupSize: 4, groupSizeMax: 8 })).toMatchObject({ groupSize: 4, groupSizeRange: { max: 8 } });
    expect(trainingInputFrom({ steps: 1, profile: '3xh200' })).toMatchObject({ profile: '3xh200' });
    expect(trainingInputFrom({ steps: 1 })).not.toHaveProperty('groupSizeRange');
    expect(trainingInputFrom({ steps: 1 })).not.toHaveProperty('profile');
  });
});

describe('minToSealFor', () => {
  it('is two thirds of the group by default: 8 of 12 (the seed), 11 of 16, 4 of 5', () => {
    const cfg = { groupSize: 12 };
    expect(minToSealFor(12, cfg)).toBe(8);
    expect(minToSealFor(16, cfg)).toBe(11);
    expect(minToSealFor(5, cfg)).toBe(4);
    expect(minToSealFor(2, cfg)).toBe(2);
  });
  it('scales an explicit minToSeal from groupSize to the group: 3 of 4 is 6 of 8', () => {
    expect(minToSealFor(4, { groupSize: 4, minToSeal: 3 })).toBe(3);
    expect(minToSealFor(8, { groupSize: 4, minToSeal: 3 })).toBe(6);
    expect(minToSealFor(2, { groupSize: 12, minToSeal: 2 })).toBe(2);
  });
  it("equals the run's fixed minToSeal at groupSize", () => {
    for (const input of [{}, { groupSize: 4 }, { groupSize: 2 }, { groupSize: 7, minToSeal: 5 }, { groupSize: 12, minToSeal: 12 }]) {
      const cfg = TrainingRunInput.parse({ steps: 1, ...input });
      expect(minToSealFor(cfg.groupSize, cfg)).toBe(runSettings(cfg).minToSeal);
    }
  });
});

describe('successEstimate', () => {
  const tasks = [
    { id: 'task_a', debuggerPreference: 'recommended' as const },
    { id: 'task_b', debuggerPreference: 'recommended' as const, prior: { successes: 8, failures: 0 } },
  ];
  it('is null for a task with no evidence, and the posterior mean once it has some', () => {
    let c = initialCurriculum(tasks);
    expect(successEstimate(c, 'task_a')).toBeNull();
    expect(successEstimate(c, 'task_b')).toBeCloseTo(9 / 10, 12); // Beta(1 + 8, 1 + 0)
    c = foldGroupEpisodes(c, 'task_a', [true, true, true, false].map((passed) => ({ passed, usedDebugger: true })));
    expect(successEstimate(c, 'task_a')).toBeCloseTo(4 / 6, 12);
    expect(dynamicGroupSize(general, successEstimate(c, 'task_a'))).toBe(6); // (2/3)^6 + (1/3)^6 = 0.089
    expect(successEstimate(c, 'task_missing')).toBeNull();
  });
});
