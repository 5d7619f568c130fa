/** Python owns the learner's contract: native/tests/fixtures/learner_schema.json is the JSON Schema of its config
 * (config.py) and requests (protocol.py), exported by `python -m debugrl_native.learner.schema` (a pytest fails when it
 * is stale). This checks the TypeScript side against it: the config file TypeScript writes validates, every request
 * TypeScript sends names fields the request accepts, the token steps it sends validate, and LearnerSpec's defaults are
 * Python's. A field renamed or retyped in Python fails here until TypeScript follows. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { learnerConfigFor, learnerSteps } from '../activities/learner';
import { LearnerSpec, runSettings, TrainingRunInput } from '../common/training';
import { TRAJECTORY_SCHEMA } from '../common/trajectory';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '../native/tests/fixtures/learner_schema.json'), 'utf8')) as { config: Schema; request: Schema };

/** The JSON Schema subset pydantic emits ($ref, anyOf/oneOf, const/enum, type, object/array shapes, bounds, patterns).
 * Returns every violation with its path; [] when `value` is valid. */
function validate(value: unknown, schema: Schema, root: Schema, at = '$'): string[] {
  if (schema.$ref) return validate(value, root.$defs[String(schema.$ref).replace('#/$defs/', '')], root, at);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (schema[key]) {
      const results = (schema[key] as Schema[]).map((s) => validate(value, s, root, at));
      return results.some((r) => r.length === 0) ? [] : [`${at}: matches none of ${key} (${results.map((r) => r[0]).join(' | ')})`];
    }
  }
  if ('const' in schema && value !== schema.const) return [`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  const types = ([] as string[]).concat(schema.type ?? []);
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (types.length && !types.some((t) => t === typeOf(value) || (t === 'number' && typeof value === 'number'))) {
    return [`${at}: ${typeOf(value)} where the learner wants ${types.join('|')}`];
  }
  const errors: string[] = [];
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: ${value} < ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: ${value} > ${schema.maximum}`);
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) errors.push(`${at}: ${value} <= ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) errors.push(`${at}: ${value} >= ${schema.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) errors.push(`${at}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.prefixItems) (schema.prefixItems as Schema[]).forEach((s, i) => errors.push(...validate(value[i], s, root, `${at}[${i}]`)));
    else if (schema.items) value.forEach((v, i) => errors.push(...validate(v, schema.items, root, `${at}[${i}]`)));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [k, v] of Object.entries(value)) {
      if (props[k]) errors.push(...validate(v, props[k], root, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${k}: the learner has no such field (it has ${Object.keys(props).join(', ')})`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...validate(v, schema.additionalProperties, root, `${at}.${k}`));
    }
    for (const k of (schema.required ?? []) as string[]) if (!(k in value)) errors.push(`${at}.${k}: required by the learner, not sent`);
  }
  return errors;
}

const configDefs = fixture.config.$defs as Record<string, Schema>;
const requestDefs = fixture.request.$defs as Record<string, Schema>;
const pyDefault = (model: string, field: string) => configDefs[model].properties[field].default;

it('the validator refuses what the learner refuses (so a pass below means something)', () => {
  expect(validate({ lora: { rank: 0 } }, fixture.config, fixture.config)).toEqual([expect.stringContaining('$.lora.rank: 0 < 1')]);
  expect(validate({ lora: { rnk: 4 } }, fixture.config, fixture.config)).toEqual([expect.stringContaining('$.lora.rnk: the learner has no such field')]);
  expect(validate({ model: { kind: 'hub', name: 'x' } }, fixture.config, fixture.config)).toEqual([expect.stringContaining('$.model: matches none')]);
  expect(validate({ optim: { lr: '1e-5' } }, fixture.config, fixture.config)).toEqual([expect.stringContaining('string where the learner wants number')]);
});

it('the learner config TypeScript writes validates against config.py', () => {
  for (const spec of [LearnerSpec.parse({}), LearnerSpec.parse({ model: 'tiny-moe', loraRank: 4, lr: 1e-3, maxTokens: 1200, klCoef: 0, initialVersion: 3, dtype: 'bfloat16' })]) {
    for (const rl of [{}, { initAdapter: '/data/training/r/init', bcWeight: 0.5 }]) {
      const cfg = JSON.parse(JSON.stringify(learnerConfigFor(spec, '/data/training/r', '/data', 4, rl)));
      expect(validate(cfg, fixture.config, fixture.config)).toEqual([]);
    }
  }
});

it("LearnerSpec's defaults are Python's", () => {
  const spec = LearnerSpec.parse({});
  const cfg = learnerConfigFor(spec, '/r', '/d', 4) as { lora: { alpha: number } };
  expect(spec.loraRank).toBe(pyDefault('LoraConfig', 'rank'));
  expect(cfg.lora.alpha).toBe(pyDefault('LoraConfig', 'alpha'));
  expect(spec.lr).toBe(pyDefault('OptimConfig', 'lr'));
  expect(spec.maxTokens).toBe(pyDefault('PackingConfig', 'max_tokens'));
  expect(spec.klCoef).toBe(pyDefault('LossConfig', 'kl_coef'));
  expect(spec.initialVersion).toBe(fixture.config.properties.initial_version.default);
  const run = runSettings(TrainingRunInput.parse({ steps: 1 }));
  expect(run.bcWeight).toBe(pyDefault('LossConfig', 'bc_coef'));
  expect(TrainingRunInput.parse({ steps: 1 }).maxPolicyLag).toBe(pyDefault('LossConfig', 'max_policy_lag'));
});

/** Every `request({ type: '...', ... })` in the TypeScript sources, with the top-level keys of its object literal. */
function requestsSent(): { file: string; type: string; keys: string[] }[] {
  const out: { file: string; type: string; keys: string[] }[] = [];
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  for (const file of [...walk(path.join(__dirname, '../activities')), ...walk(path.join(__dirname, '../workers'))]) {
    const src = fs.readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\.request\(\s*\{/g)) {
      let depth = 0;
      let key = '';
      const keys: string[] = [];
      for (let i = m.index! + m[0].length; i < src.length; i++) {
        const c = src[i];
        if ('{[('.includes(c)) depth++;
        else if ('}])'.includes(c)) {
          if (depth === 0) break;
          depth--;
        } else if (depth === 0 && c === ':' && key) keys.push(key);
        key = depth === 0 && /\w/.test(c) ? key + c : depth === 0 && /\s/.test(c) ? key : '';
      }
      const type = /^\s*type:\s*'(\w+)'/.exec(src.slice(m.index! + m[0].length))?.[1] ?? '?';
      out.push({ file: path.relative(path.join(__dirname, '..'), file), type, keys });
    }
  }
  return out;
}

it('every request TypeScript sends is one the learner accepts, with fields it has', () => {
  const byType = Object.fromEntries(
    Object.entries(fixture.request.discriminator.mapping as Record<string, string>).map(([t, ref]) => [t, requestDefs[ref.replace('#/$defs/', '')]]),
  );
  const sent = requestsSent();
  // the scan finds the calls it must (a scan that found nothing would pass vacuously)
  expect(sent.map((s) => s.type)).toEqual(expect.arrayContaining(['score', 'train_step', 'sft_epoch', 'status']));
  for (const s of sent) {
    const schema = byType[s.type];
    expect({ ...s, known: schema !== undefined }).toEqual({ ...s, known: true });
    const props = Object.keys(schema.properties);
    // request_id is added by LearnerProcess.request when the call does not set it
    const missing = (schema.required as string[]).filter((k) => k !== 'request_id' && !s.keys.includes(k));
    expect({ ...s, unknown: s.keys.filter((k) => !props.includes(k)), missing }).toEqual({ ...s, unknown: [], missing: [] });
  }
});

it('the token steps TypeScript batches validate as the learner’s Step', () => {
  const turn = (p: number[], c: number[]) => ({
    message: { role: 'assistant' as const, content: null }, toolCall: null, invalidReason: null, promptTokens: p.length, completionTokens: c.length,
    tokenCounting: 'server-usage' as const, policyVersion: 2, promptTokenIds: p, tokenIds: c, logprobs: c.map(() => -0.5), forcedTokens: c.map((_, i) => i === 0), latencyMs: 1,
  });
  const now = new Date().toISOString();
  const built = learnerSteps({
    schema: TRAJECTORY_SCHEMA, episodeId: 'e', workflowId: 'e', taskId: 'fake_task', split: 'train', policy: { spec: 'embedded', version: 2 },
    toolset: 'full', evaluationId: null, arm: null, seed: 0, limits: {}, messages: [], recoveries: [],
    turns: [{ turn: 1, assistant: turn([1, 2, 3], [4, 5]), tool: null }, { turn: 2, assistant: turn([1, 2, 3, 4, 5, 6], [7]), tool: null }],
    outcome: { passed: true, tests: {}, exitReason: 'done', error: null, gradeNotes: [] },
    tokens: { prompt: 0, completion: 0, finalContext: 0 }, timings: { startedAt: now, finishedAt: now, durationMs: 0 },
  });
  if (!built.ok) throw new Error(`learnerSteps refused the sample trajectory: ${built.detail}`);
  expect(built.steps).toHaveLength(2);
  for (const step of built.steps) expect(validate(step, requestDefs.Step, fixture.request)).toEqual([]);
});
