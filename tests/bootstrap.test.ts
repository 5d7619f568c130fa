/** Bootstrap intervals for pass@k (common/bootstrap.ts): hand-checked cases. */
import { bootstrapDifference, bootstrapPassAtK } from '../common/bootstrap';

describe('bootstrap intervals over tasks', () => {
  it('collapses to the estimate when every task has the same pass rate', () => {
    // Each task 1 of 2 → pass@1 = 0.5 for every resample.
    const tasks = ['a', 'b', 'c'].map((taskId) => ({ taskId, n: 2, c: 1 }));
    expect(bootstrapPassAtK(tasks, 1)).toMatchObject({ estimate: 0.5, low: 0.5, high: 0.5 });
    // pass@2 with n=2, c=1: 1 − C(1,2)/C(2,2) = 1.
    expect(bootstrapPassAtK(tasks, 2).estimate).toBe(1);
  });

  it('is wide at n = 2 on few tasks, and contains its estimate', () => {
    const tasks = [{ taskId: 'a', n: 2, c: 2 }, { taskId: 'b', n: 2, c: 0 }, { taskId: 'c', n: 2, c: 1 }];
    const i = bootstrapPassAtK(tasks, 1, { resamples: 4000 });
    expect(i.estimate).toBeCloseTo(0.5, 10); // (1 + 0 + 0.5) / 3
    expect(i.low!).toBeLessThan(0.25);
    expect(i.high!).toBeGreaterThan(0.75);
    expect(i.low!).toBeLessThanOrEqual(i.estimate!);
    expect(i.high!).toBeGreaterThanOrEqual(i.estimate!);
  });

  it('is seeded: the same inputs give the same interval', () => {
    const tasks = [{ taskId: 'a', n: 8, c: 3 }, { taskId: 'b', n: 8, c: 7 }];
    expect(bootstrapPassAtK(tasks, 3)).toEqual(bootstrapPassAtK(tasks, 3));
  });

  it('pairs the difference by task and ignores tasks only one side has', () => {
    const a = [{ taskId: 'x', n: 2, c: 0 }, { taskId: 'y', n: 2, c: 2 }, { taskId: 'only-a', n: 2, c: 2 }];
    const b = [{ taskId: 'x', n: 2, c: 2 }, { taskId: 'y', n: 2, c: 2 }];
    const d = bootstrapDifference(a, b, 1);
    expect(d.tasks).toBe(2);
    expect(d.estimate).toBeCloseTo(0.5, 10); // b: (1 + 1)/2 = 1; a: (0 + 1)/2 = 0.5
    expect(d.high).toBeCloseTo(1, 10); // a resample of only x: 1 − 0
    expect(d.low).toBeGreaterThanOrEqual(0);
    expect(bootstrapDifference(a, [], 1)).toMatchObject({ estimate: null, tasks: 0 });
  });
});
