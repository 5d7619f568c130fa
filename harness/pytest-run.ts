/**
 * Running pytest inside a sandbox with a per-test outcome report (the `debugrl_native.debugger.pytest_report`
 * plugin writes JSON lines to a file in the sandbox's /tmp). Shared by the grader and the `run_tests` tool.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ExecResult, Sandbox } from './sandbox';
import { WorkspaceFsError } from './workspace-fs';

/** The largest outcome report read back (a few hundred bytes per test). */
const REPORT_MAX_BYTES = 8 * 1024 * 1024;

export type TestOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'timeout';

export interface PytestRun {
  /** Node id -> outcome. Collected tests that never reported (the run was killed) are `timeout`. */
  tests: Record<string, TestOutcome>;
  /** Short failure messages by node id (assertion text). */
  messages: Record<string, string>;
  collectErrors: string[];
  exec: ExecResult;
  /** pytest's exit status: 0 all passed, 1 some failed, 2 interrupted, 4 usage error, 5 nothing collected. */
  exitCode: number | null;
}

export interface PytestOptions {
  /** Node ids or paths relative to /workspace; empty means pytest's own discovery. */
  targets?: string[];
  timeoutMs: number;
  /** Extra pytest arguments (e.g. `-x`, `--tb=short`). */
  args?: string[];
  maxOutputBytes?: number;
}

export async function runPytest(sandbox: Sandbox, opts: PytestOptions): Promise<PytestRun> {
  const reportName = `.pytest-report-${randomBytes(6).toString('hex')}.jsonl`;
  const argv = [
    sandbox.harnessEnv.python,
    '-m',
    'pytest',
    '-p',
    'debugrl_native.debugger.pytest_report',
    '-p',
    'no:cacheprovider',
    '-q',
    '--color=no',
    '-o',
    'console_output_style=classic',
    ...(opts.args ?? []),
    ...(opts.targets ?? []),
  ];
  const exec = await sandbox.exec(argv, {
    timeoutMs: opts.timeoutMs,
    maxOutputBytes: opts.maxOutputBytes ?? 256 * 1024,
    env: { DEBUGRL_REPORT: `/tmp/${reportName}` },
  });
  // The report lies in the sandbox's /tmp, where the program under test can replace it with a link or a FIFO.
  let text = '';
  try {
    text = sandbox.tmp.readFile(reportName, REPORT_MAX_BYTES).data.toString('utf8');
  } catch (e) {
    if (!(e instanceof WorkspaceFsError)) throw e;
  }
  fs.rmSync(path.join(sandbox.dir, 'tmp', reportName), { force: true });
  const tests: Record<string, TestOutcome> = {};
  const messages: Record<string, string> = {};
  const collectErrors: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a line cut short by a kill
    }
    if (Array.isArray(rec.collected)) for (const id of rec.collected) if (typeof id === 'string' && !(id in tests)) tests[id] = 'timeout';
    if (typeof rec.test === 'string' && typeof rec.outcome === 'string') {
      tests[rec.test] = rec.outcome as TestOutcome;
      if (typeof rec.message === 'string') messages[rec.test] = rec.message;
    }
    if (typeof rec.collect_error === 'string') collectErrors.push(`${rec.collect_error}: ${String(rec.message ?? '')}`);
  }
  return { tests, messages, collectErrors, exec, exitCode: exec.killed ? null : exec.exitCode };
}
