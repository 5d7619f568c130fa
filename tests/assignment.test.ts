/** common/assignment.ts: fill-nearest picks the fullest open group (in-flight episodes count, the first opened wins a
 * tie) and opens a group only when none has room; round-robin deals in turn, giving a new group its turn after the
 * newest while fewer than poolSize are open; both say null when nothing can take an episode. A dealt sequence over a
 * pool is checked episode by episode against the hand-written order. */
import { Assignment, nextGroup, type AssignmentInput, type GroupSlots } from '../common/assignment';
import { TrainingRunInput } from '../common/training';

const g = (done: number, inFlight: number): GroupSlots => ({ done, inFlight });
const input = (groups: GroupSlots[], over: Partial<AssignmentInput> = {}): AssignmentInput => ({ groups, groupSize: 4, mayOpen: true, poolSize: 8, last: -1, ...over });

describe('fill-nearest', () => {
  it('picks the open group nearest completion, counting episodes in flight', () => {
    // fills: 1+0 = 1, 0+3 = 3, 2+0 = 2 → the second group
    expect(nextGroup('fill-nearest', input([g(1, 0), g(0, 3), g(2, 0)]))).toBe(1);
  });
  it('breaks a tie for the first opened and skips full groups', () => {
    // fills 4 (full), 2, 2 → index 1, not 2
    expect(nextGroup('fill-nearest', input([g(2, 2), g(1, 1), g(2, 0)]))).toBe(1);
  });
  it('opens a group only when no open group has room, and never past what the run needs', () => {
    expect(nextGroup('fill-nearest', input([g(3, 1), g(0, 4)]))).toBe('new');
    expect(nextGroup('fill-nearest', input([g(3, 1)], { mayOpen: false }))).toBeNull();
    expect(nextGroup('fill-nearest', input([], { mayOpen: false }))).toBeNull();
  });
  it('ignores the round-robin cursor and pool size', () => {
    expect(nextGroup('fill-nearest', input([g(0, 0), g(0, 2)], { last: 1, poolSize: 1 }))).toBe(1);
  });
});

describe('round-robin', () => {
  it('gives the group after the last one its turn, then a new group after the newest', () => {
    expect(nextGroup('round-robin', input([g(0, 1), g(0, 1), g(0, 1)], { last: 0 }))).toBe(1);
    expect(nextGroup('round-robin', input([g(0, 1), g(0, 1), g(0, 1)], { last: 2 }))).toBe('new');
  });
  it('wraps to the oldest group with room once poolSize groups are open or the run needs no more', () => {
    expect(nextGroup('round-robin', input([g(0, 1), g(0, 1)], { last: 1, poolSize: 2 }))).toBe(0);
    expect(nextGroup('round-robin', input([g(4, 0), g(0, 1)], { last: 1, mayOpen: false }))).toBe(1);
  });
  it('starts from the oldest group when the last one has sealed, and says null when nothing has room', () => {
    expect(nextGroup('round-robin', input([g(2, 0), g(1, 0)], { last: -1 }))).toBe(0);
    expect(nextGroup('round-robin', input([g(2, 2), g(0, 4)], { last: 0, poolSize: 2 }))).toBeNull();
  });
});

/** Deal `n` episodes into a pool that never finishes one; returns the group index each went to. */
function deal(assignment: Assignment, n: number, groupSize: number, poolSize: number): number[] {
  const groups: GroupSlots[] = [];
  const out: number[] = [];
  let last = -1;
  for (let e = 0; e < n; e++) {
    const pick = nextGroup(assignment, { groups, groupSize, mayOpen: true, poolSize, last });
    if (pick === null) throw new Error('no group');
    const i = pick === 'new' ? groups.push({ done: 0, inFlight: 0 }) - 1 : pick;
    groups[i].inFlight++;
    out.push((last = i));
  }
  return out;
}

describe('dealing 8 episodes, groups of 4, pool of 4', () => {
  it('fill-nearest fills one group, then the next', () => {
    expect(deal('fill-nearest', 8, 4, 4)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });
  it('round-robin opens one group per slot and deals across them', () => {
    expect(deal('round-robin', 8, 4, 4)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
  });
});

describe('TrainingRunInput.assignment', () => {
  it('defaults to fill-nearest and refuses anything else', () => {
    expect(TrainingRunInput.parse({ steps: 1 }).assignment).toBe('fill-nearest');
    expect(TrainingRunInput.parse({ steps: 1, assignment: 'round-robin' }).assignment).toBe('round-robin');
    const bad = TrainingRunInput.safeParse({ steps: 1, assignment: 'random' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['assignment']);
  });
});
