/** STaR's keep rule (common/star.ts `improved`): StarLoopWorkflow keeps a generation's adapter only when its validation
 * pass@1 beats the best so far by MORE than minImprovement. Values are dyadic fractions (exact in binary floating
 * point), so each boundary below is the exact one and not float rounding. */
import { improved, StarLoopInput } from '../common/star';

describe('improved (the STaR keep rule)', () => {
  it('keeps a generation that improves by more than minImprovement', () => {
    // 0.5 > 0.25 + 0.125 = 0.375: kept
    expect(improved(0.25, 0.5, 0.125)).toBe(true);
    // 0.375 + 2^-10 = 0.3759765625 > 0.375: kept by the smallest step over the bar
    expect(improved(0.25, 0.375 + 2 ** -10, 0.125)).toBe(true);
    // with no margin any rise counts: 0.25 > 0.125 + 0
    expect(improved(0.125, 0.25, 0)).toBe(true);
  });

  it('rejects a generation that does not improve enough, or gets worse', () => {
    // 0.3125 > 0.375 is false: it rose by 0.0625, under the 0.125 margin
    expect(improved(0.25, 0.3125, 0.125)).toBe(false);
    // worse: 0.125 > 0.25 + 0 is false
    expect(improved(0.25, 0.125, 0)).toBe(false);
  });

  it('rejects at the boundary: a rise of exactly minImprovement, or an equal pass@1 with no margin', () => {
    // 0.375 > 0.25 + 0.125 = 0.375 is false (strict)
    expect(improved(0.25, 0.375, 0.125)).toBe(false);
    // 0.5 > 0.5 + 0 is false: an equal generation is not kept
    expect(improved(0.5, 0.5, 0)).toBe(false);
    // 0 > 0 + 0 is false: the all-fail plateau never replaces the best
    expect(improved(0, 0, 0)).toBe(false);
  });

  it('never keeps an unmeasured generation, and any measured one beats an unmeasured best', () => {
    expect(improved(0.25, null, 0)).toBe(false);
    expect(improved(null, null, 0)).toBe(false);
    expect(improved(null, 0, 0.125)).toBe(true);
  });
});

describe("StarLoopInput's SFT settings (common/sft-settings.ts)", () => {
  it('writes no SFT hyperparameter of its own: absent ones stay absent, so the learner applies its defaults', () => {
    expect(StarLoopInput.parse({}).sft).toEqual({ epochs: 3 });
    expect(StarLoopInput.parse({ sft: { lr: 1e-4 } }).sft).toEqual({ epochs: 3, lr: 1e-4 });
  });

  it('still parses an input that names every field, as saved loops did', () => {
    const old = { epochs: 1, lr: 1e-4, warmupSteps: 0, batchExamples: 1, loraRank: 4 };
    expect(StarLoopInput.parse({ sft: old }).sft).toEqual(old);
  });

  it('refuses the settings the loop decides itself (the initial adapter, the model) and out-of-range values', () => {
    expect(StarLoopInput.safeParse({ sft: { initAdapter: 'sft-v1' } }).success).toBe(false);
    expect(StarLoopInput.safeParse({ sft: { modelDir: '/models/x' } }).success).toBe(false);
    expect(StarLoopInput.safeParse({ sft: { epochs: 0 } }).success).toBe(false);
    expect(StarLoopInput.safeParse({ sft: { lr: 0 } }).success).toBe(false);
  });
});
