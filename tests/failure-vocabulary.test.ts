/** Every ApplicationFailure type is named through common/failures.ts (`Failure.X`, `NON_RETRYABLE.x`), never written
 * as a bare string: a renamed or misspelt type then fails to compile instead of silently never matching a workflow's
 * nonRetryableErrorTypes. This scans the sources for a failure type's name in quotes anywhere but failures.ts. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Failure } from '../common/failures';

const root = path.resolve(__dirname, '..');
const SOURCES = ['workflows', 'activities', 'workers', 'harness', 'common', 'taskset'];
const OWNER = path.join('common', 'failures.ts');

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** `file:line: 'Type'` for every quoted failure type name in `text`. */
function bareFailureTypes(file: string, text: string): string[] {
  const names = Object.values(Failure).join('|');
  const quoted = new RegExp(`(['"\`])(${names})\\1`, 'g');
  return text.split('\n').flatMap((line, i) => [...line.matchAll(quoted)].map((m) => `${file}:${i + 1}: ${m[0]}`));
}

it('finds a bare failure type (so an empty list below means something)', () => {
  expect(bareFailureTypes('x.ts', "retry: { nonRetryableErrorTypes: ['InvalidInput'] }\nthrow f(\"AdapterMismatch\")")).toEqual([
    "x.ts:1: 'InvalidInput'",
    'x.ts:2: "AdapterMismatch"',
  ]);
  expect(bareFailureTypes('x.ts', 'nonRetryableErrorTypes: [Failure.InvalidInput] // an InvalidInput')).toEqual([]);
});

it('no source outside common/failures.ts names a failure type as a string', () => {
  const files = SOURCES.flatMap(tsFiles).filter((f) => f !== OWNER);
  expect(files.length).toBeGreaterThan(50);
  expect(files.flatMap((f) => bareFailureTypes(f, fs.readFileSync(path.join(root, f), 'utf8')))).toEqual([]);
});
