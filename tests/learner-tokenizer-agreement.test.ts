/** Tokenizer agreement before any rollout (activities/learner/tokenizer-agreement.ts): the server's facts against the
 * learner's model directory, compared by the real Python check on SmolLM2's real tokenizer. The facts come from a
 * server's own endpoints; here a small HTTP server answers in vLLM's shapes (/tokenizer_info, /tokenize) to test the
 * reading of them, with the values the real tokenizer gives. */
import { execFileSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { checkTokenizerAgreement, fetchServingFacts, probeConversation, type ServingFacts } from '../activities/learner';
import { loadConfig, REPO_ROOT } from '../common/config';

const config = loadConfig();
const py = config.DEBUGRL_PYTHON;
const smol = path.join(config.DEBUGRL_DATA_DIR, 'models', 'smollm2-135m-instruct');

/** What a server holding SmolLM2's tokenizer reports (tokenizer_check.serving_facts_of, the embedded server's answer). */
function realFacts(): ServingFacts {
  const code = `import sys, json
from debugrl_native.learner.families import load_tokenizer
from debugrl_native.learner.tokenizer_check import serving_facts_of
print(serving_facts_of(load_tokenizer(sys.argv[1])).model_dump_json())`;
  return JSON.parse(execFileSync(py, ['-c', code, smol], { cwd: path.join(REPO_ROOT, 'native'), encoding: 'utf8' })) as ServingFacts;
}

describe('tokenizer agreement (real SmolLM2 tokenizer)', () => {
  let facts: ServingFacts;
  beforeAll(() => {
    facts = realFacts();
  }, 120_000);

  it('passes when the server holds the same tokenizer and chat template', () => {
    expect(facts.chat_token_ids!.length).toBeGreaterThan(20);
    expect(() => checkTokenizerAgreement(py, smol, facts)).not.toThrow();
  }, 120_000);

  it('fails naming what differs: the vocabulary size, a special token, the chat template', () => {
    const ids = [...facts.chat_token_ids!];
    ids[5] = ids[5]! + 1;
    const im_end = Object.keys(facts.special_tokens).find((t) => t.includes('im_end'))!;
    const bad = { ...facts, vocab_size: 49_153, special_tokens: { ...facts.special_tokens, [im_end]: 3 }, chat_token_ids: ids };
    let message = '';
    try {
      checkTokenizerAgreement(py, smol, bad);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/vocabulary size: the learner's tokenizer has 49152 tokens, the server's 49153/);
    expect(message).toMatch(new RegExp(`special tokens differ \\(1\\): '${im_end.replace(/[|<>]/g, (c) => `\\${c}`)}' is \\d+ here, 3 at the server`));
    expect(message).toMatch(/chat template: .* first different at position 5/);
  }, 120_000);

  it("reads vLLM's tokenizer_info and tokenize answers into facts (no vocabulary size), and null from a server with neither", async () => {
    const probe = probeConversation(py);
    const seen: unknown[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/tokenizer_info') {
          const decoder = Object.fromEntries(Object.entries(facts.special_tokens).map(([t, id]) => [String(id), { content: t, special: true }]));
          return res.end(JSON.stringify({ tokenizer_class: 'GPT2TokenizerFast', added_tokens_decoder: { ...decoder, '49152': { content: 'plain', special: false } } }));
        }
        if (req.url === '/tokenize' && req.method === 'POST') {
          seen.push(JSON.parse(body));
          return res.end(JSON.stringify({ count: facts.chat_token_ids!.length, max_model_len: 8192, tokens: facts.chat_token_ids }));
        }
        res.statusCode = 404;
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const got = await fetchServingFacts(base, () => probe);
      expect(seen).toEqual([{ messages: probe, add_generation_prompt: false, add_special_tokens: false }]);
      expect(got).toEqual({ vocab_size: null, special_tokens: facts.special_tokens, chat_messages: probe, chat_token_ids: facts.chat_token_ids });
      expect(() => checkTokenizerAgreement(py, smol, got!)).not.toThrow();
      expect(await fetchServingFacts(`${base}/nothing-here`, () => probe)).toBeNull();
    } finally {
      server.close();
    }
  }, 120_000);
});
