/**
 * What the harness needs from the host, injected by its entrypoint (an activity worker, a CLI command, a test) so
 * that nothing under harness/ reads the process's configuration itself: the library stays a library, and a test
 * can point it elsewhere without touching process.env. `harnessEnv` builds it from the one owner of settings,
 * common/config.ts, and validates it there, at the boundary.
 */
import { z } from 'zod';
import type { Config } from '../common/config';

export const HarnessEnv = z
  .object({
    /** The venv's interpreter (DEBUGRL_PYTHON): it runs pytest and the debugger bridge inside every sandbox, and its
     * venv is the one folder of the host's Python that the sandbox binds back. */
    python: z.string().min(1),
    /** DEBUGRL_DATA_DIR: sandboxes are created under <dataDir>/sandboxes; masked inside every sandbox, so no episode
     * sees another's. */
    dataDir: z.string().min(1),
    /** DEBUGRL_TASKS_DIR: masked inside every sandbox (the held-back fixes live there). */
    tasksDir: z.string().min(1),
  })
  .strict();
export type HarnessEnv = z.infer<typeof HarnessEnv>;

/** The harness's settings from the loaded configuration. */
export function harnessEnv(config: Pick<Config, 'DEBUGRL_PYTHON' | 'DEBUGRL_DATA_DIR' | 'DEBUGRL_TASKS_DIR'>): HarnessEnv {
  return HarnessEnv.parse({ python: config.DEBUGRL_PYTHON, dataDir: config.DEBUGRL_DATA_DIR, tasksDir: config.DEBUGRL_TASKS_DIR });
}
