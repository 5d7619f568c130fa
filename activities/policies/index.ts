/** The policy turn: one model call per activity. Every policy shares one interface (`Policy.next`) and is chosen by
 * the episode's spec string (common/policy-spec.ts). The reply, with its token ids and logprobs, is written to the
 * episode's event log; the workflow gets a small summary. A retried turn returns the stored reply, so a sampled
 * answer is never drawn twice. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import type { Config } from '../../common/config';
import { REPO_ROOT } from '../../common/config';
import type { EpisodeLimits, PolicyTurnResult, Toolset } from '../../common/episode';
import { parsePolicySpec, type PolicySpec } from '../../common/policy-spec';
import type { AssistantEvent, ChatMessage, ToolEvent } from '../../common/trajectory';
import { toolSpecs } from '../../harness/tools';
import { readScript } from '../../harness/script';
import { appendEvent, buildConversation, findEvent, loadEvents, startEventOf } from '../trajectory-store';
import { chatCompletion, ContextOverflowError, PolicyRequestError, type ParsedReply, type ToolSpec } from './chat-client';

export interface PolicyContext {
  taskId: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  turn: number;
  seed: number;
  maxTokens: number;
}

export interface Policy {
  /** How prompt/completion tokens are counted for this policy. */
  tokenCounting: AssistantEvent['tokenCounting'];
  next(ctx: PolicyContext): Promise<ParsedReply>;
}

/** Characters per token for the approximation used where no tokenizer is known (the scripted policy). */
const APPROX_CHARS_PER_TOKEN = 4;
export const approxTokens = (text: string) => Math.ceil(text.length / APPROX_CHARS_PER_TOKEN);

/** Replays a JSONL file of tool calls, one per turn; a folder holds one `<task id>.jsonl` per task (for evaluations
 * over several tasks). When the script runs out it calls done. */
function scriptedPolicy(spec: Extract<PolicySpec, { kind: 'scripted' }>): Policy {
  const target = path.isAbsolute(spec.path) ? spec.path : path.join(REPO_ROOT, spec.path);
  const scriptFor = (taskId: string) => {
    const file = fs.statSync(target, { throwIfNoEntry: false })?.isDirectory() ? path.join(target, `${taskId}.jsonl`) : target;
    try {
      return readScript(file);
    } catch (e) {
      throw ApplicationFailure.nonRetryable(`scripted policy: ${(e as Error).message}`, 'InvalidPolicy');
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

function chatPolicy(baseUrl: string, model: string, toolChoice: 'auto' | 'required', apiKey: string | undefined): Policy {
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

export function policyFor(spec: PolicySpec, config: Config): Policy {
  switch (spec.kind) {
    case 'scripted':
      return scriptedPolicy(spec);
    case 'embedded':
      // tool_choice "required": the embedded server constrains decoding so every reply is a well-formed tool call.
      return chatPolicy(config.DEBUGRL_EMBEDDED_URL, spec.adapter ?? 'default', 'required', undefined);
    case 'openai':
      return chatPolicy(spec.baseUrl, spec.model, 'auto', process.env.DEBUGRL_OPENAI_API_KEY);
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

function summary(ev: AssistantEvent, contextExhausted = false): PolicyTurnResult & { contextExhausted: boolean } {
  return {
    toolCall: ev.toolCall ? { name: ev.toolCall.name, arguments: ev.toolCall.arguments } : null,
    invalidReason: ev.invalidReason,
    promptTokens: ev.promptTokens,
    completionTokens: ev.completionTokens,
    policyVersion: ev.policyVersion,
    contextExhausted,
  };
}

export function createPolicyActivities(deps: { pool: Pool; config: Config }) {
  return {
    async policyTurn(input: PolicyTurnInput): Promise<PolicyTurnResult & { contextExhausted: boolean }> {
      const stored = (await findEvent(deps.pool, input.episodeId, input.turn, 'assistant')) as AssistantEvent | null;
      if (stored) return summary(stored);

      let spec: PolicySpec;
      try {
        spec = parsePolicySpec(input.policy);
      } catch (e) {
        throw ApplicationFailure.nonRetryable((e as Error).message, 'InvalidPolicy');
      }
      const policy = policyFor(spec, deps.config);
      const events = await loadEvents(deps.pool, input.episodeId);
      const messages = buildConversation(events);
      const taskId = startEventOf(events).taskId;

      // Context check before the call: the last reply's server-counted prompt plus what was added since
      // (approximated at 4 characters a token) plus room for the reply must fit.
      const last = events.filter((e) => e.kind === 'assistant').at(-1)?.payload as AssistantEvent | undefined;
      const used = last
        ? last.promptTokens + last.completionTokens + approxTokens(JSON.stringify(messages.slice(messages.lastIndexOf(last.message) + 1)))
        : approxTokens(JSON.stringify(messages));
      const room = input.limits.maxContextTokens - used;
      if (room < Math.min(64, input.limits.maxNewTokens)) {
        return { toolCall: null, invalidReason: null, promptTokens: used, completionTokens: 0, policyVersion: last?.policyVersion ?? 0, contextExhausted: true };
      }

      const started = Date.now();
      const beat = setInterval(() => heartbeat({ turn: input.turn }), 5000);
      let reply: ParsedReply;
      try {
        reply = await policy.next({
          taskId,
          messages,
          tools: toolSpecs(input.toolset) as ToolSpec[],
          turn: input.turn,
          seed: input.seed * 1000 + input.turn,
          maxTokens: Math.min(input.limits.maxNewTokens, room),
        });
      } catch (e) {
        if (e instanceof ContextOverflowError) {
          return { toolCall: null, invalidReason: null, promptTokens: used, completionTokens: 0, policyVersion: last?.policyVersion ?? 0, contextExhausted: true };
        }
        if (e instanceof PolicyRequestError) throw ApplicationFailure.nonRetryable(e.message, 'PolicyRequestError');
        throw e;
      } finally {
        clearInterval(beat);
      }
      const event: AssistantEvent = {
        message: reply.message,
        toolCall: reply.toolCall,
        invalidReason: reply.invalidReason,
        promptTokens: reply.promptTokens ?? 0,
        completionTokens: reply.completionTokens ?? 0,
        tokenCounting: policy.tokenCounting,
        policyVersion: reply.policyVersion,
        ...(reply.promptTokenIds ? { promptTokenIds: reply.promptTokenIds } : {}),
        ...(reply.tokenIds ? { tokenIds: reply.tokenIds } : {}),
        ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
        latencyMs: Date.now() - started,
      };
      const { payload } = await appendEvent(deps.pool, input.episodeId, input.turn, 'assistant', event);
      const saved = payload as AssistantEvent;
      if (saved.invalidReason) {
        const obs: ToolEvent = { tool: '(none)', ok: false, output: `error: ${saved.invalidReason}`, stateChanging: false, debugger: false, meta: {}, latencyMs: 0, invalidReply: true };
        await appendEvent(deps.pool, input.episodeId, input.turn, 'tool', obs);
      }
      return summary(saved);
    },
  };
}
