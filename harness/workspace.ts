/**
 * The episode's workspace as the tools see it: its files (no-follow access, workspace-fs.ts), edit matching, shell
 * commands and pytest runs inside the sandbox. Each tool handler in tools/ builds its observation from these; this
 * class holds no episode state beyond the sandbox itself.
 *
 * A failure the agent's path caused (outside the workspace, a FIFO, too big) is a WorkspaceFsError, which
 * `refusal` turns into an observation; a process that cannot start at all is a HarnessInfraError.
 */
import * as fs from 'node:fs';
import { replaceOnce } from './edit-match';
import { HarnessInfraError } from './infra-error';
import { fail, type Outcome } from './outcome';
import { runPytest, type PytestRun } from './pytest-run';
import { WORKSPACE, type ExecResult, type Sandbox } from './sandbox';
import { shownPath, shownUnder, WorkspaceFsError, type WorkspaceFs } from './workspace-fs';

/** edit_file refuses larger files (bash can change a part). */
const EDIT_MAX_BYTES = 4 * 1024 * 1024;

/** An applied edit: the file's root-relative path, its text before, after, and where old_text was. */
export interface AppliedEdit {
  rel: string;
  text: string;
  updated: string;
  pos: number;
}

export class Workspace {
  /** The workspace's files, every path walked without following the model's links. */
  readonly files: WorkspaceFs;

  constructor(readonly sandbox: Sandbox) {
    this.files = sandbox.workspace;
  }

  /** Throw HarnessInfraError when the sandbox (or its workspace folder) is gone: nothing the agent can fix. */
  assertPresent(): void {
    if (this.sandbox.isDestroyed || !fs.existsSync(this.sandbox.workspaceHostDir)) {
      throw new HarnessInfraError(`sandbox ${this.sandbox.id} is gone`);
    }
  }

  /** Run `command` under bash, stderr folded into stdout, at most 32 KiB of it kept. */
  bash(command: string, limits: { timeoutMs: number; idleTimeoutMs: number }): Promise<ExecResult> {
    return this.sandbox.exec(['bash', '-c', `exec 2>&1\n${command}`], { ...limits, maxOutputBytes: 32 * 1024 }).catch((e: Error) => {
      throw new HarnessInfraError(`sandbox command could not start: ${e.message}`);
    });
  }

  /** Replace the one occurrence of `oldText` in the existing file `p`: the applied edit, or why it did not apply.
   * Throws WorkspaceFsError for a path the agent may not edit. */
  edit(p: string, oldText: string, newText: string): AppliedEdit | { failure: string } {
    let outcome: AppliedEdit | { failure: string } | null = null;
    this.files.updateFile(p, EDIT_MAX_BYTES, (rel, text) => {
      const r = replaceOnce(rel, text, oldText, newText);
      outcome = 'failure' in r ? r : { rel, text, ...r };
      return 'updated' in r ? r.updated : null;
    });
    return (outcome as AppliedEdit | { failure: string } | null) ?? { failure: `${shownPath(p)} could not be edited` };
  }

  /** pytest on `target` (a file or node id; all visible tests when absent) with short tracebacks. */
  async pytest(target: string | undefined, timeoutMs: number): Promise<PytestRun> {
    try {
      return await runPytest(this.sandbox, { targets: target ? [target] : [], timeoutMs, args: ['--tb=short'], maxOutputBytes: 64 * 1024 });
    } catch (e) {
      throw new HarnessInfraError(`pytest could not start in the sandbox: ${(e as Error).message}`);
    }
  }

  /** A model path as a workspace-relative one (the form breakpoints are kept in); the path itself when outside. */
  relative(file: string): string {
    return this.files.relative(file) ?? file;
  }

  /** The names in a workspace folder (root-relative path), bounded: shown when a path the agent named is wrong. */
  listing(rel = ''): string {
    const names = this.files.list(rel).filter((n) => !n.startsWith('.')).map((n) => shownPath(n));
    return `Files in ${shownUnder(WORKSPACE, rel)}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ` … ${names.length - 30} more` : ''}`;
  }
}

/** A workspace file operation the agent's path made fail, as an observation. Anything else is a harness bug. */
export function refusal(e: unknown, what: 'read' | 'edit' | 'test'): Outcome {
  if (!(e instanceof WorkspaceFsError)) throw e;
  const tail = e.code === 'outside' ? `; only workspace files can be ${what === 'read' ? 'read' : what === 'edit' ? 'edited' : 'run'}` : '';
  return fail(`${e.message}${tail}`);
}
