/** Token-chain breaks and stale-KV turns (common/token-chain.ts) on hand-made id arrays, the chat client carrying the
 * server's stale-KV count into the reply, and both in the training report. */
import { parseReply } from '../activities/policies/chat-client';
import { buildTrainingReport, renderTrainingHtml, tokenChainCharts } from '../activities/training-report';
import { chainBreakRate, extendsChain, formatTokenChain, sumTokenChains, tokenChainOf, tokenChainOfRecord, type ChainTurn } from '../common/token-chain';
import type { StepResult } from '../common/training';
import { AssistantEvent } from '../common/trajectory';

// A clean three-turn episode: each prompt is the previous prompt, its completion, then new tool-output tokens.
const clean: ChainTurn[] = [
  { promptTokenIds: [1, 2, 3], tokenIds: [10, 11], staleKvTokens: 0 },
  { promptTokenIds: [1, 2, 3, 10, 11, 20, 21], tokenIds: [12], staleKvTokens: 0 },
  { promptTokenIds: [1, 2, 3, 10, 11, 20, 21, 12, 22], tokenIds: [13, 14], staleKvTokens: 0 },
];

describe('token chains', () => {
  it('a clean chain has no breaks and every later turn checked', () => {
    expect(tokenChainOf(clean)).toEqual({ checked: 2, breaks: 0, unknown: 0, staleKvReported: 3, staleKvTurns: 0 });
    expect(chainBreakRate(tokenChainOf(clean))).toBe(0);
  });

  it('a re-rendered reply breaks the chain at that turn only', () => {
    // turn 1's prompt renders turn 0's reply as [10, 99] instead of the sampled [10, 11]; turn 2 extends turn 1 again
    const turns: ChainTurn[] = [clean[0]!, { promptTokenIds: [1, 2, 3, 10, 99, 20, 21], tokenIds: [12] }, { promptTokenIds: [1, 2, 3, 10, 99, 20, 21, 12, 22], tokenIds: [13] }];
    expect(tokenChainOf(turns)).toMatchObject({ checked: 2, breaks: 1, unknown: 0 });
    expect(chainBreakRate(tokenChainOf(turns))).toBe(0.5);
  });

  it('a dropped stop token, a cut history and a shorter prompt are breaks', () => {
    expect(extendsChain([1, 2, 3, 10, 20], [1, 2, 3], [10, 11])).toBe(false); // the completion's last token missing
    expect(extendsChain([2, 3, 10, 11, 20], [1, 2, 3], [10, 11])).toBe(false); // the oldest message cut
    expect(extendsChain([1, 2, 3, 10], [1, 2, 3], [10, 11])).toBe(false);
    expect(extendsChain([1, 2, 3, 10, 11], [1, 2, 3], [10, 11])).toBe(true); // nothing added between turns still extends
    expect(extendsChain([1, 2, 3, 7], [1, 2, 3], [])).toBe(true); // an empty completion
  });

  it('turns without ids are unknown, never breaks', () => {
    const turns: ChainTurn[] = [clean[0]!, { tokenIds: [12] }, clean[2]!, { promptTokenIds: [5] }, { promptTokenIds: [5, 6] }];
    // turn 1: no prompt ids; turn 2: turn 1 had none; turn 3: breaks (does not extend turn 2); turn 4: turn 3 had no completion ids
    expect(tokenChainOf(turns)).toEqual({ checked: 1, breaks: 1, unknown: 3, staleKvReported: 2, staleKvTurns: 0 });
    expect(tokenChainOf([{}, {}])).toEqual({ checked: 0, breaks: 0, unknown: 1, staleKvReported: 0, staleKvTurns: 0 });
    expect(chainBreakRate(tokenChainOf([{}, {}]))).toBeNull();
    expect(tokenChainOf([])).toEqual(tokenChainOf([{}]));
  });

  it('counts turns that reused stale KV, and those whose server did not say', () => {
    const turns: ChainTurn[] = [{ ...clean[0]!, staleKvTokens: 3 }, { ...clean[1]!, staleKvTokens: 0 }, { promptTokenIds: clean[2]!.promptTokenIds, tokenIds: [13] }];
    expect(tokenChainOf(turns)).toEqual({ checked: 2, breaks: 0, unknown: 0, staleKvReported: 2, staleKvTurns: 1 });
  });

  it('sums episodes and counts a stored record, and nothing for a record of another shape', () => {
    const a = tokenChainOf(clean);
    const b = tokenChainOf([clean[0]!, { promptTokenIds: [9], tokenIds: [], staleKvTokens: 2 }]);
    expect(sumTokenChains([a, b])).toEqual({ checked: 3, breaks: 1, unknown: 0, staleKvReported: 5, staleKvTurns: 1 });
    expect(tokenChainOfRecord({ turns: clean.map((assistant, turn) => ({ turn, assistant, tool: null })) })).toEqual(a);
    expect(tokenChainOfRecord({ turns: 'no' })).toEqual(sumTokenChains([]));
    expect(formatTokenChain(sumTokenChains([a, b]))).toBe('chain breaks 1/3 (33.3 %); stale-KV turns 1 of 5 reported');
  });
});

describe('stale KV from the server to the trajectory', () => {
  const reply = (usage: Record<string, unknown>) =>
    parseReply({ choices: [{ message: { content: null, tool_calls: [{ id: 'c', function: { name: 'done', arguments: '{}' } }] } }], usage: { prompt_tokens: 30, completion_tokens: 2, ...usage } }, new Set(['done']));

  it('carries usage.debugrl.stale_kv_tokens into the reply, and leaves it out when the server does not say', () => {
    expect(reply({ debugrl: { cached_tokens: 20, prefilled_tokens: 10, stale_kv_tokens: 4 } }).staleKvTokens).toBe(4);
    expect(reply({ debugrl: { cached_tokens: 20, prefilled_tokens: 10, stale_kv_tokens: 0 } }).staleKvTokens).toBe(0);
    expect(reply({ prompt_tokens_details: { cached_tokens: 20 } })).not.toHaveProperty('staleKvTokens'); // vLLM
  });

  it('an assistant event with or without the field parses (histories written before it was kept)', () => {
    const event = { message: { role: 'assistant', content: null }, toolCall: null, invalidReason: null, promptTokens: 3, completionTokens: 1, tokenCounting: 'server-usage', policyVersion: 0, latencyMs: 1 };
    expect(AssistantEvent.parse(event)).not.toHaveProperty('staleKvTokens');
    expect(AssistantEvent.parse({ ...event, staleKvTokens: 2 }).staleKvTokens).toBe(2);
    expect(AssistantEvent.safeParse({ ...event, staleKvTokens: -1 }).success).toBe(false);
  });
});

describe('token chains in the training report', () => {
  const step = (n: number, tokenChain?: StepResult['tokenChain']): StepResult => ({
    stepId: `r:${n}`, step: n, versionBefore: n - 1, versionAfter: n, adapterPath: null, trainedGroups: ['g'], rejectedGroups: [], rejectedTrajectories: [],
    lagHistogram: {}, meanReward: 0, passRate: 0, metrics: null, lag0: null, busyMs: 1, ...(tokenChain ? { tokenChain } : {}),
  });

  it('sums the steps that counted them and draws the chart; a run stored before the count has neither', () => {
    const r = buildTrainingReport('run', [], [step(1), step(2, { checked: 8, breaks: 2, unknown: 1, staleKvReported: 10, staleKvTurns: 0 }), step(3, { checked: 2, breaks: 0, unknown: 0, staleKvReported: 3, staleKvTurns: 1 })], 'T');
    expect(r.tokenChain?.total).toEqual({ checked: 10, breaks: 2, unknown: 1, staleKvReported: 13, staleKvTurns: 1 });
    expect(r.tokenChain?.steps.map((s) => s.step)).toEqual([2, 3]);
    const html = renderTrainingHtml({ ...r, points: [] });
    expect(html).toContain('chain breaks 2/10 (20.0 %), 1 unknown; stale-KV turns 1 of 13 reported');
    const chart = tokenChainCharts([1, 2, 3], r.tokenChain).join('');
    expect(chart).toContain('break rate @ step 2: 0.25');
    expect(chart).toContain('stale-KV turns @ step 3: 1');
    expect(chart).not.toContain('@ step 1:'); // a step without counts leaves a gap
    const old = buildTrainingReport('run', [], [step(1)], 'T');
    expect(tokenChainCharts([1], old.tokenChain)).toEqual([]);
    expect(old).not.toHaveProperty('tokenChain');
    expect(renderTrainingHtml(old)).not.toContain('chain breaks');
  });
});
