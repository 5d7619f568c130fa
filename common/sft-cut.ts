/** Cutting an SFT corpus to what CPU training can afford (benchmarks/sft-side-by-side.md): on the 2-core VM one
 * optimizer step over 8 whole oracle trajectories (46k tokens) ran for more than 11 minutes and took 16 GB, so the
 * pipeline trains on a prefix of each trajectory. Each example is cut after its last assistant turn that ends within
 * the limit, at that turn's end-of-turn token: every trained token keeps its full left context and the model still
 * learns where a call stops. The cut also fits the RL learner's microbatch, so the behaviour-cloning replay can use it.
 * Microskill examples are left out (they are short excerpts of the same trajectories). Pure: the corpus activity
 * (activities/pipeline.ts) reads and writes the folders. */
import { z } from 'zod';

/** One line of a corpus's `train.tokens.jsonl` / `heldout.tokens.jsonl` (learner/sft.py writes them). */
export const TokensRow = z
  .object({
    example_id: z.string().min(1),
    token_ids: z.array(z.number().int().min(0)),
    assistant_mask: z.array(z.union([z.boolean(), z.literal(0), z.literal(1)])),
  })
  .passthrough();
export type TokensRow = z.infer<typeof TokensRow>;

/** What an example is, from the corpus's `examples.jsonl`. */
export interface ExampleMeta {
  kind: string;
  taskId: string;
}

/** The longest prefix of at most `maxTokens` that ends right after an assistant span, or null when no assistant span
 * ends within the limit (nothing would be left to train). */
export function cutAtTurnEnd<M extends boolean | number>(tokenIds: number[], mask: M[], maxTokens: number): { tokenIds: number[]; mask: M[] } | null {
  if (tokenIds.length !== mask.length) throw new Error(`token_ids (${tokenIds.length}) and assistant_mask (${mask.length}) differ in length`);
  let end = 0;
  for (let i = 1; i <= Math.min(mask.length, maxTokens); i++) {
    // i is just past position i-1: a span ends there when i-1 is trained and i is not (or is the end)
    if (mask[i - 1] && (i === mask.length || !mask[i])) end = i;
  }
  return end ? { tokenIds: tokenIds.slice(0, end), mask: mask.slice(0, end) } : null;
}

/** Assistant turns in a mask: the trained spans. */
export const assistantTurns = (mask: (boolean | number)[]) => mask.filter((m, i) => m && (i + 1 === mask.length || !mask[i + 1])).length;

export interface CutPart {
  rows: TokensRow[];
  tasks: string[];
  /** Trajectories dropped because no assistant turn ended within the limit. */
  tooLong: number;
}

/** One part (train or held out) of a corpus, cut: trajectory examples only, each to its prefix. */
export function cutPart(rows: TokensRow[], meta: ReadonlyMap<string, ExampleMeta>, maxTokens: number): CutPart {
  const out: CutPart = { rows: [], tasks: [], tooLong: 0 };
  for (const row of rows) {
    const m = meta.get(row.example_id);
    if (!m) throw new Error(`example ${row.example_id} is in the tokens file but not in examples.jsonl`);
    if (m.kind !== 'trajectory') continue;
    const c = cutAtTurnEnd(row.token_ids, row.assistant_mask, maxTokens);
    if (!c) {
      out.tooLong++;
      continue;
    }
    out.rows.push({ ...row, token_ids: c.tokenIds, assistant_mask: c.mask });
    out.tasks.push(m.taskId);
  }
  return out;
}

/** What `derivation.json` (and the cut manifest's `derivation`) records: how the folder was made from its source. */
export function derivationOf(from: string, maxTokens: number, parts: { train: CutPart; heldout: CutPart }) {
  const each = <T>(f: (p: CutPart) => T) => ({ train: f(parts.train), heldout: f(parts.heldout) });
  return {
    from,
    max_tokens: maxTokens,
    train_tasks: parts.train.tasks,
    heldout_tasks: parts.heldout.tasks,
    tokens: each((p) => p.rows.reduce((a, r) => a + r.token_ids.length, 0)),
    trained_tokens: each((p) => p.rows.reduce((a, r) => a + r.assistant_mask.filter(Boolean).length, 0)),
    assistant_turns: each((p) => p.rows.map((r) => assistantTurns(r.assistant_mask))),
    too_long: each((p) => p.tooLong),
  };
}
export type Derivation = ReturnType<typeof derivationOf>;
