/** Token in (issue 22), the client's half: the next turn's prompt prefix is the last reply's prompt and completion
 * ids and that reply's place in the conversation; only the embedded policy sends it; a server that refuses it still
 * answers the turn. A stand-in server records the request bodies (the server's half: native/tests/
 * test_inference_prefix_ids.py). */
import type { Config } from '../common/config';
import type { AssistantEvent, ChatMessage } from '../common/trajectory';
import { chatCompletion, ContextOverflowError, promptPrefixOf, type ChatRequest } from '../activities/policies/chat-client';
import { policyFor } from '../activities/policies';
import { startStandIn, type StandIn } from './helpers/stand-in-server';

let standIn: StandIn;
let baseUrl: string;
let bodies: Record<string, unknown>[];

beforeAll(async () => {
  standIn = await startStandIn(ok());
  baseUrl = standIn.baseUrl;
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.queue.length = 0;
  standIn.bodies.length = 0;
  bodies = standIn.bodies;
});

const ok = () => ({
  status: 200,
  body: {
    choices: [{ message: { content: null, tool_calls: [{ id: 'c2', function: { name: 'done', arguments: '{}' } }] }, token_ids: [9, 2] }],
    prompt_token_ids: [1, 2, 3],
    usage: { prompt_tokens: 3, completion_tokens: 2 },
  },
});
const reply: Extract<ChatMessage, { role: 'assistant' }> = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }] };
const messages: ChatMessage[] = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }, reply, { role: 'tool', tool_call_id: 'c1', content: 'a.py' }];
const turn = (ids: Partial<Pick<AssistantEvent, 'promptTokenIds' | 'tokenIds'>>) => ({ message: reply, ...ids });
const tools = [{ type: 'function' as const, function: { name: 'done', description: 'finish', parameters: {} } }];
const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ baseUrl, model: 'default', messages, tools, toolChoice: 'required', maxTokens: 16, temperature: 1, seed: 1, timeoutMs: 5000, ...extra });

describe('promptPrefixOf', () => {
  it('is the last prompt ids then its completion ids, ending at that reply', () => {
    expect(promptPrefixOf(messages, turn({ promptTokenIds: [1, 2, 3], tokenIds: [7, 8] }))).toEqual({ tokenIds: [1, 2, 3, 7, 8], messageIndex: 2 });
    expect(promptPrefixOf(messages, turn({ promptTokenIds: [1, 2, 3], tokenIds: [] }))).toEqual({ tokenIds: [1, 2, 3], messageIndex: 2 });
  });
  it('is absent on the first turn, without ids, or when the reply is not in the conversation', () => {
    expect(promptPrefixOf(messages, undefined)).toBeUndefined();
    expect(promptPrefixOf(messages, turn({ tokenIds: [7] }))).toBeUndefined();
    expect(promptPrefixOf(messages, turn({ promptTokenIds: [1] }))).toBeUndefined();
    expect(promptPrefixOf(messages, turn({ promptTokenIds: [], tokenIds: [7] }))).toBeUndefined();
    // an equal message that is another object is not the one the ids belong to
    expect(promptPrefixOf(messages, { message: { ...reply }, promptTokenIds: [1], tokenIds: [7] })).toBeUndefined();
  });
});

describe('chatCompletion with a prefix', () => {
  it('sends the ids and the message index, and nothing without a prefix', async () => {
    await chatCompletion(request({ prefix: { tokenIds: [1, 2, 3, 7, 8], messageIndex: 2 } }));
    await chatCompletion(request());
    expect(bodies[0]).toMatchObject({ prefix_token_ids: [1, 2, 3, 7, 8], prefix_message_index: 2 });
    expect(bodies[1]).not.toHaveProperty('prefix_token_ids');
    expect(bodies[1]).not.toHaveProperty('prefix_message_index');
  });
  it('asks again without it when the server refuses the field', async () => {
    standIn.queue.push({ status: 400, body: { error: { message: 'prefix_token_ids: Extra inputs are not permitted' } } });
    const r = await chatCompletion(request({ prefix: { tokenIds: [1], messageIndex: 2 } }));
    expect(r.toolCall).toEqual({ name: 'done', arguments: {} });
    expect(bodies.map((b) => 'prefix_token_ids' in b)).toEqual([true, false]);
  });
  it('keeps a context overflow an overflow, without asking again', async () => {
    standIn.queue.push({ status: 400, body: { error: { message: "This model's maximum context length is 1024 tokens.", param: 'messages' } } });
    await expect(chatCompletion(request({ prefix: { tokenIds: [1], messageIndex: 2 } }))).rejects.toBeInstanceOf(ContextOverflowError);
    expect(bodies).toHaveLength(1);
  });
});

describe('policyFor', () => {
  const config = { DEBUGRL_EMBEDDED_URL: '' } as Config;
  const ctx = { taskId: 't', messages, tools, turn: 2, seed: 1, maxTokens: 16 };
  const prefix = { tokenIds: [1, 2, 3, 7, 8], messageIndex: 2 };
  it('sends the prefix to the embedded server only', async () => {
    await policyFor({ kind: 'embedded', adapter: null }, { ...config, DEBUGRL_EMBEDDED_URL: baseUrl }, prefix).next(ctx);
    await policyFor({ kind: 'openai', model: 'm', baseUrl }, config, prefix).next(ctx);
    expect(bodies[0]).toMatchObject({ prefix_token_ids: prefix.tokenIds, prefix_message_index: 2 });
    expect(bodies[1]).not.toHaveProperty('prefix_token_ids');
  });
});
