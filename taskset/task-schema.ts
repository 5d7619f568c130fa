import { z } from 'zod';

/** The kinds of bug in the corpus. The first five are the seed's "runtime inspection helps" families; `logic` holds
 * plain reasoning errors where reading the code beats stepping through it (debugger preference `avoid`). */
export const TaskCategory = z.enum(['shared_state', 'aliasing', 'serialization', 'concurrency', 'lifecycle', 'logic']);
export type TaskCategory = z.infer<typeof TaskCategory>;

export const DebuggerPreference = z.enum(['recommended', 'optional', 'avoid']);
/** The seed's three splits (130/40/30). */
export const SEED_SPLITS = ['train', 'validation', 'test'] as const;
/** `starter`: small tasks outside the seed's splits, for a 135M model on a CPU to learn on (issue 23's learnable tier).
 * They train like `train` tasks (the oracle teacher runs on them), and `tasks stats` shows them apart. */
export const Split = z.enum([...SEED_SPLITS, 'starter']);
export type Split = z.infer<typeof Split>;

const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a relative path inside workspace/');

/** A pytest node id relative to the workspace root, e.g. `test_cache.py::test_eviction_keeps_newest`. */
const testId = z.string().regex(/^[\w./-]+\.py::[\w[\]-]+(::[\w[\]-]+)*$/, 'must be a pytest node id like test_x.py::test_y');

/** task.json: one per folder under tasks/<id>/. See tasks/FORMAT.md. */
export const TaskSpec = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'lower_snake_case, 3-64 chars'),
    title: z.string().min(5).max(120),
    category: TaskCategory,
    debugger: DebuggerPreference,
    split: Split,
    /** Files the grader takes from an episode; everything else comes from the pristine workspace. */
    source_files: z.array(relativePath).min(1),
    /** Visible tests that fail on the buggy source and pass with the fix. */
    failing_tests: z.array(testId).min(1),
    difficulty: z.enum(['easy', 'medium', 'hard']),
    /** For people only: never shown to the model, never copied into a sandbox. */
    bug: z.string().min(10).max(300),
    /** True when the fix must change more than one place (several lines far apart, or several files). */
    multi_site_fix: z.boolean().default(false),
    /** True when patching the symptom where the failing assertion points leaves other visible tests failing, and only
     * the root-cause fix passes them all. The seed added such tasks after most of its validation failures turned out
     * to be wrong fixes (50 of 88). Optional; older task.json files leave it out. */
    obvious_fix_wrong: z.boolean().default(false),
    time_limits: z.object({
      /** Wall-clock limit for one full run of the visible tests. */
      test_seconds: z.number().int().min(1).max(120),
    }),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.category === 'logic' && t.debugger !== 'avoid') {
      ctx.addIssue({ code: 'custom', path: ['debugger'], message: 'logic tasks are the "avoid" tasks' });
    }
    if (new Set(t.source_files).size !== t.source_files.length) {
      ctx.addIssue({ code: 'custom', path: ['source_files'], message: 'duplicate entries' });
    }
  });
export type TaskSpec = z.infer<typeof TaskSpec>;
