/** The OpenAI-compatible client against a stand-in server (a unit test of the code around the HTTP call): every way a
 * reply can be unusable becomes a reason for the model, and server errors are classified for retrying. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatCompletion, ContextOverflowError, PolicyRequestError, type ChatRequest } from '../activities/policies/chat-client';

let reply: { status: number; body: unknown } = { status: 200, body: {} };
let lastBody: Record<string, unknown> = {};
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      lastBody = JSON.parse(data);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const tools = [{ type: 'function' as const, function: { name: 'bash', description: 'run', parameters: {} } }];
const req = (): ChatRequest => ({ baseUrl, model: 'm', messages: [{ role: 'user', content: 'hi' }], tools, toolChoice: 'auto', maxTokens: 64, temperature: 1, seed: 7, timeoutMs: 5000 });
const choice = (message: unknown, extra: Record<string, unknown> = {}) => ({ choices: [{ message, ...extra }], usage: { prompt_tokens: 11, completion_tokens: 3 } });

describe('chatCompletion', () => {
  it('parses a tool call with token ids and logprobs, and asks the server for them', async () => {
    reply = {
      status: 200,
      body: {
        ...choice(
          { content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
          { token_ids: [5, 6, 7], logprobs: { content: [{ logprob: -0.1 }, { logprob: -0.2 }, { logprob: -0.3 }] } },
        ),
        prompt_token_ids: [1, 2],
        policy_version: 4,
      },
    };
    const r = await chatCompletion(req());
    expect(r.toolCall).toEqual({ name: 'bash', arguments: { command: 'ls' } });
    expect(r.invalidReason).toBeNull();
    expect(r).toMatchObject({ promptTokens: 11, completionTokens: 3, tokenIds: [5, 6, 7], logprobs: [-0.1, -0.2, -0.3], promptTokenIds: [1, 2], policyVersion: 4 });
    expect(lastBody).toMatchObject({ logprobs: true, return_token_ids: true, tool_choice: 'auto', seed: 7, max_tokens: 64 });
  });

  it('reads the served version from a vLLM reply, which has no policy_version but names the LoRA in `model`', async () => {
    const call = { content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] };
    reply = { status: 200, body: { ...choice(call), model: 'train-7--policy-v3' } };
    expect((await chatCompletion(req())).policyVersion).toBe(3);
    reply = { status: 200, body: { ...choice(call), model: 'policy-v2' } };
    expect((await chatCompletion(req())).policyVersion).toBe(2);
    reply = { status: 200, body: { ...choice(call), model: 'Qwen/Qwen3-Coder-30B-A3B-Instruct' } }; // the base model
    expect((await chatCompletion(req())).policyVersion).toBe(0);
    reply = { status: 200, body: { ...choice(call), model: 'train-7--policy-v3', policy_version: 5 } }; // the embedded server's word wins
    expect((await chatCompletion(req())).policyVersion).toBe(5);
  });

  it.each([
    [{ content: 'I think the bug is…' }, /no tool call/],
    [{ content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '{"command": ' } }] }, /not valid JSON/],
    [{ content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '[1]' } }] }, /must be a JSON object/],
    [{ content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'rm_rf', arguments: '{}' } }] }, /no tool named "rm_rf". Available tools: bash/],
  ])('turns an unusable reply into a reason: %j', async (message, why) => {
    reply = { status: 200, body: choice(message) };
    const r = await chatCompletion(req());
    expect(r.toolCall).toBeNull();
    expect(r.invalidReason).toMatch(why);
  });

  it('reads the prompt tokens served from the cache: the embedded extension, else OpenAI/vLLM usage, else nothing', async () => {
    const call = { content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] };
    const usage = { prompt_tokens: 2200, completion_tokens: 30 };
    reply = { status: 200, body: { choices: [{ message: call }], usage: { ...usage, prompt_tokens_details: { cached_tokens: 1900 }, debugrl: { cached_tokens: 1900, prefilled_tokens: 300, stale_kv_tokens: 0 } } } };
    expect(await chatCompletion(req())).toMatchObject({ promptTokens: 2200, cachedPromptTokens: 1900 });
    reply = { status: 200, body: { choices: [{ message: call }], usage: { ...usage, prompt_tokens_details: { cached_tokens: 1024 } } } };
    expect((await chatCompletion(req())).cachedPromptTokens).toBe(1024);
    reply = { status: 200, body: { choices: [{ message: call }], usage: { ...usage, prompt_tokens_details: null } } }; // vLLM without prompt token details
    expect(await chatCompletion(req())).not.toHaveProperty('cachedPromptTokens');
    reply = { status: 200, body: { choices: [{ message: call }], usage } };
    expect(await chatCompletion(req())).not.toHaveProperty('cachedPromptTokens');
  });

  it('keeps only the first of several tool calls', async () => {
    const call = (n: string) => ({ id: n, type: 'function', function: { name: 'bash', arguments: `{"command":"${n}"}` } });
    reply = { status: 200, body: choice({ content: null, tool_calls: [call('a'), call('b')] }) };
    const r = await chatCompletion(req());
    expect(r.toolCall).toEqual({ name: 'bash', arguments: { command: 'a' } });
    expect(r.message.tool_calls).toHaveLength(1);
  });

  it('classifies server errors', async () => {
    reply = { status: 400, body: { error: "This model's maximum context length is 8192 tokens" } };
    await expect(chatCompletion(req())).rejects.toBeInstanceOf(ContextOverflowError);
    reply = { status: 404, body: { error: 'model m not found' } };
    await expect(chatCompletion(req())).rejects.toBeInstanceOf(PolicyRequestError);
    reply = { status: 503, body: 'overloaded' };
    await expect(chatCompletion(req())).rejects.toThrow(/HTTP 503/);
    reply = { status: 200, body: 'not json' };
    await expect(chatCompletion(req())).rejects.toThrow(/not JSON/);
  });
});
