/** Shared by integration suites: they talk to the real services started by infra/up. */
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
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

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** Bundling the workflows takes seconds; do it once per test file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: path.resolve(__dirname, '../../workflows/index.ts'), logger: new DefaultLogger('WARN') });
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
