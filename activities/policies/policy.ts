/** What every policy is: one call that answers a turn's conversation with a reply (`Policy.next`). Its own module so
 * that the policies (scripted and chat in index.ts, the oracle in oracle.ts) depend on it and index.ts, which picks
 * one by spec, depends on them, without an import cycle. */
import type { AssistantEvent, ChatMessage } from '../../common/trajectory';
import type { ParsedReply, ToolSpec } from './chat-client';

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
