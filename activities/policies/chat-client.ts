/** A client for OpenAI-compatible chat-completions servers with tool calling (vLLM, hosted APIs, and our embedded
 * CPU server). It asks for token ids and logprobs where the server supports them (vLLM: `logprobs` plus
 * `return_token_ids`), and turns the reply into one tool call or a reason why there is none. */
import { z } from 'zod';
import { servedPolicyVersion } from '../../common/training';
import type { AssistantEvent, ChatMessage } from '../../common/trajectory';

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: unknown };
}

export interface ChatRequest {
  baseUrl: string;
  model: string;
  apiKey?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  toolChoice: 'auto' | 'required';
  maxTokens: number;
  temperature: number;
  seed: number;
  timeoutMs: number;
  /** Sent only to the embedded server, which accepts it (see PromptPrefix); other servers get no such field. */
  prefix?: PromptPrefix;
}

/** Token in (issue 22): the previous turn's prompt ids followed by its completion ids, and the index in `messages` of
 * the assistant message they end with. The embedded server keeps these ids and renders only what follows them
 * (native/debugrl_native/inference/token_prefix.py), so the next prompt extends them exactly; without it, the server
 * renders the whole conversation again and a re-serialized tool call breaks the token chain (common/token-chain.ts). */
export interface PromptPrefix {
  tokenIds: number[];
  messageIndex: number;
}

/** The prefix for the next turn: the last reply's prompt and completion ids, when the server returned both, and
 * where that reply sits in `messages` (the same object, as buildConversation puts it there). Undefined on the first
 * turn, when the ids are unknown, or when the reply is not in the conversation. */
export function promptPrefixOf(messages: readonly ChatMessage[], last: Pick<AssistantEvent, 'message' | 'promptTokenIds' | 'tokenIds'> | undefined): PromptPrefix | undefined {
  if (!last?.promptTokenIds?.length || !last.tokenIds) return undefined;
  const messageIndex = messages.lastIndexOf(last.message);
  return messageIndex < 0 ? undefined : { tokenIds: [...last.promptTokenIds, ...last.tokenIds], messageIndex };
}

const Reply = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(z.object({ id: z.string().optional(), function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) }) }))
            .nullable()
            .optional(),
        }),
        logprobs: z.object({ content: z.array(z.object({ logprob: z.number() })).nullable().optional() }).nullable().optional(),
        token_ids: z.array(z.number().int()).nullable().optional(),
        /** Our embedded server's extension: per completion token, whether constrained decoding forced it. */
        token_forced: z.array(z.boolean()).nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      /** OpenAI's and vLLM's count of prompt tokens served from the server's prefix cache (vLLM: with
       * --enable-prompt-tokens-details). */
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().min(0).nullable().optional() }).nullable().optional(),
      /** Our embedded server's extension: prompt tokens from its KV caches, run through the model, and reused from
       * another adapter version (always 0; native/debugrl_native/inference/engine.py). */
      debugrl: z.object({ cached_tokens: z.number().int().min(0), prefilled_tokens: z.number().int().min(0), stale_kv_tokens: z.number().int().min(0) }).optional(),
    })
    .optional(),
  prompt_token_ids: z.array(z.number().int()).nullable().optional(),
  /** Our embedded server reports the adapter version that produced the reply. */
  policy_version: z.number().int().optional(),
  /** The served model: under vLLM, the LoRA adapter's name, which encodes its version. */
  model: z.string().optional(),
});

export interface ParsedReply {
  message: Extract<ChatMessage, { role: 'assistant' }>;
  toolCall: { name: string; arguments: unknown } | null;
  invalidReason: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  /** Prompt tokens the server served from its KV cache (the rest were prefilled); absent when it does not say. */
  cachedPromptTokens?: number;
  /** Of those, tokens whose KV was computed under another adapter version (the embedded server's
   * `usage.debugrl.stale_kv_tokens`); absent when the server does not say (vLLM). */
  staleKvTokens?: number;
  promptTokenIds?: number[];
  tokenIds?: number[];
  /** Per completion token, whether the server's grammar forced it (not the policy's choice); absent when it does not say. */
  forcedTokens?: boolean[];
  logprobs?: number[];
  policyVersion: number;
}

/** The server said the prompt does not fit its context. */
export class ContextOverflowError extends Error {}
/** A 4xx other than context overflow: a configuration mistake (model name, key) that retrying will not fix. */
export class PolicyRequestError extends Error {}

export async function chatCompletion(req: ChatRequest): Promise<ParsedReply> {
  const body = {
    model: req.model,
    messages: req.messages,
    tools: req.tools,
    tool_choice: req.toolChoice,
    max_tokens: req.maxTokens,
    temperature: req.temperature,
    seed: req.seed,
    logprobs: true,
    return_token_ids: true,
    ...(req.prefix ? { prefix_token_ids: req.prefix.tokenIds, prefix_message_index: req.prefix.messageIndex } : {}),
  };
  const res = await fetch(`${req.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(req.timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) {
    // A server that refuses the prefix (one started before it existed, a template it cannot splice) still answers the
    // turn from the messages: the chain may break, which token-chain counts, but the episode goes on.
    if (res.status === 400 && req.prefix && /prefix_(token_ids|message_index)/.test(text)) return chatCompletion({ ...req, prefix: undefined });
    if (res.status === 400 && /context|too long|maximum.*length/i.test(text)) throw new ContextOverflowError(text.slice(0, 500));
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      throw new PolicyRequestError(`policy server answered HTTP ${res.status}: ${text.slice(0, 500)}`);
    }
    throw new Error(`policy server answered HTTP ${res.status}: ${text.slice(0, 500)}`); // retryable
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`policy server sent a reply that is not JSON: ${text.slice(0, 200)}`);
  }
  const parsed = Reply.safeParse(json);
  if (!parsed.success) throw new Error(`policy server reply has an unexpected shape: ${parsed.error.issues[0]?.message}`);
  return parseReply(parsed.data, new Set(req.tools.map((t) => t.function.name)));
}

/** Turn a chat reply into at most one tool call. Every way a reply can be unusable becomes a reason the model will
 * read, never an exception. */
export function parseReply(reply: z.infer<typeof Reply>, toolNames: Set<string>): ParsedReply {
  const choice = reply.choices[0];
  const calls = choice.message.tool_calls ?? [];
  const content = choice.message.content ?? null;
  let toolCall: ParsedReply['toolCall'] = null;
  let invalidReason: string | null = null;
  if (calls.length === 0) {
    invalidReason = 'Your reply had no tool call. Every turn must call exactly one tool; call done when you are finished.';
  } else {
    const call = calls[0];
    const name = call.function.name;
    const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name; // a model once sent a 1 MB name
    let args: unknown = call.function.arguments;
    if (typeof args === 'string') {
      try {
        args = args.trim() === '' ? {} : JSON.parse(args);
      } catch (e) {
        invalidReason = `The arguments of ${shown} are not valid JSON (${(e as Error).message}). Send a JSON object.`;
      }
    }
    if (!invalidReason && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      invalidReason = `The arguments of ${shown} must be a JSON object.`;
    }
    if (!invalidReason && !toolNames.has(name)) {
      invalidReason = `There is no tool named ${JSON.stringify(shown)}. Available tools: ${[...toolNames].join(', ')}.`;
    }
    if (!invalidReason) toolCall = { name, arguments: args };
  }
  // Only the first tool call runs, and only it is kept in the conversation, so later turns stay consistent.
  const message: ParsedReply['message'] = {
    role: 'assistant',
    content,
    ...(calls.length
      ? {
          tool_calls: calls.slice(0, 1).map((c, i) => ({
            id: c.id ?? `call_${i}`,
            type: 'function' as const,
            function: { name: c.function.name, arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments) },
          })),
        }
      : {}),
  };
  const logprobs = choice.logprobs?.content?.map((c) => c.logprob);
  const cached = reply.usage?.debugrl?.cached_tokens ?? reply.usage?.prompt_tokens_details?.cached_tokens ?? null;
  const stale = reply.usage?.debugrl?.stale_kv_tokens;
  return {
    message,
    toolCall,
    invalidReason,
    promptTokens: reply.usage?.prompt_tokens ?? null,
    completionTokens: reply.usage?.completion_tokens ?? null,
    ...(cached !== null ? { cachedPromptTokens: cached } : {}),
    ...(stale !== undefined ? { staleKvTokens: stale } : {}),
    promptTokenIds: reply.prompt_token_ids ?? undefined,
    tokenIds: choice.token_ids ?? undefined,
    ...(choice.token_forced && choice.token_ids && choice.token_forced.length === choice.token_ids.length ? { forcedTokens: choice.token_forced } : {}),
    logprobs: logprobs?.length ? logprobs : undefined,
    policyVersion: servedPolicyVersion(reply) ?? 0,
  };
}
