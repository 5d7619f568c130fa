/**
 * Building an SFT corpus from stored trajectories. Pure: selection, interleaving, dedupe, microskills, the held-out
 * part and the export rows. The activity (activities/sft.ts) reads the records and writes the files.
 *
 * One example is a conversation plus which of its assistant messages are trained: a whole trajectory trains every
 * assistant message; a microskill keeps the conversation up to the end of its window and trains only the window's
 * assistant messages (the earlier context is masked). User, system and tool messages are never trained (the seed
 * computed the SFT loss on assistant tokens only).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { REJECTION_REASONS, rejections, stepsOf, type FilterStep, type Rejection, type RejectionReason, type SftFilterConfig } from './sft-filters';
import type { ChatMessage, TrajectoryRecord } from './trajectory';

export const SFT_CORPUS_SCHEMA = 'debugrl.sft-corpus/v1';

export const MICROSKILLS = ['read_before_edit', 'breakpoint_inspect', 'rerun_before_done', 'recover_failed_edit'] as const;
export type Microskill = (typeof MICROSKILLS)[number];

export const Provenance = z.object({
  episodeId: z.string(),
  evaluationId: z.string().nullable(),
  taskId: z.string(),
  /** The policy that produced the trajectory (its spec string: `oracle`, `embedded:sft-v2`, `openai:…`). */
  policy: z.string(),
  policyVersion: z.number().int(),
  /** The STaR generation whose build added it (0: the first corpus). */
  generation: z.number().int().min(0),
});
export type Provenance = z.infer<typeof Provenance>;

export const CorpusExample = z.object({
  exampleId: z.string(),
  kind: z.enum(['trajectory', 'microskill']),
  skill: z.enum(MICROSKILLS).nullable(),
  heldOut: z.boolean(),
  provenance: Provenance,
  /** Full OpenAI-shaped conversation up to the last trained message. */
  messages: z.array(z.unknown()),
  /** Assistant messages at or after this index are trained; earlier ones are context. */
  trainFromMessage: z.number().int().min(0),
  /** The server's token ids per assistant turn, when every turn of the episode has them (reused, never re-rendered). */
  storedTokens: z.object({ tokenIds: z.array(z.number().int()), assistantMask: z.array(z.boolean()) }).nullable(),
  turns: z.number().int(),
});
export type CorpusExample = z.infer<typeof CorpusExample>;

// ----- selection ---------------------------------------------------------------------------------------------------

/** The seed's order within one task: sort by turns, then alternate shortest and longest, working inward, so short
 * efficient fixes and long recoveries are both kept when a cap cuts the list. [1..6] -> 1, 6, 2, 5, 3, 4. */
export function interleaveShortLong<T>(group: T[], turnsOf: (t: T) => number): T[] {
  const sorted = [...group].sort((a, b) => turnsOf(a) - turnsOf(b));
  const picks: T[] = [];
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    picks.push(sorted[lo]!);
    if (hi !== lo) picks.push(sorted[hi]!);
    lo++;
    hi--;
  }
  return picks;
}

/** Two trajectories with the same tool calls (names and arguments, in order) teach the same thing: keep one. */
export function callSignature(steps: FilterStep[]): string {
  return createHash('sha256').update(JSON.stringify(steps.map((s) => [s.name, s.arguments]))).digest('hex');
}

export interface Judged {
  record: TrajectoryRecord;
  steps: FilterStep[];
  rejections: Rejection[];
}

export interface Selection {
  kept: TrajectoryRecord[];
  byReason: Record<RejectionReason, number>;
  byTask: Record<string, { candidates: number; failed: number; rejected: number; duplicates: number; capped: number; kept: number }>;
  failed: number;
  duplicates: number;
  capped: number;
}

/** Passing trajectories that clear every filter, deduplicated, interleaved per task and capped per task. */
export function selectTrajectories(records: TrajectoryRecord[], filters: SftFilterConfig, perTaskCap: number): Selection {
  const byReason = Object.fromEntries(
    REJECTION_REASONS.map((r) => [r, 0]),
  ) as Record<RejectionReason, number>;
  const byTask: Selection['byTask'] = {};
  const task = (id: string) => (byTask[id] ??= { candidates: 0, failed: 0, rejected: 0, duplicates: 0, capped: 0, kept: 0 });
  const groups = new Map<string, Judged[]>();
  let failed = 0;
  let duplicates = 0;
  let capped = 0;
  const seen = new Set<string>();
  // Sorted by episode id first, so which duplicate survives does not depend on the order PostgreSQL returned rows.
  for (const record of [...records].sort((a, b) => a.episodeId.localeCompare(b.episodeId))) {
    const t = task(record.taskId);
    t.candidates++;
    if (!record.outcome.passed) {
      failed++;
      t.failed++;
      continue;
    }
    const steps = stepsOf(record);
    const rej = rejections(steps, filters);
    if (rej.length) {
      t.rejected++;
      for (const r of new Set(rej.map((x) => x.reason))) byReason[r]++;
      continue;
    }
    const sig = callSignature(steps);
    if (seen.has(sig)) {
      duplicates++;
      t.duplicates++;
      continue;
    }
    seen.add(sig);
    groups.set(record.taskId, [...(groups.get(record.taskId) ?? []), { record, steps, rejections: [] }]);
  }
  const kept: TrajectoryRecord[] = [];
  for (const [taskId, group] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const order = interleaveShortLong(group, (j) => j.record.turns.length);
    const take = order.slice(0, perTaskCap);
    capped += order.length - take.length;
    task(taskId).capped += order.length - take.length;
    task(taskId).kept += take.length;
    kept.push(...take.map((j) => j.record));
  }
  return { kept, byReason, byTask, failed, duplicates, capped };
}

// ----- examples ----------------------------------------------------------------------------------------------------

/** Index of each turn's assistant message in the record's conversation (turn i -> messages index). */
export function assistantIndices(messages: ChatMessage[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
}

/** A stable hash in [0, 1) for the fixed held-out part. */
function unit(key: string): number {
  return parseInt(createHash('sha256').update(key).digest('hex').slice(0, 12), 16) / 2 ** 48;
}

/** The fixed held-out part: the trajectories whose episode ids hash lowest, `fraction` of them (at least one when
 * there are two or more). Stable: adding trajectories to a corpus never moves an old one across the line unless it
 * is displaced by a lower hash. The seed held out 35 of its 347 trajectories (10 %). */
export function heldOutIds(episodeIds: string[], fraction: number): Set<string> {
  if (episodeIds.length < 2 || fraction <= 0) return new Set();
  const n = Math.min(episodeIds.length - 1, Math.max(1, Math.round(episodeIds.length * fraction)));
  return new Set([...episodeIds].sort((a, b) => unit(a) - unit(b) || a.localeCompare(b)).slice(0, n));
}

/** Token ids stored by the server, reused as they are when every assistant turn has them and each turn's prompt
 * extends the previous prompt plus reply (one chain): mask = the reply tokens. Otherwise null (render instead). */
export function storedTokens(record: TrajectoryRecord, upToTurn = record.turns.length): CorpusExample['storedTokens'] {
  const turns = record.turns.slice(0, upToTurn);
  if (!turns.length || turns.some((t) => !t.assistant.promptTokenIds || !t.assistant.tokenIds)) return null;
  const ids: number[] = [];
  const mask: boolean[] = [];
  for (const t of turns) {
    const prompt = t.assistant.promptTokenIds!;
    if (prompt.length < ids.length || ids.some((x, i) => prompt[i] !== x)) return null;
    const added = prompt.slice(ids.length);
    ids.push(...added, ...t.assistant.tokenIds!);
    mask.push(...added.map(() => false), ...t.assistant.tokenIds!.map(() => true));
  }
  return { tokenIds: ids, assistantMask: mask };
}

function provenanceOf(r: TrajectoryRecord, generation: number): Provenance {
  return { episodeId: r.episodeId, evaluationId: r.evaluationId, taskId: r.taskId, policy: r.policy.spec, policyVersion: r.policy.version, generation };
}

const exampleId = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

export function trajectoryExample(r: TrajectoryRecord, generation: number, heldOut: boolean): CorpusExample {
  return {
    exampleId: exampleId(['trajectory', r.episodeId]),
    kind: 'trajectory',
    skill: null,
    heldOut,
    provenance: provenanceOf(r, generation),
    messages: r.messages,
    trainFromMessage: 0,
    storedTokens: storedTokens(r),
    turns: r.turns.length,
  };
}

/** A window of turns [from, to] (0-based, inclusive) that shows one habit. */
export interface SkillWindow {
  skill: Microskill;
  from: number;
  to: number;
}

const samePath = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.replace(/^\.?\//, '') === b.replace(/^\.?\//, '');

/** The microskill windows of a kept trajectory, at most one per skill (the first occurrence):
 *  - read_before_edit: a read of a file, then (within 3 turns) a successful edit of it;
 *  - breakpoint_inspect: add_breakpoint, continue that stops at a breakpoint, then the first inspection;
 *  - rerun_before_done: the last source edit (or, if it is more than 4 turns back, the last test run), the passing
 *    test run, done;
 *  - recover_failed_edit: a refused edit, then the successful edit of the same file. */
export function skillWindows(steps: FilterStep[]): SkillWindow[] {
  const out: SkillWindow[] = [];
  const find = (skill: Microskill, w: Omit<SkillWindow, 'skill'> | null) => {
    if (w && w.to >= w.from) out.push({ skill, ...w });
  };
  find('read_before_edit', (() => {
    for (const [i, s] of steps.entries()) {
      if (s.name !== 'read_file' || !s.ok) continue;
      const j = steps.findIndex((e, k) => k > i && k <= i + 3 && e.name === 'edit_file' && e.ok && samePath(e.arguments.path, s.arguments.path));
      if (j > 0) return { from: i, to: j };
    }
    return null;
  })());
  find('breakpoint_inspect', (() => {
    for (const [i, s] of steps.entries()) {
      if (s.name !== 'add_breakpoint' || !s.ok) continue;
      const c = steps.findIndex((e, k) => k > i && e.name === 'continue_execution');
      if (c < 0 || !/Stopped at breakpoint/.test(steps[c]!.output)) continue;
      const x = steps.findIndex((e, k) => k > c && ['examine_locals', 'print_variable', 'run_expression'].includes(e.name ?? ''));
      if (x > 0 && x <= c + 2) return { from: i, to: x };
    }
    return null;
  })());
  find('rerun_before_done', (() => {
    const d = steps.findIndex((s) => s.name === 'done');
    if (d < 1) return null;
    let e = d - 1;
    while (e >= 0 && !(steps[e]!.name === 'edit_file' && steps[e]!.ok)) e--;
    if (e < 0) return null;
    // from the edit when it is close, else from the last test run before done (which must have passed)
    let run = d - 1;
    while (run > e && steps[run]!.name !== 'run_tests') run--;
    if (run <= e || !steps[run]!.ok) return null;
    return { from: d - e <= 4 ? e : run, to: d };
  })());
  find('recover_failed_edit', (() => {
    for (const [i, s] of steps.entries()) {
      if (s.name !== 'edit_file' || s.ok) continue;
      const j = steps.findIndex((e, k) => k > i && k <= i + 3 && e.name === 'edit_file' && e.ok && samePath(e.arguments.path, s.arguments.path));
      if (j > 0) return { from: i, to: j };
    }
    return null;
  })());
  return out;
}

export function microskillExamples(r: TrajectoryRecord, steps: FilterStep[], generation: number, heldOut: boolean): CorpusExample[] {
  const idx = assistantIndices(r.messages);
  return skillWindows(steps).map((w) => ({
    exampleId: exampleId(['microskill', r.episodeId, w.skill]),
    kind: 'microskill' as const,
    skill: w.skill,
    heldOut,
    provenance: provenanceOf(r, generation),
    // the conversation up to and including the window's last assistant message
    messages: r.messages.slice(0, idx[w.to]! + 1),
    trainFromMessage: idx[w.from]!,
    storedTokens: maskedFrom(storedTokens(r, w.to + 1), r, w.from),
    turns: w.to - w.from + 1,
  }));
}

/** Stored tokens of a microskill: keep only the window's replies trained (mask the replies before turn `from`). */
function maskedFrom(tokens: CorpusExample['storedTokens'], r: TrajectoryRecord, from: number): CorpusExample['storedTokens'] {
  if (!tokens) return null;
  const before = r.turns.slice(0, from);
  if (!before.length) return tokens;
  const lastBefore = before.at(-1)!.assistant;
  const cut = lastBefore.promptTokenIds!.length + lastBefore.tokenIds!.length;
  return { tokenIds: tokens.tokenIds, assistantMask: tokens.assistantMask.map((m, i) => m && i >= cut) };
}

// ----- export rows -------------------------------------------------------------------------------------------------

/** One line of the chat JSONL: TRL's conversational format with tools (`messages` with `tool_calls` whose arguments
 * are objects, `tool` messages with the tool's name, and a `tools` column of JSON schemas), which `SFTTrainer` reads
 * with `assistant_only_loss=True`. `train_from_message` and `provenance` are extra columns. */
export function chatRow(ex: CorpusExample, tools: unknown[]): Record<string, unknown> {
  const msgs = ex.messages as ChatMessage[];
  const names = new Map<string, string>();
  const messages = msgs.map((m) => {
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
      return {
        role: 'assistant',
        content: m.content ?? '',
        ...(m.tool_calls?.length
          ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: parseArgs(c.function.arguments) } })) }
          : {}),
      };
    }
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.tool_call_id, name: names.get(m.tool_call_id) ?? '', content: m.content };
    return { role: m.role, content: m.content };
  });
  return { messages, tools, train_from_message: ex.trainFromMessage, example_id: ex.exampleId, kind: ex.kind, skill: ex.skill, provenance: ex.provenance };
}

function parseArgs(s: string): unknown {
  try {
    return JSON.parse(s || '{}');
  } catch {
    return s;
  }
}
