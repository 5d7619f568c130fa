/** A chat-completions server that plays a script: the reply to a conversation with n assistant messages is the n-th
 * call of the list as a tool call (then `done`), at once. It lets a test or a benchmark run the model policies' path
 * (`openai:<model>@<url>`: a regular, heartbeating policy activity per turn) without a model. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
  name: string;
  arguments: unknown;
}

export interface ScriptedChatServer {
  /** The policy spec that points at it. */
  policy: string;
  close(): Promise<void>;
}

export async function startScriptedChatServer(calls: readonly ScriptedCall[]): Promise<ScriptedChatServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { messages } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string }[] };
      const n = messages.filter((m) => m.role === 'assistant').length;
      const call = calls[n] ?? { name: 'done', arguments: {} };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [{ message: { content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] } }],
          usage: { prompt_tokens: 100 + 20 * n, completion_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { policy: `openai:scripted@http://127.0.0.1:${port}/v1`, close: () => new Promise((r) => server.close(() => r())) };
}
