/**
 * One episode's sandbox: a private copy of a task workspace and a way to run processes over it under bubblewrap.
 *
 * Every process (a bash command, a pytest run, the debugger bridge) is its own `bwrap` invocation over the same
 * per-episode directory, so the workspace and /tmp persist across turns while nothing else does. Inside:
 * - no network (`--unshare-all` gives a fresh, empty network namespace) and a fresh pid namespace;
 * - the host root is visible read-only, but the repository (where tasks and their held-back fix/ live, and .git),
 *   the data dir (other episodes' sandboxes) and any `hide` paths are masked with empty tmpfs mounts; only the venv
 *   and the native package are bound back;
 * - the workspace is read-write at /workspace, /tmp is the episode's own directory;
 * - CPU time, address space, file size and process count are capped with rlimits. Processes run as an unprivileged
 *   uid of their own: as root, RLIMIT_NPROC is not enforced (the kernel exempts uid 0), so a fork bomb would only
 *   be stopped by the wall clock.
 * Killing the outer bwrap kills the sandbox's pid 1 (`--die-with-parent`), which takes the whole pid namespace down.
 */
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { REPO_ROOT } from '../common/config';
import type { HarnessEnv } from './env';
import { WorkspaceFs } from './workspace-fs';

/** Where the workspace appears inside every sandbox. */
export const WORKSPACE = '/workspace';

export interface SandboxLimits {
  /** RLIMIT_CPU per process, seconds. Wall-clock timeouts are separate (per call). */
  cpuSeconds: number;
  /** RLIMIT_AS per process. 2 GiB leaves room for pytest plus a few dozen thread stacks (8 MiB each reserved). */
  memoryBytes: number;
  /** RLIMIT_NPROC for the sandbox's uid: processes plus threads across everything running in this episode. */
  processes: number;
  /** RLIMIT_FSIZE: the largest file any process may write. */
  fileSizeBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuSeconds: 120,
  memoryBytes: 2 * 1024 ** 3,
  processes: 128,
  fileSizeBytes: 16 * 1024 ** 2,
};

export interface SandboxOptions {
  /** The host's interpreter, data and tasks folders (env.ts). */
  harnessEnv: HarnessEnv;
  /** The folder copied into the sandbox as /workspace (a task's workspace/). */
  workspaceFrom: string;
  /** Host paths to mask inside the sandbox in addition to the repository and the data dir (e.g. the task folder). */
  hide?: string[];
  limits?: Partial<SandboxLimits>;
}

export interface ExecOptions {
  /** Hard wall-clock limit; on expiry the whole process tree is killed. */
  timeoutMs: number;
  /** Kill when neither stdout nor stderr produced anything for this long. */
  idleTimeoutMs?: number;
  /** Bytes kept of each stream; the rest is counted, not stored. */
  maxOutputBytes?: number;
  /** Kill once a stream has produced this many bytes in total (endless output). Default 64 × maxOutputBytes. */
  killAfterOutputBytes?: number;
  env?: Record<string, string>;
  /** Working directory inside the sandbox (default /workspace). */
  cwd?: string;
  stdin?: string;
}

export interface ExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes produced beyond maxOutputBytes, per stream. */
  droppedBytes: { stdout: number; stderr: number };
  /** Why we killed it, if we did. */
  killed: 'timeout' | 'idle' | 'output' | null;
  durationMs: number;
}

export interface SpawnOptions {
  /** Extra pipes after stdin/stdout/stderr (fd 3, 4, …), e.g. the debugger's protocol channel. */
  extraPipes?: number;
  env?: Record<string, string>;
  cwd?: string;
}

export class SandboxError extends Error {}


export class Sandbox {
  private readonly live = new Set<ChildProcess>();
  private destroyed = false;
  private workspaceFs: WorkspaceFs | null = null;
  private tmpFs: WorkspaceFs | null = null;

  private constructor(
    readonly id: string,
    /** Host folder holding workspace/ and tmp/. */
    readonly dir: string,
    readonly limits: SandboxLimits,
    /** The sandbox's own host uid (null when the harness does not run as root): every process inside runs as it. */
    readonly uid: number | null,
    private readonly hide: string[],
    /** The host's interpreter, data and tasks folders: what every process here runs and must not see. */
    readonly harnessEnv: HarnessEnv,
  ) {}

  /** Host path of the workspace copy (for the harness's own file tools; the model only sees /workspace). */
  get workspaceHostDir(): string {
    return path.join(this.dir, 'workspace');
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  static async create(opts: SandboxOptions): Promise<Sandbox> {
    const from = path.resolve(opts.workspaceFrom);
    if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory()) throw new SandboxError(`workspace source ${from} is not a folder`);
    const id = `sb-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const dir = path.join(sandboxesRoot(opts.harnessEnv), id);
    await fs.promises.mkdir(path.join(dir, 'tmp'), { recursive: true });
    await fs.promises.cp(from, path.join(dir, 'workspace'), { recursive: true, verbatimSymlinks: true });
    // A uid of its own per sandbox, so RLIMIT_NPROC counts only this episode's processes.
    // Random, not derived from the pid: two worker processes whose pids agreed modulo the range would otherwise hand
    // out the same uids and share one RLIMIT_NPROC budget.
    const uid = process.getuid?.() === 0 ? 200000 + randomInt(800000) : null;
    if (uid !== null) await chownTree(dir, uid);
    return new Sandbox(id, dir, { ...DEFAULT_LIMITS, ...opts.limits }, uid, (opts.hide ?? []).map((p) => path.resolve(p)), opts.harnessEnv);
  }

  /** The workspace as the harness's file tools see it: every operation no-follow, bounded by the workspace. */
  get workspace(): WorkspaceFs {
    return (this.workspaceFs ??= new WorkspaceFs(this.workspaceHostDir, WORKSPACE, this.uid));
  }

  /** The sandbox's private /tmp, with the same no-follow rules (the harness reads pytest's report from it). */
  get tmp(): WorkspaceFs {
    return (this.tmpFs ??= new WorkspaceFs(path.join(this.dir, 'tmp'), '/tmp', this.uid));
  }

  /**
   * The host command line that runs `argv` inside the sandbox: `bwrap --args <fd> -- <argv>`, with every bwrap
   * option (mounts with host paths, the environment) in `options`, to be written NUL-separated to that fd. The
   * sandbox's pid 1 is that bwrap, and /proc/1/cmdline is readable inside: host paths and the task's id must not be.
   */
  commandLine(argv: string[], opts: { env?: Record<string, string>; cwd?: string; argsFd?: number } = {}): { argv: string[]; options: string[] } {
    if (this.destroyed) throw new SandboxError(`sandbox ${this.id} was destroyed`);
    const l = this.limits;
    // As root, bwrap runs without a user namespace (so the uid switch below is a real host uid, which RLIMIT_NPROC
    // counts) and keeps only the two capabilities setpriv needs to drop to that uid; setpriv then drops them too.
    const unshare = this.uid === null
      ? ['--unshare-all']
      : ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID'];
    const bw = ['bwrap', ...unshare, '--die-with-parent', '--new-session', ...rootMounts(), '--dev', '/dev', '--proc', '/proc'];
    // The private /tmp goes first: a checkout that lives under /tmp (CI clones there) needs its masks and its venv
    // bind to land on top of it, not be covered by it.
    bw.push('--bind', path.join(this.dir, 'tmp'), '/tmp');
    for (const m of maskedMounts(this.harnessEnv, this.hide)) bw.push(...m);
    bw.push('--bind', this.workspaceHostDir, WORKSPACE, '--remount-ro', '/');
    bw.push('--chdir', opts.cwd ?? WORKSPACE, '--clearenv');
    const env = { ...sandboxEnv(this.harnessEnv.python), ...opts.env };
    for (const [k, v] of Object.entries(env)) bw.push('--setenv', k, v);
    const who = this.uid === null ? [] : ['setpriv', `--reuid=${this.uid}`, `--regid=${this.uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--'];
    const rl = ['prlimit', `--cpu=${l.cpuSeconds}`, `--as=${l.memoryBytes}`, `--fsize=${l.fileSizeBytes}`, `--nproc=${l.processes}`, `--core=0`, '--'];
    return { argv: ['bwrap', '--args', String(opts.argsFd ?? 3), '--', ...who, ...rl, ...argv], options: bw.slice(1) };
  }

  /** Start a long-lived process in the sandbox (the debugger bridge). The caller owns its pipes; destroy() kills it. */
  spawn(argv: string[], opts: SpawnOptions = {}): ChildProcess {
    const argsFd = 3 + (opts.extraPipes ?? 0); // after the caller's pipes; bwrap closes it once read
    const line = this.commandLine(argv, { ...opts, argsFd });
    const [cmd, ...args] = line.argv;
    const stdio: StdioOptions = ['pipe', 'pipe', 'pipe', ...Array.from({ length: (opts.extraPipes ?? 0) + 1 }, () => 'pipe' as const)];
    // The marker in bwrap's own environment (not the sandbox's: --clearenv) finds a bwrap orphaned by a kill in its
    // first milliseconds, which still runs as root (see destroy); the sandbox's uid cannot read root's environ.
    const child = spawn(cmd!, args, { stdio, detached: true, env: { ...process.env, [SANDBOX_MARKER]: this.id } });
    const optionsPipe = child.stdio[argsFd] as Writable | null;
    optionsPipe?.on('error', () => undefined); // bwrap died before reading: its exit reports that
    optionsPipe?.end(Buffer.from(line.options.map((o) => `${o}\0`).join(''), 'utf8'));
    this.live.add(child);
    child.on('exit', () => this.live.delete(child));
    child.on('error', () => this.live.delete(child));
    return child;
  }

  /** Run a command to completion with bounded output and time. Never rejects for the command's own failure. */
  exec(argv: string[], opts: ExecOptions): Promise<ExecResult> {
    const max = opts.maxOutputBytes ?? 64 * 1024;
    const killAt = opts.killAfterOutputBytes ?? max * 64;
    const started = Date.now();
    const child = this.spawn(argv, { env: opts.env, cwd: opts.cwd });
    return new Promise((resolve, reject) => {
      const bufs = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
      const kept = { stdout: 0, stderr: 0 };
      const total = { stdout: 0, stderr: 0 };
      let killed: ExecResult['killed'] = null;
      const kill = (why: NonNullable<ExecResult['killed']>) => {
        if (!killed) killed = why;
        killGroup(child);
      };
      const hard = setTimeout(() => kill('timeout'), opts.timeoutMs);
      let idle: NodeJS.Timeout | undefined;
      const armIdle = () => {
        if (!opts.idleTimeoutMs) return;
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => kill('idle'), opts.idleTimeoutMs);
      };
      armIdle();
      for (const name of ['stdout', 'stderr'] as const) {
        child[name]!.on('data', (chunk: Buffer) => {
          armIdle();
          total[name] += chunk.length;
          const room = max - kept[name];
          if (room > 0) {
            const part = chunk.subarray(0, room);
            bufs[name].push(part);
            kept[name] += part.length;
          }
          if (total[name] > killAt) kill('output');
        });
      }
      if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
      else child.stdin!.end();
      child.stdin!.on('error', () => undefined);
      child.on('error', (e) => {
        clearTimeout(hard);
        if (idle) clearTimeout(idle);
        reject(new SandboxError(`could not start bwrap: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(hard);
        if (idle) clearTimeout(idle);
        resolve({
          exitCode: code,
          signal,
          stdout: Buffer.concat(bufs.stdout).toString('utf8'),
          stderr: Buffer.concat(bufs.stderr).toString('utf8'),
          droppedBytes: { stdout: total.stdout - kept.stdout, stderr: total.stderr - kept.stderr },
          killed,
          durationMs: Date.now() - started,
        });
      });
    });
  }

  /** Kill everything still running and delete the episode's folder. Safe to call twice. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    const waits = [...this.live].map(
      (c) =>
        new Promise<void>((res) => {
          if (c.exitCode !== null || c.signalCode !== null) return res();
          c.once('exit', () => res());
          killGroup(c);
          setTimeout(res, 2000).unref();
        }),
    );
    await Promise.all(waits);
    // A bwrap killed in its first milliseconds, before --die-with-parent is armed, can leave its child running,
    // reparented outside our process group. Everything inside runs as this sandbox's own uid, so sweep that uid.
    // Those children still run as root (not yet the sandbox's uid) and carry this sandbox's marker: sweep both.
    sweepSandbox(this.uid, this.id);
    await fs.promises.rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Environment variable naming the sandbox in each of its bwrap processes' own environment. */
const SANDBOX_MARKER = 'DEBUGRL_SANDBOX';

/** SIGKILL every process running as the sandbox's uid (nothing else runs as it), and every process whose environment carries its marker. */
function sweepSandbox(uid: number | null, id: string): number {
  let killed = 0;
  const marker = Buffer.from(`${SANDBOX_MARKER}=${id}\0`);
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const m = /^Uid:\s+(\d+)/m.exec(status);
    let match = uid !== null && m !== null && Number(m[1]) === uid;
    if (!match && Number(pid) !== process.pid) {
      try {
        match = fs.readFileSync(`/proc/${pid}/environ`).includes(marker);
      } catch {
        /* exited, or not ours to read */
      }
    }
    if (match) {
      try {
        process.kill(Number(pid), 'SIGKILL');
        killed++;
      } catch {
        /* already gone */
      }
    }
  }
  return killed;
}

/** SIGKILL the bwrap process group; the sandbox's pid namespace dies with it. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export function sandboxesRoot(env: HarnessEnv): string {
  return path.join(env.dataDir, 'sandboxes');
}

/** The sandbox's whole environment: nothing leaks in from the host's. */
function sandboxEnv(python: string): Record<string, string> {
  const venvBin = path.dirname(python);
  return {
    PATH: `${venvBin}:/usr/local/bin:/usr/bin:/bin`,
    HOME: '/tmp',
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    PYTHONHASHSEED: '0',
  };
}

/** Top-level folders of the host that are not bound into the sandbox at all. */
const NOT_BOUND = new Set(['proc', 'dev', 'tmp', 'sys', 'lost+found', 'workspace']);
let rootCache: string[] | null = null;

/** The sandbox's root is a fresh tmpfs (so /workspace can be created) holding read-only binds of each top-level
 * entry of the host root; `--remount-ro /` then makes the root itself read-only. */
function rootMounts(): string[] {
  if (rootCache) return rootCache;
  const out: string[] = [];
  for (const e of fs.readdirSync('/', { withFileTypes: true })) {
    if (NOT_BOUND.has(e.name)) continue;
    const p = `/${e.name}`;
    if (e.isSymbolicLink()) out.push('--symlink', fs.readlinkSync(p), p);
    else if (e.isDirectory()) out.push('--ro-bind', p, p);
  }
  rootCache = out;
  return out;
}

let mountsCache: { key: string; mounts: string[][] } | null = null;

/**
 * tmpfs over everything that must not be visible, then read-only binds of what the sandbox still needs from
 * under those masks: the venv, the interpreter it links to, and the native package (the debugger bridge).
 */
function maskedMounts(env: HarnessEnv, extraHide: string[]): string[][] {
  const key = JSON.stringify([env.python, env.dataDir, env.tasksDir, extraHide]);
  if (mountsCache?.key === key) return mountsCache.mounts;
  const base = [REPO_ROOT, env.dataDir, env.tasksDir].map((p) => path.resolve(p));
  // A hidden path under a folder masked anyway needs no mount of its own, and its mount point (a task's folder,
  // named by its id) would show in /proc/self/mountinfo inside.
  const extra = extraHide.map((p) => path.resolve(p)).filter((p) => !base.some((b) => p === b || p.startsWith(b + path.sep)));
  const mask = new Set<string>([...base, ...extra]);
  const venv = path.dirname(path.dirname(path.resolve(env.python)));
  const interpreterPrefix = path.dirname(path.dirname(fs.realpathSync(env.python)));
  // The interpreter may live under a folder others cannot enter (pyenv under /root): mask that folder and bind the
  // interpreter's prefix back, so the unprivileged sandbox uid can run it without seeing the rest of /root.
  const closed = firstClosedAncestor(interpreterPrefix);
  if (closed) mask.add(closed);
  const keep = [venv, interpreterPrefix, path.join(REPO_ROOT, 'native', 'debugrl_native')];
  const mounts: string[][] = [];
  // Shallow masks first so deeper binds and masks land on top of them.
  for (const m of [...mask].filter((p) => p !== '/' && fs.existsSync(p)).sort((a, b) => a.length - b.length)) mounts.push(['--tmpfs', m]);
  for (const k of keep) {
    const under = [...mask].filter((m) => k.startsWith(m + path.sep)).sort((a, b) => b.length - a.length)[0];
    if (!under || !fs.existsSync(k)) continue;
    // bwrap would create the folders between the mask and the bind as 0700 root; create them 0755 ourselves.
    const between = path.relative(under, path.dirname(k)).split(path.sep).filter(Boolean);
    let cur = under;
    for (const part of between) {
      cur = path.join(cur, part);
      mounts.push(['--perms', '0755', '--dir', cur]);
    }
    mounts.push(['--ro-bind', k, k]);
  }
  mountsCache = { key, mounts };
  return mounts;
}

function firstClosedAncestor(p: string): string | null {
  const parts = p.split(path.sep).filter(Boolean);
  let cur = '';
  for (const part of parts) {
    cur += path.sep + part;
    const st = fs.statSync(cur, { throwIfNoEntry: false });
    if (st && (st.mode & 0o001) === 0) return cur;
  }
  return null;
}

async function chownTree(dir: string, uid: number): Promise<void> {
  await fs.promises.lchown(dir, uid, uid);
  for (const e of await fs.promises.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, uid);
    else await fs.promises.lchown(p, uid, uid);
  }
}

/** True when bwrap can start a sandbox on this machine (used to give a clear error early). */
export function bwrapAvailable(): boolean {
  const r = spawnSync('bwrap', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}
