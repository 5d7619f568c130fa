/** SFT corpus: every behavioural filter on hand-built trajectories, the seed's interleaving order, microskill windows,
 * and `sft build` against real PostgreSQL (TRL export loaded with `datasets`, masks from SmolLM2's tokenizer, bad
 * input refused with nothing written). */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool } from 'pg';
import { buildSftCorpus } from '../activities/sft';
import { REPO_ROOT } from '../common/config';
import { interleaveShortLong, selectTrajectories, skillWindows, storedTokens } from '../common/sft-corpus';
import { rejections, SftFilterConfig, stepsOf } from '../common/sft-filters';
import { TRAJECTORY_SCHEMA, type ChatMessage, type TrajectoryRecord } from '../common/trajectory';
import { TOOL_INFO, type ToolName } from '../harness/tools';
import { config } from './helpers/services';

type T = [name: ToolName, args?: Record<string, unknown>, ok?: boolean, output?: string];

/** A passing trajectory record from (tool, arguments, ok, observation) turns. */
function record(turns: T[], over: Partial<TrajectoryRecord> = {}): TrajectoryRecord {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'fix the bug' },
    { role: 'user', content: 'tests fail' },
  ];
  const out: TrajectoryRecord['turns'] = turns.map(([name, args = {}, ok = true, output = 'ok'], i) => {
    const msg = { role: 'assistant' as const, content: null, tool_calls: [{ id: `c${i}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }] };
    messages.push(msg, { role: 'tool', tool_call_id: `c${i}`, content: output });
    return {
      turn: i + 1,
      assistant: { message: msg, toolCall: { name, arguments: args }, invalidReason: null, promptTokens: 1, completionTokens: 1, tokenCounting: 'approx-chars/4', policyVersion: 0, latencyMs: 0 },
      tool: { tool: name, ok, output, stateChanging: TOOL_INFO[name].stateChanging, debugger: TOOL_INFO[name].debugger, meta: {}, latencyMs: 0, invalidReply: false },
    };
  });
  return {
    schema: TRAJECTORY_SCHEMA,
    episodeId: `ep-${randomBytes(4).toString('hex')}`,
    workflowId: 'wf',
    taskId: 'task_a',
    split: 'train',
    policy: { spec: 'oracle', version: 0 },
    toolset: 'full',
    evaluationId: null,
    arm: null,
    seed: 0,
    limits: {},
    messages,
    turns: out,
    recoveries: [],
    outcome: { passed: true, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 1, completion: 1, finalContext: 1 },
    timings: { startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:01:00Z', durationMs: 1 },
    ...over,
  };
}

const PASS = 'Result: 3 passed';
const stopped = 'Stopped at breakpoint 1 (m.py:5 in f)';
/** A disciplined trajectory that clears every filter. */
const GOOD: T[] = [
  ['bash', { command: 'ls' }],
  ['run_tests', {}, false, 'Result: 1 failed, 2 passed'],
  ['read_file', { path: 'm.py' }],
  ['start_debugger', { test_file: 'test_m.py' }, true, 'Stopped before the test body'],
  ['add_breakpoint', { file: 'm.py', line: 5 }],
  ['continue_execution', {}, true, stopped],
  ['examine_locals', {}, true, 'x = 1'],
  ['edit_file', { path: 'm.py', old_text: 'y = x', new_text: 'y = x + 1' }],
  ['run_tests', {}, true, PASS],
  ['done', { summary: 'fixed' }],
];
const cfg = SftFilterConfig.parse({});
const reasons = (turns: T[], over: object = {}) => rejections(stepsOf(record(turns)), SftFilterConfig.parse(over)).map((r) => r.reason);
/** Isolate one filter from the late-edit one (hand-built traces put their extra turns before the edit). */
const EARLY_OK = { lateEditFraction: 1 };

describe('behavioural filters', () => {
  it('keep a disciplined trajectory', () => expect(reasons(GOOD)).toEqual([]));

  it('reject a debugger treadmill and a long debugger streak', () => {
    const dbg: T[] = Array.from({ length: 14 }, (_, i) => (i % 2 ? ['print_variable', { expression: `x + ${i}` }, true, `x + ${i} = ${i + 1}`] : ['step_over', {}, true, `Stopped at m.py:${i}`]));
    const mid: T[] = [...GOOD.slice(0, 6), ...dbg, ...GOOD.slice(7)];
    // 23 turns; start, add, continue and the 14 are debugger calls: share 17/23 = 0.74 > 0.7, a run of 17 > 14
    expect(reasons(mid, EARLY_OK)).toEqual(['debugger_treadmill', 'debugger_streak']);
    const only = (o: object) => rejections(stepsOf(record(mid)), SftFilterConfig.parse({ ...EARLY_OK, ...o })).map((r) => r.reason);
    expect(only({ maxDebuggerStreak: 17 })).toEqual(['debugger_treadmill']);
    expect(only({ maxDebuggerShare: 0.75 })).toEqual(['debugger_streak']);
  });

  it('reject a late first source edit (after 75 % of the turns) and no edit at all', () => {
    const late: T[] = [...GOOD.slice(0, 7), ...Array.from({ length: 6 }, (_, i): T => ['bash', { command: `grep -n x${i} m.py` }, true, `${i}`]), ...GOOD.slice(7)];
    // first edit at index 13 of 16 turns: 0.81 > 0.75
    expect(reasons(late)).toEqual(['late_source_edit']);
    expect(reasons(GOOD.filter((t) => t[0] !== 'edit_file'))).toEqual(['late_source_edit']);
  });

  it('reject a final edit that was never retested, and done before a verifying run', () => {
    const untested: T[] = [...GOOD.slice(0, 8), ['done', {}]];
    expect(reasons(untested, EARLY_OK)).toEqual(['final_edit_not_retested', 'done_before_verify']);
    const failingThenDone: T[] = [...GOOD.slice(0, 8), ['run_tests', {}, false, 'Result: 1 failed'], ['done', {}]];
    expect(reasons(failingThenDone, EARLY_OK)).toEqual(['done_before_verify']);
  });

  it('reject an edit to a file that was not read first (bash cat counts as reading)', () => {
    const blind = GOOD.map((t): T => (t[0] === 'read_file' ? ['read_file', { path: 'other.py' }] : t));
    expect(reasons(blind)).toEqual(['edit_without_read']);
    const viaBash = GOOD.map((t): T => (t[0] === 'read_file' ? ['bash', { command: "sed -n '1,40p' m.py" }] : t));
    expect(reasons(viaBash)).toEqual([]);
  });

  it('reject invalid tool ordering: stepping before the debugger started, inspecting after the program ended', () => {
    const early: T[] = [GOOD[0]!, ['step_over', {}, false, 'no debugger session'], ...GOOD.slice(1)];
    expect(reasons(early)).toEqual(['invalid_tool_ordering']);
    const afterEnd: T[] = [...GOOD.slice(0, 5), ['continue_execution', {}, true, 'The program finished. 1 failed'], ['examine_locals', {}, false, 'no'], ...GOOD.slice(7)];
    expect(reasons(afterEnd)).toEqual(['invalid_tool_ordering']);
  });

  it('reject blind stepping: more than 3 steps with no inspection', () => {
    const steps = (n: number): T[] => Array.from({ length: n }, (_, i) => ['step_over', {}, true, `Stopped at m.py:${6 + i}`]);
    expect(reasons([...GOOD.slice(0, 7), ...steps(3), ...GOOD.slice(7)], EARLY_OK)).toEqual([]);
    expect(reasons([...GOOD.slice(0, 7), ...steps(4), ...GOOD.slice(7)], EARLY_OK)).toEqual(['blind_stepping']);
  });

  it('reject a repeated loop, but not a breakpoint in a loop whose values change', () => {
    const loop: T[] = Array.from({ length: 3 }, () => [['continue_execution', {}, true, stopped], ['print_variable', { expression: 'x' }, true, 'x = 1']] as T[]).flat();
    expect(reasons([...GOOD.slice(0, 7), ...loop, ...GOOD.slice(7)])).toContain('repeated_loop');
    const moving: T[] = [0, 1, 2].flatMap((i) => [['continue_execution', {}, true, stopped], ['print_variable', { expression: 'x' }, true, `x = ${i}`]] as T[]);
    expect(reasons([...GOOD.slice(0, 7), ...moving, ...GOOD.slice(7)])).not.toContain('repeated_loop');
  });

  it('reject a reply without a valid tool call', () => {
    const r = record(GOOD);
    r.turns[2]!.assistant.toolCall = null;
    expect(rejections(stepsOf(r), cfg).map((x) => x.reason)).toContain('invalid_reply');
  });
});

describe('selection', () => {
  it("interleaves shortest and longest working inward (the seed's loop)", () => {
    expect(interleaveShortLong([3, 1, 6, 2, 5, 4], (x) => x)).toEqual([1, 6, 2, 5, 3, 4]);
    expect(interleaveShortLong([1, 2, 3, 4, 5], (x) => x)).toEqual([1, 5, 2, 4, 3]);
  });

  it('drops failures and duplicates, caps per task, and counts each rejection reason per task', () => {
    const extra = (n: number): T[] => Array.from({ length: n }, (_, i) => ['bash', { command: `wc -l m${i}.py` }, true, `${i}`]);
    const recs = [0, 1, 2, 3, 4].map((n) => record([...GOOD.slice(0, 8), ...extra(n), ...GOOD.slice(8)]));
    const dup = record([...GOOD]);
    const failed = record(GOOD, { outcome: { passed: false, tests: {}, exitReason: 'done', error: null, gradeNotes: [] } });
    const rejected = record(GOOD.filter((t) => t[0] !== 'edit_file'), { taskId: 'task_b' });
    const s = selectTrajectories([...recs, dup, failed, rejected], cfg, 3);
    expect(s.kept.map((r) => r.turns.length)).toEqual([10, 14, 11]); // shortest, longest, second shortest
    expect(s.duplicates).toBe(1);
    expect(s.failed).toBe(1);
    expect(s.capped).toBe(2);
    expect(s.byReason.late_source_edit).toBe(1);
    expect(s.byTask.task_b).toEqual({ candidates: 1, failed: 0, rejected: 1, duplicates: 0, capped: 0, kept: 0 });
  });

  it('finds the four microskill windows', () => {
    const turns: T[] = [...GOOD.slice(0, 7), ['edit_file', { path: 'm.py', old_text: 'zz', new_text: 'b' }, false, 'old_text was not found'], ...GOOD.slice(7)];
    const w = skillWindows(stepsOf(record(turns)));
    expect(w).toEqual([
      { skill: 'breakpoint_inspect', from: 4, to: 6 },
      { skill: 'rerun_before_done', from: 8, to: 10 },
      { skill: 'recover_failed_edit', from: 7, to: 8 },
    ]);
    // read_before_edit needs the edit within 3 turns of the read
    const w2 = skillWindows(stepsOf(record([GOOD[0]!, GOOD[1]!, GOOD[2]!, GOOD[7]!, GOOD[8]!, GOOD[9]!])));
    expect(w2[0]).toEqual({ skill: 'read_before_edit', from: 2, to: 3 });
  });

  it('reuses stored token ids only when every turn extends the last', () => {
    const r = record(GOOD.slice(0, 2));
    r.turns[0]!.assistant.promptTokenIds = [1, 2];
    r.turns[0]!.assistant.tokenIds = [3];
    r.turns[1]!.assistant.promptTokenIds = [1, 2, 3, 4];
    r.turns[1]!.assistant.tokenIds = [5, 6];
    expect(storedTokens(r)).toEqual({ tokenIds: [1, 2, 3, 4, 5, 6], assistantMask: [false, false, true, false, true, true] });
    r.turns[1]!.assistant.promptTokenIds = [1, 9, 3, 4];
    expect(storedTokens(r)).toBeNull();
  });
});

describe('sft build on PostgreSQL', () => {
  const pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL });
  const evalId = `sft-test-${randomBytes(4).toString('hex')}`;
  const emptyId = `${evalId}-empty`;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sft-build-'));

  beforeAll(async () => {
    for (const id of [evalId, emptyId]) await pool.query('insert into evaluations (evaluation_id, workflow_id, input) values ($1, $1, $2)', [id, {}]);
    const extra = (n: number): T[] => Array.from({ length: n }, (_, i) => ['bash', { command: `wc -l m${i}.py` }, true, `${i}`]);
    const recs = [0, 1, 2, 3].map((n) => record([...GOOD.slice(0, 8), ...extra(n), ...GOOD.slice(8)], { evaluationId: evalId, taskId: n % 2 ? 'task_a' : 'task_b' }));
    recs.push(record(GOOD, { evaluationId: emptyId, outcome: { passed: false, tests: {}, exitReason: 'done', error: null, gradeNotes: [] } }));
    for (const r of recs) {
      await pool.query(
        `insert into episodes (episode_id, workflow_id, task_id, split, policy_spec, toolset, evaluation_id, passed, exit_reason, turns, prompt_tokens, completion_tokens, tests, record, started_at, finished_at)
         values ($1, 'wf', $2, 'train', 'oracle', 'full', $3, $4, 'done', $5, 1, 1, '{}', $6, now(), now())`,
        [r.episodeId, r.taskId, r.evaluationId, r.outcome.passed, r.turns.length, r],
      );
    }
  });
  afterAll(async () => {
    await pool.query('delete from episodes where evaluation_id = any($1)', [[evalId, emptyId]]);
    await pool.query('delete from evaluations where evaluation_id = any($1)', [[evalId, emptyId]]);
    await pool.end();
  });

  it('writes a corpus whose TRL export loads with datasets and whose masks cover the assistant turns', async () => {
    const out = path.join(root, 'corpus');
    const s = await buildSftCorpus({ pool, config }, { evaluationIds: [evalId], outDir: out, heldOutFraction: 0.25 });
    expect({ trajectories: s.trajectories, heldOut: s.heldOut > 0, candidates: s.candidates }).toEqual({ trajectories: 4, heldOut: true, candidates: 4 });
    expect(s.microskills).toBe(4 * 2); // breakpoint_inspect and rerun_before_done in each
    const py = `
import json, sys
from datasets import load_dataset
ds = load_dataset("json", data_files=sys.argv[1], split="train")
row = ds[0]
roles = [m["role"] for m in row["messages"]]
calls = [m["tool_calls"][0]["function"]["name"] for m in row["messages"] if m["role"] == "assistant"]
tok = [json.loads(l) for l in open(sys.argv[2])]
print(json.dumps({"rows": len(ds), "columns": sorted(ds.column_names), "roles": roles[:4], "first_call": calls[0], "tools": len(row["tools"]),
  "aligned": all(len(t["token_ids"]) == len(t["assistant_mask"]) and any(t["assistant_mask"]) and not t["assistant_mask"][0] for t in tok)}))
`;
    const res = JSON.parse(execFileSync(config.DEBUGRL_PYTHON, ['-c', py, path.join(out, 'train.chat.jsonl'), path.join(out, 'train.tokens.jsonl')], { cwd: path.join(REPO_ROOT, 'native') }).toString());
    expect(res).toEqual({
      rows: s.train,
      columns: ['example_id', 'kind', 'messages', 'provenance', 'skill', 'tools', 'train_from_message'],
      roles: ['system', 'user', 'assistant', 'tool'],
      first_call: 'bash',
      tools: 18,
      aligned: true,
    });
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(Object.keys(report.byTask).sort()).toEqual(['task_a', 'task_b']);
    const ex = fs.readFileSync(path.join(out, 'examples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(new Set(ex.map((e) => `${e.provenance.policy}/${e.provenance.generation}`))).toEqual(new Set(['oracle/0']));
  }, 300_000);

  it('refuses a missing evaluation, an empty corpus and an existing folder, writing nothing', async () => {
    const out = path.join(root, 'nothing');
    await expect(buildSftCorpus({ pool, config }, { evaluationIds: [`${evalId}-nope`], outDir: out })).rejects.toThrow(`no evaluation "${evalId}-nope"`);
    await expect(buildSftCorpus({ pool, config }, { evaluationIds: [emptyId], outDir: out })).rejects.toThrow(/empty corpus: 1 episode\(s\) in .*, 1 failed their tests/);
    expect(fs.readdirSync(root).filter((f) => f.startsWith('nothing'))).toEqual([]);
    await expect(buildSftCorpus({ pool, config }, { evaluationIds: [evalId], outDir: path.join(root, 'corpus') })).rejects.toThrow('already exists');
  });
});
