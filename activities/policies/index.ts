/** The policy turn: one model call per activity. Every policy shares one interface (`Policy.next`) and is chosen by
 * the episode's spec string (common/policy-spec.ts). The reply, with its token ids and logprobs, is written to the
 * episode's event log; the workflow gets a small summary. A retried turn returns the stored reply, so a sampled
 * answer is never drawn twice. */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Pool } from 'pg';
import type { Config } from '../../common/config';
import { REPO_ROOT } from '../../common/config';
import { CALL_SUMMARY_CHARS, summarizeCall, type EpisodeLimits, type PolicyReplyClaim, type Toolset } from '../../common/episode';
import { Failure, failure } from '../../common/failures';
import { parsePolicySpec, type PolicySpec } from '../../common/policy-spec';
import { versionOfAdapter } from '../../common/training';
import type { AssistantEvent, ToolEvent } from '../../common/trajectory';
import { isToolName, parseArgs, toolNames, toolSpecs } from '../../harness/tools';
import { readScript } from '../../harness/script';
import { withHeartbeat } from '../heartbeat';
import { appendEvent, buildConversation, loadEvents, startEventOf } from '../trajectory-store';
import { chatCompletion, ContextOverflowError, PolicyRequestError, promptPrefixOf, type ParsedReply, type PromptPrefix, type ToolSpec } from './chat-client';
import { EpisodeEventCache } from './event-cache';
import { oraclePolicy } from './oracle';
import { approxTokens, type Policy } from './policy';

/** Parsed scripts by file, kept while the file's size and mtime stay the same: an episode reads its script once,
 * not once per turn. */
const scripts = new Map<string, { key: string; calls: ReturnType<typeof readScript> }>();
function cachedScript(file: string): ReturnType<typeof readScript> {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  const key = st ? `${st.size}:${st.mtimeMs}` : '';
  const hit = scripts.get(file);
  if (st && hit?.key === key) return hit.calls;
  const calls = readScript(file);
  if (scripts.size >= 256) scripts.delete(scripts.keys().next().value!);
  scripts.set(file, { key, calls });
  return calls;
}

/** Replays a JSONL file of tool calls, one per turn; a folder holds one `<task id>.jsonl` per task (for evaluations
 * over several tasks). When the script runs out it calls done. */
function scriptedPolicy(spec: Extract<PolicySpec, { kind: 'scripted' }>): Policy {
  const target = path.isAbsolute(spec.path) ? spec.path : path.join(REPO_ROOT, spec.path);
  const scriptFor = (taskId: string) => {
    const file = fs.statSync(target, { throwIfNoEntry: false })?.isDirectory() ? path.join(target, `${taskId}.jsonl`) : target;
    try {
      return cachedScript(file);
    } catch (e) {
      throw failure(Failure.InvalidPolicy, `scripted policy: ${(e as Error).message}`);
    }
  };
  return {
    tokenCounting: 'approx-chars/4',
    async next(ctx) {
      const calls = scriptFor(ctx.taskId);
      const call = calls[ctx.turn - 1] ?? { name: 'done', arguments: { summary: 'the script ended' } };
      const args = JSON.stringify(call.arguments ?? {});
      return {
        message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${ctx.turn}`, type: 'function', function: { name: call.name, arguments: args } }] },
        toolCall: { name: call.name, arguments: call.arguments ?? {} },
        invalidReason: null,
        promptTokens: approxTokens(JSON.stringify(ctx.messages)),
        completionTokens: approxTokens(call.name + args),
        policyVersion: 0,
      };
    },
  };
}

function chatPolicy(baseUrl: string, model: string, toolChoice: 'auto' | 'required', apiKey: string | undefined, prefix?: PromptPrefix): Policy {
  return {
    tokenCounting: 'server-usage',
    async next(ctx) {
      const reply = await chatCompletion({
        baseUrl,
        model,
        apiKey,
        messages: ctx.messages,
        tools: ctx.tools,
        toolChoice,
        maxTokens: ctx.maxTokens,
        temperature: 1.0,
        seed: ctx.seed,
        timeoutMs: 10 * 60_000,
        ...(prefix ? { prefix } : {}),
      });
      return {
        ...reply,
        // A server that reports no usage still gets counted, but the count is then named an approximation upstream.
        promptTokens: reply.promptTokens ?? approxTokens(JSON.stringify(ctx.messages)),
        completionTokens: reply.completionTokens ?? approxTokens(JSON.stringify(reply.message)),
      };
    },
  };
}

/** `prefix`: the turn's prompt prefix as ids (chat-client.ts PromptPrefix), sent only to the embedded policy's server:
 * ours splices it, vLLM behind DEBUGRL_EMBEDDED_URL ignores it (docs/deploy.md, "Token in on vLLM"), and hosted APIs
 * may refuse an unknown field. */
export function policyFor(spec: PolicySpec, config: Config, prefix?: PromptPrefix): Policy {
  switch (spec.kind) {
    case 'scripted':
      return scriptedPolicy(spec);
    case 'embedded':
      // tool_choice "required": the embedded server constrains decoding so every reply is a well-formed tool call.
      return chatPolicy(config.DEBUGRL_EMBEDDED_URL, spec.adapter ?? 'default', 'required', undefined, prefix);
    case 'openai':
      return chatPolicy(spec.baseUrl, spec.model, 'auto', process.env.DEBUGRL_OPENAI_API_KEY);
    case 'oracle':
      return oraclePolicy(config);
  }
}

export interface PolicyTurnInput {
  episodeId: string;
  turn: number;
  policy: string;
  toolset: Toolset;
  limits: EpisodeLimits;
  seed: number;
}

/** Longest tool name quoted back in an observation (a model once sent a 1 MB name). */
const NAME_IN_ERROR_CHARS = 80;
const quoteName = (name: string) => JSON.stringify(name.length > NAME_IN_ERROR_CHARS ? `${name.slice(0, NAME_IN_ERROR_CHARS)}…` : name);

/** Why a call cannot run, or null if it can: an unknown tool or invalid arguments make the reply invalid, the same
 * as a reply with no call at all (the "no valid call" guard counts them all). The reason is the model's observation. */
export function invalidCallReason(call: { name: string; arguments: unknown }, toolset: Toolset): string | null {
  const available = toolNames(toolset);
  if (!isToolName(call.name) || !available.includes(call.name)) {
    return `There is no tool named ${quoteName(call.name)}. Available tools: ${available.join(', ')}.`;
  }
  const parsed = parseArgs(call.name, call.arguments);
  return parsed.ok ? null : parsed.error;
}

/** The digest the repeat guard compares: the same name and arguments give the same digest. */
export function callDigest(call: { name: string; arguments: unknown }): string {
  return createHash('sha256').update(JSON.stringify([call.name, call.arguments ?? {}])).digest('hex').slice(0, 32);
}

const specCache = new Map<Toolset, ToolSpec[]>();
/** The tools' JSON schemas, built once per tool set (zod's toJSONSchema is not free, and they never change). */
const specsFor = (toolset: Toolset) => specCache.get(toolset) ?? specCache.set(toolset, toolSpecs(toolset) as ToolSpec[]).get(toolset)!;

type Turn = { event: AssistantEvent; contextExhausted: false } | { contextExhausted: true; promptTokens: number };

function claim(turnNo: number, turn: Turn): PolicyReplyClaim {
  if (turn.contextExhausted) return { turn: turnNo, tool: null, digest: null, summary: 'context exhausted', invalid: false, contextExhausted: true, promptTokens: turn.promptTokens, completionTokens: 0 };
  const ev = turn.event;
  const call = ev.toolCall;
  return {
    turn: turnNo,
    tool: call ? call.name : null,
    digest: call ? callDigest(call) : null,
    summary: call ? summarizeCall(call.name, call.arguments) : `invalid reply: ${(ev.invalidReason ?? '').slice(0, CALL_SUMMARY_CHARS - 15)}`,
    invalid: !call,
    contextExhausted: false,
    promptTokens: ev.promptTokens,
    completionTokens: ev.completionTokens,
  };
}

/** deps.eventCache: the per-process cache of episodes' events (event-cache.ts); null reads the whole episode every turn
 * (the benchmark's "before"). */
export function createPolicyActivities(deps: { pool: Pool; config: Config; eventCache?: EpisodeEventCache | null }) {
  const cache = deps.eventCache === undefined ? new EpisodeEventCache() : deps.eventCache;
  /** The turn's reply: the stored one if this turn already ran (a retry never samples twice), else the policy's. */
  async function takeTurn(input: PolicyTurnInput): Promise<Turn> {
    const events = cache ? (await cache.read(deps.pool, input.episodeId)).events : await loadEvents(deps.pool, input.episodeId);
    const stored = events.find((e) => e.turn === input.turn && e.kind === 'assistant');
    if (stored) return { event: stored.payload as AssistantEvent, contextExhausted: false };

    let spec: PolicySpec;
    try {
      spec = parsePolicySpec(input.policy);
    } catch (e) {
      throw failure(Failure.InvalidPolicy, (e as Error).message);
    }
    const messages = buildConversation(events);
    const taskId = startEventOf(events).taskId;
    const last = events.filter((e) => e.kind === 'assistant').at(-1)?.payload as AssistantEvent | undefined;
    const policy = policyFor(spec, deps.config, promptPrefixOf(messages, last));

    // Context check before the call: the last reply's server-counted prompt plus what was added since
    // (approximated at 4 characters a token) plus room for the reply must fit.
    const used = last
      ? last.promptTokens + last.completionTokens + approxTokens(JSON.stringify(messages.slice(messages.lastIndexOf(last.message) + 1)))
      : approxTokens(JSON.stringify(messages));
    const room = input.limits.maxContextTokens - used;
    const exhausted: Turn = { contextExhausted: true, promptTokens: used };
    if (room < Math.min(64, input.limits.maxNewTokens)) return exhausted;

    const started = Date.now();
    let reply: ParsedReply;
    try {
      reply = await withHeartbeat(
        () =>
          policy.next({
            taskId,
            messages,
            tools: specsFor(input.toolset),
            turn: input.turn,
            seed: input.seed * 1000 + input.turn,
            maxTokens: Math.min(input.limits.maxNewTokens, room),
          }),
        { everyMs: 5000, details: { turn: input.turn } },
      );
    } catch (e) {
      if (e instanceof ContextOverflowError) return exhausted;
      if (e instanceof PolicyRequestError) throw failure(Failure.PolicyRequestError, e.message);
      throw e;
    }
    // A published training adapter (policy-v<N>) must be served as version N: anything else is a delivery failure
    // (verl #7495), never silent staleness.
    const wanted = spec.kind === 'embedded' ? versionOfAdapter(spec.adapter) : null;
    if (wanted !== null && reply.policyVersion !== wanted) {
      throw failure(Failure.InvalidPolicy, `adapter mismatch: asked for ${input.policy}, the server says it used policy version ${reply.policyVersion}`);
    }
    const invalidReason = reply.invalidReason ?? (reply.toolCall ? invalidCallReason(reply.toolCall, input.toolset) : null);
    const event: AssistantEvent = {
      message: reply.message,
      toolCall: invalidReason ? null : reply.toolCall,
      invalidReason,
      promptTokens: reply.promptTokens ?? 0,
      completionTokens: reply.completionTokens ?? 0,
      ...(reply.cachedPromptTokens !== undefined ? { cachedPromptTokens: reply.cachedPromptTokens } : {}),
      ...(reply.staleKvTokens !== undefined ? { staleKvTokens: reply.staleKvTokens } : {}),
      tokenCounting: policy.tokenCounting,
      policyVersion: reply.policyVersion,
      ...(reply.promptTokenIds ? { promptTokenIds: reply.promptTokenIds } : {}),
      ...(reply.tokenIds ? { tokenIds: reply.tokenIds } : {}),
      ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
      ...(reply.forcedTokens ? { forcedTokens: reply.forcedTokens } : {}),
      latencyMs: Date.now() - started,
    };
    const { payload } = await appendEvent(deps.pool, input.episodeId, input.turn, 'assistant', event);
    const saved = payload as AssistantEvent;
    if (saved.invalidReason) {
      const obs: ToolEvent = { tool: '(none)', ok: false, output: `error: ${saved.invalidReason}`, stateChanging: false, debugger: false, meta: {}, latencyMs: 0, invalidReply: true };
      await appendEvent(deps.pool, input.episodeId, input.turn, 'tool', obs);
    }
    return { event: saved, contextExhausted: false };
  }

  return {
    /** One policy turn. The reply, with its token ids and logprobs, goes to the event log; the workflow gets a claim:
     * the tool's name, a digest of the call and a short summary (never the arguments, which can be huge). */
    async policyReply(input: PolicyTurnInput): Promise<PolicyReplyClaim> {
      return claim(input.turn, await takeTurn(input));
    },
  };
}
