/** Corpus statistics: the pure helpers against hand-computed values, and the whole report over fixture tasks. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  corpusStats,
  countSourceLines,
  distribution,
  formatStats,
  importedModules,
  reachable,
  resolveModule,
  taskSize,
} from '../taskset/stats';
import { figure6, logTicks } from '../taskset/figure';
import { loadTask } from '../taskset/task-loader';

const FIXTURES = path.join(__dirname, 'fixtures', 'bad-tasks');

describe('distribution', () => {
  it('uses the middle value, or the mean of the middle two, as the median', () => {
    expect(distribution([5, 1, 3])).toEqual({ min: 1, median: 3, p90: 5, max: 5 });
    expect(distribution([4, 1, 3, 2])!.median).toBe(2.5); // (2 + 3) / 2
  });

  it('takes p90 by nearest rank', () => {
    // 20 values 1..20: ceil(0.9 * 20) = 18th smallest = 18. 11 values 1..11: ceil(9.9) = 10th = 10.
    expect(distribution(Array.from({ length: 20 }, (_, i) => i + 1))!.p90).toBe(18);
    expect(distribution(Array.from({ length: 11 }, (_, i) => i + 1))!.p90).toBe(10);
  });

  it('is null for no values', () => {
    expect(distribution([])).toBeNull();
  });
});

describe('countSourceLines', () => {
  it('skips blank lines and # comments but keeps docstrings and code', () => {
    const src = ['"""Module doc."""', '', '# a comment', 'import os', '   # indented comment', 'def f():', '    return 1  # trailing', '   '].join('\n');
    expect(countSourceLines(src)).toBe(4); // docstring, import, def, return
  });
});

describe('imports', () => {
  it('reads plain, aliased, from, relative and parenthesised imports', () => {
    const src = [
      'import os, json as j',
      'import billing.invoice as inv',
      'from ledger import (',
      '    Ledger,',
      '    post,  # comment',
      ')',
      'from . import helpers',
      'from .models import Order',
      '    from cache import Cache  # inside a function',
      'x = "import nothing"',
    ].join('\n');
    expect(importedModules(src)).toEqual([
      'os',
      'json',
      'billing.invoice',
      'ledger',
      'ledger.Ledger',
      'ledger.post',
      '.',
      '.helpers',
      '.models',
      '.models.Order',
      'cache',
      'cache.Cache',
    ]);
  });

  it('resolves modules inside the workspace only', () => {
    const files = new Set(['ledger.py', 'billing/__init__.py', 'billing/invoice.py', 'billing/tax.py']);
    expect(resolveModule('ledger', 'test_x.py', files)).toBe('ledger.py');
    expect(resolveModule('billing', 'test_x.py', files)).toBe('billing/__init__.py');
    expect(resolveModule('billing.invoice', 'test_x.py', files)).toBe('billing/invoice.py');
    expect(resolveModule('.tax', 'billing/invoice.py', files)).toBe('billing/tax.py');
    expect(resolveModule('..ledger', 'billing/invoice.py', files)).toBe('ledger.py');
    expect(resolveModule('os', 'test_x.py', files)).toBeNull();
  });

  it('follows imports transitively and ignores files nothing imports', () => {
    const files: Record<string, string> = {
      'test_a.py': 'from a import f\nimport pytest\n',
      'a.py': 'import b\n',
      'b.py': 'from c import g\n',
      'c.py': 'import os\n',
      'unused.py': 'import a\n',
    };
    const got = reachable(['test_a.py'], new Set(Object.keys(files)), (f) => files[f]!);
    expect([...got].sort()).toEqual(['a.py', 'b.py', 'c.py', 'test_a.py']);
  });
});

describe('task sizes and the corpus report', () => {
  it('measures a fixture task: one reachable source file of 5 counted lines', () => {
    // calc.py: the docstring, two defs and two returns = 5 lines; blank lines do not count.
    const size = taskSize(loadTask(path.join(FIXTURES, 'valid_control')));
    expect(size).toEqual({ id: 'valid_control', reachableFiles: ['calc.py'], reachableLines: 5, allSourceLines: 5 });
  });

  it('leaves out unimported helpers from the reachable count but not from all source lines', () => {
    const size = taskSize(loadTask(path.join(FIXTURES, 'fix_outside_sources')));
    expect(size.reachableFiles).toEqual(['calc.py']);
    expect(size.allSourceLines).toBe(6); // calc.py 5 + helper.py 1
  });

  it('counts by split, category and debugger, lists unreadable folders, and renders text', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-'));
    try {
      const copy = (from: string, id: string, patch: Record<string, unknown>) => {
        const dir = path.join(tmp, id);
        fs.cpSync(path.join(FIXTURES, from), dir, { recursive: true });
        const spec = JSON.parse(fs.readFileSync(path.join(dir, 'task.json'), 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(path.join(dir, 'task.json'), JSON.stringify({ ...spec, id, ...patch }));
        return dir;
      };
      const dirs = [
        copy('valid_control', 'one', {}),
        copy('valid_control', 'two', { split: 'test', category: 'aliasing', debugger: 'recommended', multi_site_fix: true, obvious_fix_wrong: true, difficulty: 'hard' }),
        copy('fix_outside_sources', 'three', {}),
        path.join(FIXTURES, 'schema_extra_key'),
      ];
      const s = corpusStats(dirs);
      expect(s.tasks).toBe(3);
      expect(s.counts.train!.logic!.avoid).toBe(2);
      expect(s.counts.test!.aliasing!.recommended).toBe(1);
      expect(s.counts.validation!.concurrency!.optional).toBe(0);
      expect(s.bySplit).toEqual({ train: 2, validation: 0, test: 1, starter: 0 });
      expect(s.byDifficulty).toEqual({ easy: 2, medium: 0, hard: 1 });
      expect(s.multiSiteFix).toBe(1);
      expect(s.obviousFixWrong).toBe(1);
      expect(s.seedNamedTasks).toEqual({ deepcopy_circular: false, lease_gateway_validation_leak: false, producer_consumer_shutdown: false, toctou_file_check: false, reentrant_lock_owner: false });
      expect(s.splits).toEqual({ one: 'train', two: 'test', three: 'train' });
      expect(s.medianBySplit).toEqual({ train: { sourceLines: 5, files: 1 }, validation: { sourceLines: null, files: null }, test: { sourceLines: 5, files: 1 }, starter: { sourceLines: null, files: null } });
      expect(s.sourceLines).toEqual({ min: 5, median: 5, p90: 5, max: 5 });
      expect(s.unreadable).toEqual([{ dir: path.join(FIXTURES, 'schema_extra_key'), reason: expect.stringMatching(/Unrecognized key/) }]);
      const text = formatStats(s);
      expect(text).toMatch(/^3 tasks \(target 200: train 2\/130, validation 0\/40, test 1\/30\)\n/);
      expect(text).toMatch(/obvious fix: 1 tasks where patching the symptom/);
      expect(text).toMatch(/seed bugs: {3}deepcopy_circular MISSING/);
      expect(text).toMatch(/\n {2}logic\s+0\s+0\s+2\s+2\n/);
      expect(text).toMatch(/source lines {2}min 5, median 5, p90 5, max 5 {3}\(seed median 132\)/);
      expect(text).toMatch(/1 folders left out/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('figure 6', () => {
  it('puts log ticks at 1, 2, 5 per decade up to the maximum', () => {
    expect(logTicks(1)).toEqual([1]);
    expect(logTicks(7)).toEqual([1, 2, 5, 10]);
    expect(logTicks(120)).toEqual([1, 2, 5, 10, 20, 50, 100, 200]);
  });

  it('draws one circle per task, coloured by split, with the seed median and a legend', () => {
    const dirs = ['valid_control', 'fix_outside_sources', 'fails_nothing'].map((d) => path.join(FIXTURES, d));
    const svg = figure6(corpusStats(dirs));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<circle cx="[\d.]+" cy="[\d.]+" r="4"/g)).toHaveLength(3);
    expect(svg).toContain('<title>valid_control (train): 5 lines, 1 files</title>');
    expect(svg).toMatch(/train \(3\)<\/text>/);
    expect(svg).toContain('seed median');
  });
});
