/** `--model <dir>` (train, sft train): the checkpoint directory is checked before anything starts, by what its
 * config.json says (native/…/learner/families.py), and a bad one fails naming the cause. Runs the real Python check. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkModelDir } from '../activities/learner';
import { loadConfig } from '../common/config';

const python = loadConfig().DEBUGRL_PYTHON;

function checkpoint(config: Record<string, unknown> | null, files: string[] = ['tokenizer.json', 'model.safetensors']): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-dir-'));
  if (config) fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  for (const f of files) fs.writeFileSync(path.join(dir, f), '{}');
  return dir;
}

it('names the family of a supported checkpoint from its config.json, whatever the folder is called', () => {
  expect(checkModelDir(python, checkpoint({ model_type: 'qwen3_moe', architectures: ['Qwen3MoeForCausalLM'], vocab_size: 151_936 }))).toEqual({ family: 'qwen3_moe', architecture: 'Qwen3MoeForCausalLM', vocab_size: 151_936 });
  expect(checkModelDir(python, checkpoint({ model_type: 'llama', architectures: ['LlamaForCausalLM'], vocab_size: 49_152 })).family).toBe('llama');
});

it('refuses a folder without config.json, an unsupported architecture, a missing tokenizer, naming the cause', () => {
  expect(() => checkModelDir(python, checkpoint(null))).toThrow(/has no config\.json/);
  expect(() => checkModelDir(python, checkpoint({ model_type: 'mistral', architectures: ['MistralForCausalLM'], vocab_size: 32_000 }))).toThrow(/model_type 'mistral'.*is not supported; the learner trains llama/);
  expect(() => checkModelDir(python, checkpoint({ model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'], vocab_size: 10 }, ['model.safetensors']))).toThrow(/has no tokenizer/);
  expect(() => checkModelDir(python, 'relative/dir')).toThrow(/give an absolute path/);
  expect(() => checkModelDir(python, path.join(os.tmpdir(), 'no-such-model-dir-xyz'))).toThrow(/does not exist/);
});
