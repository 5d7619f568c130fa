/** Shared by integration suites: they talk to the real services started by infra/up. */
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../common/config';
import { temporalConnectionOptions } from '../../common/connections';

export const config = loadConfig();

let installed = false;
/** Keep the worker quiet in test output except for real problems. */
export function quietRuntime(): void {
  if (installed) return;
  installed = true;
  Runtime.install({ logger: new DefaultLogger('ERROR') });
}

const ROOT = path.resolve(__dirname, '../..');

/** A hash of everything the workflow bundle is built from: workflows/ and common/ (workflows import only types from
 * elsewhere, which the bundler drops; lint enforces it) and the installed packages. */
function bundleKey(): string {
  const hash = createHash('sha256');
  for (const dir of ['workflows', 'common']) {
    for (const file of (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).sort()) {
      const full = path.join(ROOT, dir, file);
      if (fs.statSync(full).isFile()) hash.update(`${dir}/${file}\0`).update(fs.readFileSync(full)).update('\0');
    }
  }
  hash.update(fs.readFileSync(path.join(ROOT, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

let bundle: Promise<WorkflowBundle> | undefined;
/** Bundling the workflows takes about 8 s of CPU, and about 20 suites need it. The bundle is kept in the temp folder
 * under a hash of its sources, so it is built once per change of the sources rather than once per test file. */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= (async () => {
    const cached = path.join(os.tmpdir(), `debugrl-workflow-bundle-${bundleKey()}.js`);
    if (fs.existsSync(cached)) return { code: fs.readFileSync(cached, 'utf8') };
    const built = await bundleWorkflowCode({ workflowsPath: path.join(ROOT, 'workflows/index.ts'), logger: new DefaultLogger('WARN') });
    const tmp = `${cached}.${process.pid}`;
    fs.writeFileSync(tmp, built.code);
    fs.renameSync(tmp, cached); // atomic: a suite in another jest process reads a whole bundle or none
    return { code: built.code };
  })();
  return bundle;
}

export async function temporalClient(): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  return { client: new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE }), connection };
}

export async function workerConnection(): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}

export function uniqueQueue(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}`;
}
