/** The validated-task manifest: what a task's hash covers, which tasks a run skips, and `tasks validate` skipping an
 * unchanged task for real (a copy of the valid fixture task in a temporary corpus, run in the sandbox). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeVersion, dailySeed, draw, planValidation, readManifest, taskHash, updatedManifest, type Manifest } from '../taskset/manifest';
import { loadTask } from '../taskset/task-loader';
import { runTasksCli } from './helpers/tasks-cli';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function copyTask(from: string, id: string): string {
  const dir = path.join(tmp, id);
  fs.cpSync(path.join(FIXTURES, from), dir, { recursive: true });
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'task.json'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(dir, 'task.json'), JSON.stringify({ ...spec, id }));
  return dir;
}

describe('taskHash', () => {
  it('changes with task.json, a workspace file, a fix file and the code version, and only then', () => {
    const dir = copyTask('valid_control', 'one');
    const h0 = taskHash(loadTask(dir), 'code-a');
    expect(taskHash(loadTask(dir), 'code-a')).toBe(h0);
    expect(taskHash(loadTask(dir), 'code-b')).not.toBe(h0);
    const edits: Array<[string, string]> = [['workspace/calc.py', '\n'], ['fix/calc.py', '\n'], ['workspace/test_calc.py', '\n']];
    let prev = h0;
    for (const [file, extra] of edits) {
      fs.appendFileSync(path.join(dir, file), extra);
      const h = taskHash(loadTask(dir), 'code-a');
      expect(h).not.toBe(prev);
      prev = h;
    }
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'task.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(dir, 'task.json'), JSON.stringify({ ...spec, difficulty: 'hard' }));
    expect(taskHash(loadTask(dir), 'code-a')).not.toBe(prev);
  });

  it('tells a file moved between workspace/ and a subfolder apart', () => {
    const dir = copyTask('valid_control', 'one');
    const h0 = taskHash(loadTask(dir), 'c');
    fs.mkdirSync(path.join(dir, 'workspace', 'pkg'));
    fs.renameSync(path.join(dir, 'workspace', 'test_calc.py'), path.join(dir, 'workspace', 'pkg', 'test_calc.py'));
    expect(taskHash(loadTask(dir), 'c')).not.toBe(h0);
  });

  it('has a code version that covers the validator and the grader', () => {
    expect(codeVersion()).toMatch(/^[0-9a-f]{64}$/);
    const fake = fs.mkdtempSync(path.join(tmp, 'root-'));
    const empty = codeVersion(fake);
    fs.mkdirSync(path.join(fake, 'harness'));
    fs.writeFileSync(path.join(fake, 'harness', 'grader.ts'), 'x');
    expect(codeVersion(fake)).not.toBe(empty);
  });
});

describe('planValidation and updatedManifest', () => {
  const ids = Array.from({ length: 40 }, (_, i) => `task_${i}`);

  it('skips stored hashes, runs new and changed ones, and samples about the given share of the rest', () => {
    const dir = copyTask('valid_control', 'one');
    const task = loadTask(dir);
    const tasks = ids.map((id) => ({ ...task, spec: { ...task.spec, id } }));
    const hash = taskHash(task, 'c');
    const manifest: Manifest = { version: 1, code: 'c', tasks: Object.fromEntries(ids.slice(1).map((id) => [id, { hash, validated_at: 'x', runs: 3 }])) };
    manifest.tasks.task_1!.hash = '0'.repeat(64);
    const plan = planValidation(tasks, manifest, 'c', { sample: 0.25, seed: 's' });
    expect(plan[0]!.run).toBe('new');
    expect(plan[1]!.run).toBe('changed');
    const sampled = plan.filter((p) => p.run === 'sampled').map((p) => p.task.spec.id);
    // The draw is a pure function of (seed, id): the sample is exactly the ids whose draw is under 0.25.
    expect(sampled).toEqual(ids.slice(2).filter((id) => draw('s', id) < 0.25));
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThan(38);
    expect(plan.filter((p) => p.run === null)).toHaveLength(38 - sampled.length);
    expect(planValidation(tasks, manifest, 'c', { sample: 0, seed: 's' }).filter((p) => p.run === 'sampled')).toHaveLength(0);
    expect(planValidation(tasks, manifest, 'c', { full: true }).every((p) => p.run === 'full')).toBe(true);
    // Another code version makes every stored hash stale.
    expect(planValidation(tasks, manifest, 'other', { sample: 0 }).filter((p) => p.run === null)).toHaveLength(0);
  });

  it('draws a different sample on another day', () => {
    const a = ids.filter((id) => draw(dailySeed(new Date('2026-12-01T10:00:00Z')), id) < 0.3);
    const b = ids.filter((id) => draw(dailySeed(new Date('2026-12-02T10:00:00Z')), id) < 0.3);
    expect(a).not.toEqual(b);
  });

  it('records passes, drops failures and tasks that no longer exist, keeps tasks not run', () => {
    const h = (c: string) => c.repeat(64);
    const before: Manifest = { version: 1, code: 'old', tasks: { kept: { hash: h('1'), validated_at: 't', runs: 3 }, gone: { hash: h('2'), validated_at: 't', runs: 3 }, broke: { hash: h('3'), validated_at: 't', runs: 3 } } };
    const now = new Date('2026-12-01T00:00:00Z');
    const after = updatedManifest(before, 'new', [{ id: 'fresh', hash: h('4'), ok: true, runs: 3 }, { id: 'broke', hash: h('5'), ok: false, runs: 3 }], new Set(['kept', 'fresh', 'broke']), now);
    expect(after).toEqual({ version: 1, code: 'new', tasks: { kept: before.tasks.kept, fresh: { hash: h('4'), validated_at: '2026-12-01T00:00:00.000Z', runs: 3 } } });
  });
});

describe('tasks validate with a manifest (sandbox)', () => {
  const quiet = (args: string[]) => runTasksCli(tmp, args);

  it('records a passing task, then skips it until it changes or --all is given', async () => {
    copyTask('valid_control', 'alpha');
    const first = await quiet(['validate', '--update-manifest', '--sample', '0']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/1 of 1 tasks valid/);
    const m = readManifest(path.join(tmp, 'validated-manifest.json'))!;
    expect(Object.keys(m.tasks)).toEqual(['alpha']);
    expect(m.tasks.alpha!.hash).toBe(taskHash(loadTask(path.join(tmp, 'alpha')), codeVersion()));

    const second = await quiet(['validate', '--sample', '0']);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/1 unchanged task\(s\) skipped/);
    expect(second.out).toMatch(/0 of 0 tasks valid .*\(1 unchanged skipped\)/);

    const sampled = await quiet(['validate', '--sample', '1', '--runs', '1']);
    expect(sampled.out).toMatch(/1 of 1 tasks valid/);

    fs.appendFileSync(path.join(tmp, 'alpha', 'workspace', 'calc.py'), '\n');
    const changed = await quiet(['validate', '--sample', '0', '--runs', '1']);
    expect(changed.err).toMatch(/0 unchanged task\(s\) skipped.*running 1 new or changed/);
    expect(changed.out).toMatch(/1 of 1 tasks valid/);
  });
});
