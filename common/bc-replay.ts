/** Behaviour-cloning replay: which SFT examples a training step replays. Pure and deterministic in (seed, step), so a
 * retried step sends the learner the same examples, and two runs with one seed replay the same ones. */

/** A 32-bit mix of the run's seed and the step (murmur3's finaliser), so neighbouring steps draw unrelated samples. */
function mix(seed: number, step: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(step >>> 0, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** `take` distinct indices of `count` examples for step `step` (all of them, in a shuffled order, when take >= count):
 * a partial Fisher-Yates shuffle driven by mulberry32 seeded with mix(seed, step). */
export function replayIndices(count: number, take: number, seed: number, step: number): number[] {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(take) || take < 0) throw new Error(`replayIndices: count and take must be non-negative integers (got ${count}, ${take})`);
  const idx = Array.from({ length: count }, (_, i) => i);
  let a = mix(seed, step);
  const next = () => {
    let t = (a = (a + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const n = Math.min(take, count);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(next() * (count - i));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx.slice(0, n);
}
