/**
 * Token chains and stale KV, counted per episode and summed per run (issue 22, "Token in, all the way" and
 * "Stale-KV counter"). Pure: the counts come from the assistant turns' stored ids, so any stored trajectory can be
 * counted again.
 *
 * A chain break: turn t > 0 whose prompt ids do not start with turn t-1's prompt ids followed by its completion ids.
 * The server saw a different token history than the one the policy produced (a chat template re-rendered the reply,
 * a tokenizer merged across the boundary, history was cut), so the learner cannot extend one sequence across the turn
 * (native learner packing.py starts a new chain there) and the prompt's logprobs are not the ones it trains against.
 * Turns whose ids the server did not return are "unknown": counted apart, never as breaks, so a server that returns
 * no ids cannot look clean or broken.
 *
 * Stale KV: a turn some of whose prompt KV the server reused from an older adapter version (`usage.debugrl.
 * stale_kv_tokens` > 0). The embedded server reports it and it is 0 there by construction; vLLM does not report it,
 * which `staleKvReported` makes visible (docs/deploy.md, "Stale KV on vLLM").
 */
import { z } from 'zod';

/** What the counts read of one assistant turn (a subset of AssistantEvent, common/trajectory.ts). */
export interface ChainTurn {
  promptTokenIds?: number[];
  tokenIds?: number[];
  staleKvTokens?: number;
}

export interface TokenChainCounts {
  /** Turns after the first whose own prompt ids and the previous turn's prompt and completion ids are all known. */
  checked: number;
  /** Of those, turns whose prompt does not extend the previous turn's prompt and completion exactly. */
  breaks: number;
  /** Turns after the first where an id list is missing, so nothing can be said. */
  unknown: number;
  /** Turns (the first included) for which the server reported its stale-KV count, and those where it was above 0. */
  staleKvReported: number;
  staleKvTurns: number;
}

export const NO_CHAIN_COUNTS: TokenChainCounts = { checked: 0, breaks: 0, unknown: 0, staleKvReported: 0, staleKvTurns: 0 };

/** Whether `prompt` starts with `prev` followed by `completion`, token for token. */
export function extendsChain(prompt: readonly number[], prev: readonly number[], completion: readonly number[]): boolean {
  if (prompt.length < prev.length + completion.length) return false;
  for (let i = 0; i < prev.length; i++) if (prompt[i] !== prev[i]) return false;
  for (let i = 0; i < completion.length; i++) if (prompt[prev.length + i] !== completion[i]) return false;
  return true;
}

/** One episode's assistant turns, in order, counted. */
export function tokenChainOf(turns: readonly ChainTurn[]): TokenChainCounts {
  const out = { ...NO_CHAIN_COUNTS };
  turns.forEach((turn, t) => {
    if (turn.staleKvTokens !== undefined) {
      out.staleKvReported += 1;
      if (turn.staleKvTokens > 0) out.staleKvTurns += 1;
    }
    if (t === 0) return;
    const prev = turns[t - 1]!;
    if (!turn.promptTokenIds || !prev.promptTokenIds || !prev.tokenIds) out.unknown += 1;
    else {
      out.checked += 1;
      if (!extendsChain(turn.promptTokenIds, prev.promptTokenIds, prev.tokenIds)) out.breaks += 1;
    }
  });
  return out;
}

/** Counts summed over episodes (a step's trained episodes, a run's steps). */
export function sumTokenChains(all: readonly TokenChainCounts[]): TokenChainCounts {
  const out = { ...NO_CHAIN_COUNTS };
  for (const c of all) for (const k of Object.keys(out) as (keyof TokenChainCounts)[]) out[k] += c[k];
  return out;
}

/** Breaks over checked turns; null when no turn could be checked (no ids, or one-turn episodes). */
export function chainBreakRate(c: TokenChainCounts): number | null {
  return c.checked ? c.breaks / c.checked : null;
}

/** Only the fields the counts read, so a stored record is counted without validating its transcript again. */
const ChainOfRecord = z.object({
  turns: z.array(z.object({ assistant: z.object({ promptTokenIds: z.array(z.number()).optional(), tokenIds: z.array(z.number()).optional(), staleKvTokens: z.number().optional() }) })),
});

/** A stored trajectory record (common/trajectory.ts TrajectoryRecord) counted; a record of another shape counts
 * nothing. */
export function tokenChainOfRecord(raw: unknown): TokenChainCounts {
  const parsed = ChainOfRecord.safeParse(raw);
  return parsed.success ? tokenChainOf(parsed.data.turns.map((t) => t.assistant)) : { ...NO_CHAIN_COUNTS };
}

/** One line for people: "breaks 3/40 checked (7.5 %), 2 unknown; stale-KV turns 0 of 44 reported". */
export function formatTokenChain(c: TokenChainCounts): string {
  const rate = chainBreakRate(c);
  const unknown = c.unknown ? `, ${c.unknown} unknown` : '';
  return `chain breaks ${c.breaks}/${c.checked}${rate === null ? '' : ` (${(100 * rate).toFixed(1)} %)`}${unknown}; stale-KV turns ${c.staleKvTurns} of ${c.staleKvReported} reported`;
}
