/**
 * `--model <dir>`: a local transformers checkpoint directory for the learner (and the server that samples from it).
 * Its architecture is whatever its config.json says, read by the learner (native/…/learner/families.py); this checks
 * it before anything starts, so a wrong directory fails in a second with its cause instead of in the first step.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from '../../common/config';

export interface CheckpointFacts {
  family: string;
  architecture: string;
  vocab_size: number;
}

/** The checkpoint's family, or an Error naming the cause (no config.json, an unsupported architecture, no tokenizer,
 * no weights). */
export function checkModelDir(python: string, dir: string): CheckpointFacts {
  if (!path.isAbsolute(dir)) throw new Error(`model directory ${dir}: give an absolute path (the workers do not share your working directory)`);
  const r = spawnSync(python, ['-m', 'debugrl_native.learner.families', dir], { cwd: path.join(REPO_ROOT, 'native'), encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw new Error(`model directory ${dir}: could not run the check (${r.error.message})`);
  if (r.status !== 0) throw new Error((r.stderr || `the check exited with ${r.status}`).trim().split('\n').at(-1)!);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as CheckpointFacts;
}
