/** The advantage the learner trains on (common/learner-advantage.ts), as shown on the training page: Dr. GRPO's
 * r_i − mean(r), no std division, times w_i = L_i^−a / mean_j L_j^−a with a = 0.25.
 *
 * Cross-checked once against the Python learner on 2026-12-03 (native/debugrl_native/learner/loss.py, via
 * .venv/bin/python: group_advantages(AdvantageInputs(rewards)) * length_weights(LengthWeightInputs(lengths, 0.25))):
 *   rewards [1, 0, -1, 0], lengths [1, 16, 81, 256]  ->  weights [1.92, 0.96, 0.64, 0.48],  A' [1.92, 0, -0.64, 0]
 *   rewards [-1.13, -1.78, -1.78, -1.78], lengths [40, 40, 40, 40]  ->  A' [0.4875, -0.1625, -0.1625, -0.1625]
 *   rewards [1, -1], lengths [0, 16]  ->  weights [4/3, 2/3],  A' [1.3333334, -0.6666667] (float32)
 *   rewards [-1.78 x4], lengths [10, 200, 30, 4000]  ->  A' [0, 0, 0, 0]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LENGTH_WEIGHT_POWER, learnerAdvantages } from '../common/learner-advantage';
import { trainingRunPage } from '../workers/viewer/pages';

const group = (rewards: number[], lengths: number[]) => rewards.map((reward, i) => ({ reward, completionTokens: lengths[i]! }));

describe('learnerAdvantages', () => {
  it('weights shorter trajectories up and longer ones down, mean weight one', () => {
    // L^-0.25 of 1, 16, 81, 256 = 1, 1/2, 1/3, 1/4; their mean = (12 + 6 + 4 + 3)/48 = 25/48;
    // w = (48/25)·(1, 1/2, 1/3, 1/4) = 1.92, 0.96, 0.64, 0.48. mean(r) = 0, so A = r and A' = r·w = 1.92, 0, −0.64, 0.
    const a = learnerAdvantages(group([1, 0, -1, 0], [1, 16, 81, 256]));
    [1.92, 0.96, 0.64, 0.48].forEach((w, i) => expect(a.lengthWeights[i]).toBeCloseTo(w, 12));
    [1, 0, -1, 0].forEach((c, i) => expect(a.centred[i]).toBeCloseTo(c, 12));
    [1.92, 0, -0.64, 0].forEach((x, i) => expect(a.advantages[i]).toBeCloseTo(x, 12));
    expect(a.zeroSignal).toBe(false);
  });

  it('does not divide by the group spread (Dr. GRPO): the issue-23 group keeps its small advantages', () => {
    // mean = (−1.13 − 3·1.78)/4 = −6.47/4 = −1.6175; A = 0.4875, −0.1625 ×3; equal lengths: w = 1.
    // Standard GRPO would divide by the population std (0.2815): 1.732 and −0.577.
    const a = learnerAdvantages(group([-1.13, -1.78, -1.78, -1.78], [40, 40, 40, 40]));
    [0.4875, -0.1625, -0.1625, -0.1625].forEach((x, i) => expect(a.advantages[i]).toBeCloseTo(x, 12));
    expect(a.zeroSignal).toBe(false);
  });

  it('clamps an empty trajectory to one token, as the learner does', () => {
    // L = max(1, 0) = 1 and 16: L^-0.25 = 1, 1/2, mean 3/4, w = 4/3, 2/3; mean(r) = 0: A' = 4/3, −2/3
    const a = learnerAdvantages(group([1, -1], [0, 16]));
    expect(a.lengthWeights[0]).toBeCloseTo(4 / 3, 12);
    expect(a.lengthWeights[1]).toBeCloseTo(2 / 3, 12);
    expect(a.advantages[0]).toBeCloseTo(4 / 3, 12);
    expect(a.advantages[1]).toBeCloseTo(-2 / 3, 12);
  });

  it('says when a group has no signal: all rewards equal, every advantage zero', () => {
    const a = learnerAdvantages(group([-1.78, -1.78, -1.78, -1.78], [10, 200, 30, 4000]));
    expect(a.zeroSignal).toBe(true);
    a.advantages.forEach((x) => expect(x).toBeCloseTo(0, 12));
    expect(learnerAdvantages([]).zeroSignal).toBe(true);
  });

  it('refuses input it cannot compute from', () => {
    expect(() => learnerAdvantages(group([1, Number.NaN], [1, 1]))).toThrow(/not a finite number/);
    expect(() => learnerAdvantages(group([1, 0], [1, -3]))).toThrow(/not a count/);
  });

  it('uses the learner\'s default length-weight power (the exported Python schema)', () => {
    const schema = readFileSync(join(__dirname, '../native/tests/fixtures/learner_schema.json'), 'utf8');
    const m = /"length_weight_power":\s*\{[^}]*"default":\s*([0-9.]+)/.exec(schema);
    expect(m).not.toBeNull();
    expect(LENGTH_WEIGHT_POWER).toBe(Number(m![1]));
  });

  it('is what the training page shows, with whether the group had signal', () => {
    const ep = (episodeId: string, reward: number, completionTokens: number | null) => ({ episodeId, reward, passed: reward > 0, completionTokens });
    const html = trainingRunPage(
      {
        run: { runId: 'r', workflowId: 'w', input: {} },
        points: [],
        groups: [
          { groupId: 'g1', taskId: 't1', step: 'r:1', rejectedReason: null, episodes: [ep('a', 1, 1), ep('b', 0, 16), ep('c', -1, 81), ep('d', 0, 256)] },
          { groupId: 'g2', taskId: 't2', step: 'r:1', rejectedReason: null, episodes: [ep('e', -1.78, 10), ep('f', -1.78, 4000)] },
        ],
      },
      { temporalUi: 'http://localhost:8233', namespace: 'default' },
    );
    // the first group's A' from the first test: 1.92, 0, −0.64, 0
    expect(html).toContain('1.00 (adv 1.920, 1 tok)');
    expect(html).toContain('-1.00 (adv -0.640, 81 tok)');
    expect(html).toContain('none: rewards equal');
    expect(html).not.toContain('normalises by the group');
  });
});
