/**
 * Token in, before and after (issue 22, "Token in, all the way"): episodes driven turn by turn against an embedded
 * server, with the harness's real tool list and made-up tool observations, once sending the conversation as messages
 * only (the request before token in) and once with the previous turn's ids (`prefix_token_ids`, what the embedded
 * policy sends now), same seeds; the token-chain breaks of each are counted with common/token-chain.ts. Point it at
 * a private server (a niced tiny random one will do), never the shared one:
 *
 *   npx tsc -p tsconfig.json && node lib/benchmarks/token-in.js <base url, e.g. http://127.0.0.1:18931/v1> [episodes=4] [turns=4]
 *
 * Per mode: the counts, where each break starts (tokens into the previous completion), and the prompt tokens the
 * server prefilled rather than took from its KV cache (a prompt that extends the last one exactly reuses all of it).
 */
import { chatCompletion, promptPrefixOf, type ParsedReply, type ToolSpec } from '../activities/policies/chat-client';
import type { ChatMessage } from '../common/trajectory';
import { formatTokenChain, sumTokenChains, tokenChainOf, type ChainTurn } from '../common/token-chain';
import { toolSpecs } from '../harness/tools';

const SYSTEM = 'You fix Python bugs. Call exactly one tool per turn; call done when the tests pass.';
const TASK = 'test_totals in tests/test_cart.py fails: the cart total is off by the discount. Find the bug and fix it.';

/** A made-up observation for a call: a few lines of plausible tool output, different per turn. */
function observation(tool: string, turn: number): string {
  return `${tool} (turn ${turn}):\ncart.py:${10 + turn}: total = sum(i.price for i in items) - discount * ${turn}\n  1 failed, ${turn} passed`;
}

/** The conversation after a reply, as activities/trajectory-store.ts buildConversation writes it back. */
function withObservation(messages: ChatMessage[], reply: ParsedReply, turn: number): ChatMessage[] {
  const call = reply.message.tool_calls?.[0];
  const obs = observation(call?.function.name ?? '(none)', turn);
  return [...messages, reply.message, call && reply.toolCall ? { role: 'tool', tool_call_id: call.id, content: obs } : { role: 'user', content: `error: ${reply.invalidReason}` }];
}

interface Episode {
  turns: (ChainTurn & { promptTokens: number; cachedTokens: number })[];
}

async function episode(baseUrl: string, tools: ToolSpec[], seed: number, turns: number, sendIds: boolean): Promise<Episode> {
  let messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: TASK }];
  let last: ParsedReply | undefined;
  const out: Episode = { turns: [] };
  for (let t = 1; t <= turns; t++) {
    const prefix = sendIds ? promptPrefixOf(messages, last) : undefined;
    const reply = await chatCompletion({ baseUrl, model: 'default', messages, tools, toolChoice: 'required', maxTokens: 96, temperature: 1, seed: seed * 1000 + t, timeoutMs: 600_000, ...(prefix ? { prefix } : {}) });
    out.turns.push({ promptTokenIds: reply.promptTokenIds, tokenIds: reply.tokenIds, staleKvTokens: reply.staleKvTokens, promptTokens: reply.promptTokens ?? 0, cachedTokens: reply.cachedPromptTokens ?? 0 });
    messages = withObservation(messages, reply, t);
    last = reply;
  }
  return out;
}

/** Where each break starts, in tokens after the end of the previous prompt (inside the previous completion when
 * below its length, negative when the earlier prompt itself changed). */
function breakOffsets(turns: readonly ChainTurn[]): string[] {
  return turns.slice(1).flatMap((turn, k) => {
    const prev = turns[k]!;
    const want = [...(prev.promptTokenIds ?? []), ...(prev.tokenIds ?? [])];
    const at = want.findIndex((id, i) => turn.promptTokenIds?.[i] !== id);
    return at < 0 ? [] : [`turn ${k + 2} at +${at - (prev.promptTokenIds?.length ?? 0)} of ${prev.tokenIds?.length ?? 0}`];
  });
}

async function main(baseUrl: string | undefined, episodes: number, turns: number): Promise<void> {
  if (!baseUrl) throw new Error('usage: node lib/benchmarks/token-in.js <base url> [episodes=4] [turns=4]');
  const tools = toolSpecs('full') as ToolSpec[];
  for (const sendIds of [false, true]) {
    const started = Date.now();
    const all: Episode[] = [];
    for (let e = 0; e < episodes; e++) {
      const ep = await episode(baseUrl, tools, e + 1, turns, sendIds);
      all.push(ep);
      const where = breakOffsets(ep.turns);
      const prefilled = ep.turns.slice(1).map((t) => t.promptTokens - t.cachedTokens);
      console.log(`  episode ${e + 1}: ${formatTokenChain(tokenChainOf(ep.turns))}${where.length ? `; breaks ${where.join(', ')}` : ''}; prefilled on turns 2+: ${prefilled.join(', ')}`);
    }
    const later = all.flatMap((ep) => ep.turns.slice(1));
    const prompt = later.reduce((s, t) => s + t.promptTokens, 0);
    const cached = later.reduce((s, t) => s + t.cachedTokens, 0);
    console.log(`${sendIds ? 'ids (prefix_token_ids)' : 'messages only'}: ${formatTokenChain(sumTokenChains(all.map((ep) => tokenChainOf(ep.turns))))}; ` +
      `turns 2+: ${prompt - cached} of ${prompt} prompt tokens prefilled, the rest from the KV cache; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

main(process.argv[2], Number(process.argv[3] ?? 4), Number(process.argv[4] ?? 4)).catch((e) => {
  console.error(e);
  process.exit(1);
});
