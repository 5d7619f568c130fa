/**
 * File operations the harness does on the model's behalf in a sandbox folder it shares with the sandbox's processes
 * (the workspace, the sandbox's /tmp). The harness runs as root on the host, so it must never follow a link the
 * model planted: a dangling `esc.py -> /host/dir/new.txt` once let `edit_file` create a host file as root.
 *
 * Every path is walked one component at a time from an fd of the root folder, each component opened relative to
 * its parent's fd (through `/proc/self/fd/<fd>/<name>`, Node's stand-in for openat) with O_NOFOLLOW, so the kernel
 * refuses a component that is (or was swapped into) a symlink: there is no check-then-use race. Symlinks inside the
 * folder are followed by the harness itself, as the sandbox would see them: a relative target resolves from the
 * link's folder, an absolute one only when it lies under the sandbox's view of the root (`/workspace/…`); anything
 * leaving the root is refused. Files are opened O_NONBLOCK and checked with fstat, so a FIFO, a socket or a device
 * is refused instead of blocking the event loop.
 *
 * Errors are WorkspaceFsError with a message in the model's terms (its own path, never the host path).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const { O_RDONLY, O_RDWR, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = fs.constants;

/** Symlinks followed in one resolution before ELOOP (the kernel's own limit). */
const MAX_LINK_HOPS = 40;
/** Longest path text shown back in an error. */
const SHOWN_PATH_CHARS = 200;

export class WorkspaceFsError extends Error {
  constructor(
    message: string,
    readonly code: 'outside' | 'missing' | 'not_file' | 'not_dir' | 'too_big' | 'loop' | 'name_too_long' | 'exists' | 'io',
  ) {
    super(message);
  }
}

/** A model-given path as the error messages show it: bounded, one line. */
export function shownPath(p: string): string {
  const flat = p.replace(/[\r\n\t]/g, ' ');
  return flat.length > SHOWN_PATH_CHARS ? `${flat.slice(0, SHOWN_PATH_CHARS)}…` : flat;
}

interface Located {
  /** fd of the folder holding the final component (owned by the caller: close it). */
  dirFd: number;
  name: string;
  /** Path of the final component relative to the root, '/'-joined. */
  rel: string;
  /** lstat of the final component, or null when it does not exist. */
  stat: fs.Stats | null;
}

export class WorkspaceFs {
  constructor(
    /** The host folder (a sandbox's workspace/ or tmp/). */
    readonly hostRoot: string,
    /** How the sandbox's processes see the root: model paths under it are accepted as absolute paths. */
    readonly shownRoot: string,
    /** Files and folders created here are given to this uid (the sandbox's), or left as they are when null. */
    private readonly uid: number | null,
    /** false: a symlink anywhere on a path is an error (the grader counts a linked source file as deleted). */
    private readonly followLinks = true,
  ) {}

  /** The root-relative components of a model path, or null when it names something outside the root. */
  parts(p: string): string[] | null {
    let rel = p;
    if (p === this.shownRoot) rel = '';
    else if (p.startsWith(this.shownRoot + '/')) rel = p.slice(this.shownRoot.length + 1);
    else if (p.startsWith('/')) return null;
    const out: string[] = [];
    for (const part of rel.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (!out.length) return null;
        out.pop();
      } else out.push(part);
    }
    return out;
  }

  /** Root-relative path of a model path ('' for the root), resolving symlinks as the sandbox would; null outside. */
  relative(p: string): string | null {
    try {
      const loc = this.locate(p, { followFinal: true });
      fs.closeSync(loc.dirFd);
      return loc.rel;
    } catch (e) {
      if (e instanceof WorkspaceFsError && e.code !== 'outside') return this.parts(p)?.join('/') ?? null;
      return null;
    }
  }

  /** lstat-like facts of what a model path names (after following links inside the root), or null if missing. */
  stat(p: string): { rel: string; kind: 'file' | 'dir' | 'other'; size: number } | null {
    let loc: Located;
    try {
      loc = this.locate(p, { followFinal: true });
    } catch (e) {
      if (e instanceof WorkspaceFsError && e.code === 'missing') return null; // a folder on the way is missing
      throw e;
    }
    try {
      if (!loc.stat) return null;
      const kind = loc.stat.isFile() ? 'file' : loc.stat.isDirectory() ? 'dir' : 'other';
      return { rel: loc.rel, kind, size: loc.stat.size };
    } finally {
      fs.closeSync(loc.dirFd);
    }
  }

  /** The contents of a regular file, at most `maxBytes`. */
  readFile(p: string, maxBytes: number): { rel: string; data: Buffer } {
    const loc = this.locate(p, { followFinal: true });
    try {
      if (!loc.stat) throw new WorkspaceFsError(`no such file: ${shownPath(p)}`, 'missing');
      const fd = this.openIn(loc, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, p);
      try {
        const st = fs.fstatSync(fd);
        checkRegular(st, p);
        if (st.size > maxBytes) throw new WorkspaceFsError(`${shownPath(p)} is ${st.size} bytes`, 'too_big');
        return { rel: loc.rel, data: readAll(fd, st.size) };
      } finally {
        fs.closeSync(fd);
      }
    } finally {
      fs.closeSync(loc.dirFd);
    }
  }

  /** Read a regular file and let `change` compute its new text from the old; written back through the same fd. */
  updateFile(p: string, maxBytes: number, change: (rel: string, text: string) => string | null): void {
    const loc = this.locate(p, { followFinal: true });
    try {
      if (!loc.stat) throw new WorkspaceFsError(`no such file: ${shownPath(p)}`, 'missing');
      const fd = this.openIn(loc, O_RDWR | O_NOFOLLOW | O_NONBLOCK, p);
      try {
        const st = fs.fstatSync(fd);
        checkRegular(st, p);
        if (st.size > maxBytes) throw new WorkspaceFsError(`${shownPath(p)} is ${st.size} bytes`, 'too_big');
        const updated = change(loc.rel, readAll(fd, st.size).toString('utf8'));
        if (updated === null) return;
        const buf = Buffer.from(updated, 'utf8');
        fs.ftruncateSync(fd, 0);
        writeAll(fd, buf);
      } finally {
        fs.closeSync(fd);
      }
    } finally {
      fs.closeSync(loc.dirFd);
    }
  }

  /** Create a new file (never replacing anything, not even a dangling link), creating missing folders above it. */
  createFile(p: string, text: string): { rel: string } {
    const loc = this.locate(p, { followFinal: false, makeDirs: true });
    try {
      if (loc.stat) {
        const what = loc.stat.isSymbolicLink() ? 'a symbolic link' : loc.stat.isDirectory() ? 'a directory' : 'an existing file';
        throw new WorkspaceFsError(`${shownPath(p)} is ${what}`, 'exists');
      }
      const fd = this.openIn(loc, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, p, 0o644);
      try {
        if (this.uid !== null) fs.fchownSync(fd, this.uid, this.uid);
        writeAll(fd, Buffer.from(text, 'utf8'));
      } finally {
        fs.closeSync(fd);
      }
      return { rel: loc.rel };
    } finally {
      fs.closeSync(loc.dirFd);
    }
  }

  /** Names in a folder (default the root), sorted; [] when it is not a folder. */
  list(p = ''): string[] {
    let fd: number | null = null;
    try {
      const loc = this.locate(p === '' ? this.shownRoot : p, { followFinal: true });
      if (loc.name === '') fd = loc.dirFd;
      else {
        try {
          fd = this.openIn(loc, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, p);
        } finally {
          fs.closeSync(loc.dirFd);
        }
      }
      return fs.readdirSync(fdPath(fd)).sort();
    } catch {
      return [];
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
  }

  /**
   * Walk `p` from the root. Returns the fd of the folder holding the final component (the root itself, with
   * name '', when `p` names the root). Throws WorkspaceFsError for anything outside the root or unreadable.
   */
  private locate(p: string, opts: { followFinal: boolean; makeDirs?: boolean }): Located {
    const start = this.parts(p);
    if (!start) throw new WorkspaceFsError(`${shownPath(p)} is outside the workspace (${this.shownRoot})`, 'outside');
    const rootFd = openOrThrow(this.hostRoot, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, p);
    const fds = [rootFd]; // fds[i] is the folder cur[0..i)
    const cur: string[] = [];
    const todo = [...start];
    let hops = 0;
    const closeAbove = (n: number) => {
      while (fds.length > n) fs.closeSync(fds.pop()!);
    };
    try {
      if (!todo.length) {
        return { dirFd: fds.pop()!, name: '', rel: '', stat: fs.fstatSync(rootFd) };
      }
      while (todo.length) {
        const name = todo.shift()!;
        if (name === '' || name === '.') continue;
        if (name === '..') {
          if (!cur.length) throw new WorkspaceFsError(`${shownPath(p)} leads outside the workspace (${this.shownRoot})`, 'outside');
          cur.pop();
          closeAbove(cur.length + 1);
          continue;
        }
        if (Buffer.byteLength(name) > 255) throw new WorkspaceFsError(`${shownPath(p)}: a file name is too long (at most 255 bytes)`, 'name_too_long');
        const dirFd = fds[fds.length - 1]!;
        const here = `${fdPath(dirFd)}/${name}`;
        const last = todo.length === 0;
        let st = lstatOrNull(here, p);
        if (st?.isSymbolicLink() && (!last || opts.followFinal)) {
          if (!this.followLinks) throw new WorkspaceFsError(`${shownPath(p)}: ${[...cur, name].join('/')} is a symbolic link`, 'loop');
          if (++hops > MAX_LINK_HOPS) throw new WorkspaceFsError(`${shownPath(p)}: too many levels of symbolic links`, 'loop');
          const target = readlinkOrThrow(here, p);
          if (target.startsWith('/')) {
            const inside = this.parts(target);
            if (!inside) throw new WorkspaceFsError(`${shownPath(p)} is a symbolic link to a path outside the workspace (${this.shownRoot})`, 'outside');
            cur.length = 0;
            closeAbove(1);
            todo.unshift(...inside);
          } else {
            todo.unshift(...target.split('/').filter((x) => x !== '' && x !== '.'));
          }
          continue;
        }
        if (last) return { dirFd: fds.pop()!, name, rel: [...cur, name].join('/'), stat: st };
        if (!st) {
          if (!opts.makeDirs) throw new WorkspaceFsError(`no such file or directory: ${shownPath(p)}`, 'missing');
          try {
            fs.mkdirSync(here, 0o755);
          } catch (e) {
            throw fsError(e, p);
          }
          st = lstatOrNull(here, p);
          const made = openOrThrow(here, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, p);
          if (this.uid !== null) fs.fchownSync(made, this.uid, this.uid);
          fds.push(made);
          cur.push(name);
          continue;
        }
        if (!st.isDirectory()) throw new WorkspaceFsError(`${shownPath(p)}: ${[...cur, name].join('/')} is not a directory`, 'not_dir');
        fds.push(openOrThrow(here, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, p));
        cur.push(name);
      }
      // The path ended in '..' (or a link to a folder): it names a folder already open. Re-express it as (its
      // parent, its name), the shape every caller expects; the root stays (root, '').
      if (!cur.length) return { dirFd: fds.pop()!, name: '', rel: '', stat: fs.fstatSync(rootFd) };
      const stat = fs.fstatSync(fds[fds.length - 1]!);
      closeAbove(fds.length - 1);
      return { dirFd: fds.pop()!, name: cur[cur.length - 1]!, rel: cur.join('/'), stat };
    } finally {
      // On success exactly one fd (the holder) was popped off and handed out; close the rest.
      closeAbove(0);
    }
  }

  private openIn(loc: Located, flags: number, p: string, mode?: number): number {
    if (loc.name === '') throw new WorkspaceFsError(`${shownPath(p)} is a directory`, 'not_file');
    return openOrThrow(`${fdPath(loc.dirFd)}/${loc.name}`, flags, p, mode);
  }
}

function fdPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}

function checkRegular(st: fs.Stats, p: string): void {
  if (st.isDirectory()) throw new WorkspaceFsError(`${shownPath(p)} is a directory`, 'not_file');
  if (!st.isFile()) throw new WorkspaceFsError(`${shownPath(p)} is not a regular file (a FIFO, socket or device)`, 'not_file');
}

function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.alloc(size);
  let off = 0;
  while (off < size) {
    const n = fs.readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off, off);
}

function openOrThrow(host: string, flags: number, p: string, mode?: number): number {
  try {
    return fs.openSync(host, flags, mode);
  } catch (e) {
    throw fsError(e, p);
  }
}

function lstatOrNull(host: string, p: string): fs.Stats | null {
  try {
    return fs.lstatSync(host, { throwIfNoEntry: false }) ?? null;
  } catch (e) {
    throw fsError(e, p);
  }
}

function readlinkOrThrow(host: string, p: string): string {
  try {
    return fs.readlinkSync(host);
  } catch (e) {
    throw fsError(e, p);
  }
}

/** A Node fs error in the model's terms: its path, the errno's meaning, never the host path. */
function fsError(e: unknown, p: string): WorkspaceFsError {
  const code = (e as NodeJS.ErrnoException).code;
  const shown = shownPath(p);
  switch (code) {
    case 'ENOENT':
      return new WorkspaceFsError(`no such file or directory: ${shown}`, 'missing');
    case 'ENOTDIR':
      return new WorkspaceFsError(`${shown}: a component of the path is not a directory`, 'not_dir');
    case 'ELOOP':
      return new WorkspaceFsError(`${shown}: a symbolic link where a file or folder was expected (or a link loop)`, 'loop');
    case 'ENAMETOOLONG':
      return new WorkspaceFsError(`${shown}: file name too long`, 'name_too_long');
    case 'EISDIR':
      return new WorkspaceFsError(`${shown} is a directory`, 'not_file');
    case 'ENXIO':
    case 'ENODEV':
    case 'EOPNOTSUPP':
      return new WorkspaceFsError(`${shown} is not a regular file (a FIFO, socket or device)`, 'not_file');
    case 'EEXIST':
      return new WorkspaceFsError(`${shown} already exists`, 'exists');
    case 'EFBIG':
    case 'ENOSPC':
    case 'EDQUOT':
      return new WorkspaceFsError(`${shown}: no room to write (${code})`, 'too_big');
    default:
      return new WorkspaceFsError(`${shown}: cannot access (${code ?? 'error'})`, 'io');
  }
}

/** Join a root-relative path for display under the sandbox's view of the root. */
export function shownUnder(root: string, rel: string): string {
  return rel ? path.posix.join(root, rel) : root;
}
