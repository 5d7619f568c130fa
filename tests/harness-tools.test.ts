import { parseArgs, toolNames, toolSpecs } from '../harness/tools';
import { parseScript, ScriptError } from '../harness/script';
import { bound } from '../harness/observation';
import { DEFAULT_TASK, expectCall, withSession } from './harness-helpers';

describe('tool registry', () => {
  test('the full toolset has exactly the issue tool names; no-debugger drops the debugger ones', () => {
    expect(toolNames('full')).toEqual([
      'bash', 'read_file', 'edit_file', 'run_tests', 'start_debugger', 'add_breakpoint', 'remove_breakpoint', 'list_breakpoints',
      'continue_execution', 'step_over', 'step_into', 'step_out', 'where_am_i', 'examine_locals', 'print_variable', 'run_expression',
      'stop_debugger', 'done',
    ]);
    expect(toolNames('no-debugger')).toEqual(['bash', 'read_file', 'edit_file', 'run_tests', 'done']);
  });

  test('JSON schemas come from the zod schemas: names, required arguments, no extra properties', () => {
    const specs = Object.fromEntries(toolSpecs('full').map((t) => [t.function.name, t.function.parameters]));
    expect(specs.add_breakpoint).toMatchObject({
      type: 'object',
      properties: { file: { type: 'string' }, line: { type: 'integer' }, condition: { type: 'string' } },
      required: ['file', 'line'],
      additionalProperties: false,
    });
    expect(specs.edit_file!.required).toEqual(['path', 'old_text', 'new_text']);
    expect(specs.read_file!.required).toEqual(['path']);
    expect(specs.where_am_i).toMatchObject({ type: 'object', properties: {} });
    expect(JSON.stringify(specs)).not.toContain('$schema');
  });

  test('bad arguments give a message naming the problem and the expected arguments', () => {
    const r = parseArgs('add_breakpoint', { file: 'a.py', line: 'twelve' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/line: .*number.*Arguments: file, line, condition/);
    const extra = parseArgs('step_over', { count: 3 });
    expect(!extra.ok && extra.error).toMatch(/unknown argument\(s\) count/);
    const opt = parseArgs('run_tests', { target: '--collect-only' });
    expect(opt.ok).toBe(false);
  });
});

describe('scripts', () => {
  test('parses lines, skips blanks and comments, defaults arguments', () => {
    const calls = parseScript('{"name":"bash","arguments":{"command":"ls"}}\n\n// note\n{"name":"done"}\n');
    expect(calls).toEqual([{ name: 'bash', arguments: { command: 'ls' } }, { name: 'done', arguments: {} }]);
  });
  test('errors carry the line number', () => {
    expect(() => parseScript('{"name":"bash","arguments":{}}\n{oops', 's.jsonl')).toThrow(/s\.jsonl:2: not valid JSON/);
    expect(() => parseScript('\n{"tool":"bash"}', 's.jsonl')).toThrow(ScriptError);
    expect(() => parseScript('\n{"tool":"bash"}', 's.jsonl')).toThrow(/s\.jsonl:2: .*name/);
  });
});

describe('observation bounds', () => {
  test('a long text keeps head and tail and says how much was cut', () => {
    const text = 'a'.repeat(5000) + 'END';
    const b = bound(text, 1000);
    expect(b.truncated).toBe(true);
    expect(b.text.length).toBeLessThanOrEqual(1000);
    expect(b.text).toMatch(/\[… \d+ characters of output truncated …\]/);
    expect(b.text.endsWith('END')).toBe(true);
    expect(bound('short', 1000)).toEqual({ text: 'short', truncated: false });
  });
});

describe('workspace tools', () => {
  test('unknown tools and bad arguments are observations, not exceptions', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'pdb', { command: 'n' }, false);
      expect(r.output).toMatch(/unknown tool "pdb". Available tools: bash, read_file/);
      const bad = await expectCall(s, 'read_file', { path: 3 }, false);
      expect(bad.output).toMatch(/invalid arguments for read_file/);
    }));

  test('read_file numbers lines, bounds ranges, refuses paths outside the workspace', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const r = await expectCall(s, 'read_file', { path: 'articles.py', start_line: 2, end_line: 3 }, true);
      expect(r.output).toBe('2:     def __init__(self, title, tags=[]):\n3:         self.title = title\n[showing lines 2-3 of 13; use start_line/end_line for more]');
      expect((await expectCall(s, 'read_file', { path: '../../etc/passwd' }, false)).output).toMatch(/outside the workspace/);
      expect((await expectCall(s, 'read_file', { path: '/etc/passwd' }, false)).output).toMatch(/outside the workspace/);
      expect((await expectCall(s, 'read_file', { path: 'nope.py' }, false)).output).toMatch(/no such file: nope.py. Files in \/workspace: articles.py/);
      expect((await expectCall(s, 'read_file', { path: 'articles.py', start_line: 99 }, false)).output).toMatch(/has 13 lines/);
    }));

  test('edit_file: exactly one match, errors say zero or several with nearby lines, empty old_text creates', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const none = await expectCall(s, 'edit_file', { path: 'articles.py', old_text: 'def __init__(self, title, tags=()):', new_text: 'x' }, false);
      expect(none.output).toMatch(/not found in articles.py \(0 matches\)/);
      expect(none.output).toMatch(/2: {5}def __init__\(self, title, tags=\[\]\):/);
      const ws = await expectCall(s, 'edit_file', { path: 'articles.py', old_text: 'self.title  =  title', new_text: 'x' }, false);
      expect(ws.output).toMatch(/whitespace is ignored/);
      const many = await expectCall(s, 'edit_file', { path: 'articles.py', old_text: 'self.tags', new_text: 'x' }, false);
      expect(many.output).toMatch(/occurs 3 times in articles.py \(starting at lines 4, 7, 8\)/);
      const out = await expectCall(s, 'edit_file', { path: '../evil.py', old_text: '', new_text: 'x' }, false);
      expect(out.output).toMatch(/outside the workspace/);
      const missing = await expectCall(s, 'edit_file', { path: 'new.py', old_text: 'a', new_text: 'b' }, false);
      expect(missing.output).toMatch(/no such file: new.py. To create it/);
      await expectCall(s, 'edit_file', { path: 'pkg/new.py', old_text: '', new_text: 'X = 1\n' }, true);
      const ran = await expectCall(s, 'bash', { command: 'cat pkg/new.py && echo more >> pkg/new.py && wc -l < pkg/new.py' }, true);
      expect(ran.output).toMatch(/X = 1\n2\n/);
      const good = await expectCall(s, 'edit_file', { path: 'articles.py', old_text: 'tags=[]):', new_text: 'tags=None):' }, true);
      expect(good.output).toMatch(/Edited articles.py: lines 2-2 replaced by 1 line/);
      expect(good.meta.edited).toBe(true);
    }));

  test('run_tests reports failing tests with messages and per-test outcomes; one node id works', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const all = await expectCall(s, 'run_tests', {}, false);
      expect(all.output).toMatch(/^Result: 1 passed, 1 failed\nFAILED test_articles.py::test_new_articles_start_untagged: AssertionError/);
      expect(all.output).toMatch(/test_articles.py:\d+: in test_new_articles_start_untagged/);
      const one = await expectCall(s, 'run_tests', { target: 'test_articles.py::test_explicit_tags_are_kept' }, true);
      expect(one.output).toBe('Result: 1 passed');
      expect((await expectCall(s, 'run_tests', { target: 'missing.py' }, false)).output).toMatch(/no such test file/);
    }));

  test('done ends the episode; later calls are refused; grade comes from the grader', () =>
    withSession(DEFAULT_TASK, async (s) => {
      const d = await expectCall(s, 'done', { summary: 'fixed it' }, true);
      expect(d.meta.ended).toBe(true);
      expect(s.finished).toBe(true);
      expect((await expectCall(s, 'bash', { command: 'ls' }, false)).output).toMatch(/episode is finished/);
      const g = await s.grade();
      expect(g.passed).toBe(false);
      expect(g.tests['test_articles.py::test_new_articles_start_untagged']).toBe('failed');
    }));
});
