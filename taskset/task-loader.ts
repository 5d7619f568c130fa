import * as fs from 'node:fs';
import * as path from 'node:path';
import { TaskSpec } from './task-schema';

/** A task folder on disk with its validated task.json. `fixDir` is held back: never copy it into a sandbox. */
export interface LoadedTask {
  spec: TaskSpec;
  dir: string;
  workspaceDir: string;
  fixDir: string;
}

export class TaskFormatError extends Error {}

export function loadTask(dir: string): LoadedTask {
  const abs = path.resolve(dir);
  const specPath = path.join(abs, 'task.json');
  if (!fs.existsSync(specPath)) throw new TaskFormatError(`${abs}: no task.json (is this a task folder?)`);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  } catch (e) {
    throw new TaskFormatError(`${specPath}: not valid JSON: ${(e as Error).message}`);
  }
  const parsed = TaskSpec.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new TaskFormatError(`${specPath}: ${why}`);
  }
  const spec = parsed.data;
  if (path.basename(abs) !== spec.id) throw new TaskFormatError(`${specPath}: id "${spec.id}" must equal the folder name "${path.basename(abs)}"`);
  const workspaceDir = path.join(abs, 'workspace');
  const fixDir = path.join(abs, 'fix');
  for (const d of [workspaceDir, fixDir]) {
    if (!fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) throw new TaskFormatError(`${abs}: missing folder ${path.basename(d)}/`);
  }
  for (const f of spec.source_files) {
    if (!fs.existsSync(path.join(workspaceDir, f))) throw new TaskFormatError(`${specPath}: source file ${f} is not in workspace/`);
  }
  return { spec, dir: abs, workspaceDir, fixDir };
}

/** Task folders under `root` (any folder with a task.json), sorted by name. */
export function listTaskDirs(root: string): string[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'task.json')))
    .map((e) => path.join(root, e.name))
    .sort();
}

/** Resolve `--task <id or dir>`: a path to a folder, or an id under the tasks root. */
export function resolveTaskDir(idOrDir: string, root: string): string {
  if (fs.existsSync(path.join(idOrDir, 'task.json'))) return path.resolve(idOrDir);
  const byId = path.join(root, idOrDir);
  if (fs.existsSync(path.join(byId, 'task.json'))) return byId;
  throw new TaskFormatError(`no task "${idOrDir}": not a folder with task.json, and not an id under ${root}`);
}
