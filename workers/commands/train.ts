/**
 * `npx debugrl train [options]`: start a TrainingRunWorkflow (GRPO on the embedded server's adapters) and follow it with
 * a live progress line read from its `progress` query; `--resume <run>` continues a stopped or crashed run from its
 * last committed step; `train status <run>` prints where a run stands (live if it runs, else from PostgreSQL). The
 * same run can be started with
 *   temporal workflow start --type TrainingRunWorkflow --task-queue debugrl --input '{"steps":10,"groupSize":12}'
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import type { Command } from 'commander';
import { Pool } from 'pg';
import { describeZodError } from '../../common/boundary';
import { loadConfig, REPO_ROOT, type Config } from '../../common/config';
import { pgConnectionString, temporalConnectionOptions } from '../../common/connections';
import { HARDWARE_PROFILE_NAMES, type HardwareProfileName } from '../../common/hardware-profiles';
import { runSettings, TrainingRunInput, type StepPoint, type StepResult, type TrainingProgress } from '../../common/training';
import { isZeroSignal, ZERO_SIGNAL_DROPPED } from '../../common/zero-signal';
import { checkModelDir, checkTokenizerAgreement, fetchServingFacts, learnerModelDir, probeConversation, publishUrl } from '../../activities/learner';
import { adapterRank, checkRlInputs, resolveInitAdapter, RlInputError } from '../../activities/rl-init';
import { action, choiceOption, describeError, intOption, workflowResult } from '../cli-kit';
import { formatMismatch, mismatchOf } from '../../common/mismatch';
import { formatTokenChain, sumTokenChains } from '../../common/token-chain';
import { Split } from '../../taskset/task-schema';

interface TrainOptions {
  split?: string;
  tasks?: string;
  maxTasks?: number;
  groupSize?: number;
  groupsPerStep?: number;
  groupSizeMax?: number;
  profile?: HardwareProfileName;
  steps?: number;
  poolSize?: number;
  maxTurns?: number;
  maxNewTokens?: number;
  maxContext?: number;
  tools?: string;
  learnerModel?: string;
  model?: string;
  learnerDtype?: string;
  lr?: string;
  loraRank?: number;
  learnerMaxTokens?: number;
  offpolicyMode?: string;
  initAdapter?: string;
  bcCorpus?: string;
  bcWeight?: string;
  bcExamples?: number;
  id?: string;
  resume?: string;
  detach?: boolean;
  /** Commander's name for `--keep-zero-signal-groups`: false when given. */
  dropZeroSignalGroups?: boolean;
  attestEvery?: number;
  breakerGroups?: number;
  breakerProbeSeconds?: number;
  mismatchAlarmK3?: string;
  mismatchAlarmSteps?: number;
}

export function trainingInputFrom(o: TrainOptions): Record<string, unknown> {
  const limits = {
    ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
    ...(o.maxNewTokens !== undefined ? { maxNewTokens: o.maxNewTokens } : {}),
    ...(o.maxContext !== undefined ? { maxContextTokens: o.maxContext } : {}),
  };
  const learner = {
    ...(o.learnerModel ? { model: o.learnerModel } : {}),
    ...(o.model ? { modelDir: path.resolve(o.model) } : {}),
    ...(o.learnerDtype ? { dtype: o.learnerDtype } : {}),
    ...(o.lr ? { lr: Number(o.lr) } : {}),
    ...(o.loraRank ? { loraRank: o.loraRank } : {}),
    ...(o.learnerMaxTokens ? { maxTokens: o.learnerMaxTokens } : {}),
    ...(o.offpolicyMode ? { offpolicyMode: o.offpolicyMode } : {}),
  };
  return {
    ...(o.id ? { runId: o.id } : {}),
    ...(o.split ? { split: o.split } : {}),
    ...(o.tasks ? { taskIds: o.tasks.split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(o.maxTasks ? { maxTasks: o.maxTasks } : {}),
    ...(o.groupSize ? { groupSize: o.groupSize } : {}),
    ...(o.groupsPerStep ? { groupsPerStep: o.groupsPerStep } : {}),
    // dynamic group size (common/group-size.ts): --group-size is then the smallest group
    ...(o.groupSizeMax ? { groupSizeRange: { max: o.groupSizeMax } } : {}),
    ...(o.profile ? { profile: o.profile } : {}),
    steps: o.steps,
    ...(o.poolSize ? { poolSize: o.poolSize } : {}),
    ...(o.tools ? { toolset: o.tools } : {}),
    ...(Object.keys(limits).length ? { limits } : {}),
    ...(Object.keys(learner).length ? { learner } : {}),
    ...(o.dropZeroSignalGroups === false ? { dropZeroSignalGroups: false } : {}),
    // a path (with a "/" or a leading ".") is made absolute here: the workers do not share this working directory
    ...(o.initAdapter ? { initAdapter: /[/\\]|^\./.test(o.initAdapter) ? path.resolve(o.initAdapter) : o.initAdapter } : {}),
    ...(o.bcCorpus ? { bcCorpus: path.resolve(o.bcCorpus) } : {}),
    ...(o.bcWeight !== undefined ? { bcWeight: Number(o.bcWeight) } : {}),
    ...(o.bcExamples !== undefined ? { bcExamples: o.bcExamples } : {}),
    ...(o.attestEvery !== undefined ? { attestEvery: o.attestEvery } : {}),
    ...(o.breakerGroups !== undefined ? { breakerGroups: o.breakerGroups } : {}),
    ...(o.breakerProbeSeconds !== undefined ? { breakerProbeSeconds: o.breakerProbeSeconds } : {}),
    ...(o.mismatchAlarmK3 !== undefined ? { mismatchAlarmK3: Number(o.mismatchAlarmK3) } : {}),
    ...(o.mismatchAlarmSteps !== undefined ? { mismatchAlarmSteps: o.mismatchAlarmSteps } : {}),
  };
}

export function formatTrainingProgress(p: TrainingProgress): string {
  const last = p.lastStep;
  const reward = last ? ` · reward ${last.meanReward.toFixed(3)} · pass ${(100 * last.passRate).toFixed(0)}%` : '';
  const z = p.zeroSignal;
  const zero = z?.groups
    ? ` · zero-signal ${z.zeroSignal}/${z.groups} groups (${(100 * z.share).toFixed(0)}%, ${z.dropped} dropped)${z.warning ? ` · WARNING ${z.warning}` : ''}`
    : '';
  const h = p.health;
  const republished = h?.republished ? ` · adapter re-published ${h.republished}x` : '';
  const paused = p.pause ? ` (${p.pause.reason}: ${p.pause.cause})` : '';
  return `step ${p.step}/${p.steps} · policy v${p.policyVersion} · ${p.running}/${p.poolSize} running · groups ${p.groupsOpen} open, ${p.groupsQueued} queued, ${p.groupsFailed} failed · ${p.episodesDone} episodes (${p.rolloutsPerSecond.toFixed(3)}/s) · stale ${p.staleGroupsRejected}${reward}${zero}${republished} · ${p.curriculum.phase} · ${p.phase}${paused}`;
}

/** What Temporal's describe() says of a run's workflow, with the memo run-health.ts writes. */
export interface RunDescription {
  /** Temporal's status name: RUNNING, COMPLETED, FAILED, TERMINATED, CANCELLED, TIMED_OUT, CONTINUED_AS_NEW. */
  status: string;
  memo: Record<string, unknown> | undefined;
  closeTime: Date | undefined;
}

/** The run's real state, from Temporal: running, paused (and why), or how it ended. A query answers only while a
 * worker runs the workflow; a terminated or failed run answers none, and its state must not read "running". */
export function formatRunState(d: RunDescription): string {
  const ended = d.closeTime ? ` at ${d.closeTime.toISOString()}` : '';
  switch (d.status) {
    case 'RUNNING': {
      const m = d.memo ?? {};
      if (m.trainingState === 'paused') return `state: paused (${String(m.pauseReason)}): ${String(m.pauseCause)}`;
      return 'state: running';
    }
    case 'COMPLETED':
      return `state: finished${ended}`;
    case 'TERMINATED':
      return `state: terminated${ended} (by hand or by the server; the run stopped where it was)`;
    case 'FAILED':
      return `state: failed${ended}`;
    case 'CANCELLED':
      return `state: cancelled${ended}`;
    case 'TIMED_OUT':
      return `state: timed out${ended}`;
    default:
      return `state: ${d.status.toLowerCase().replace(/_/g, ' ')}${ended}`;
  }
}

async function withClient<T>(config: Config, fn: (c: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  try {
    return await fn(new Client({ connection, namespace: config.DEBUGRL_TEMPORAL_NAMESPACE }));
  } finally {
    await connection.close();
  }
}

async function follow(client: Client, workflowId: string): Promise<number> {
  const handle = client.workflow.getHandle(workflowId);
  let finished = false;
  const done = workflowResult(handle).finally(() => (finished = true));
  done.catch(() => undefined);
  let last = 0;
  while (!finished) {
    await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 3000))]);
    if (finished) break;
    const p = await handle.query<TrainingProgress>('progress').catch(() => null);
    if (!p) continue;
    if (process.stdout.isTTY) process.stdout.write(`\r${formatTrainingProgress(p)}\x1b[K`);
    else if (Date.now() - last > 15_000) {
      console.log(formatTrainingProgress(p));
      last = Date.now();
    }
  }
  if (process.stdout.isTTY) process.stdout.write('\n');
  try {
    const r = (await done) as { runId: string; steps: number; version: number; policy?: string };
    console.log(`run ${r.runId}: ${r.steps} step(s), policy v${r.version} (served as ${r.policy ?? `embedded:policy-v${r.version}`})`);
    console.log(`training report: ${path.join(REPO_ROOT, 'reports', r.runId, 'training.html')} (and training.json)`);
    return 0;
  } catch (e) {
    console.error(`training run ${workflowId} failed\n${describeError(e instanceof WorkflowFailedError && e.cause ? e.cause : e)}`);
    return 1;
  }
}

async function start(o: TrainOptions): Promise<number> {
  const config = loadConfig();
  let raw: Record<string, unknown>;
  if (o.resume) {
    const pool = new Pool({ connectionString: pgConnectionString(config) });
    const row = await pool.query('select input from training_runs where run_id = $1', [o.resume]).finally(() => pool.end());
    if (!row.rowCount) {
      console.error(`debugrl train: no training run "${o.resume}" to resume`);
      return 2;
    }
    raw = { ...(row.rows[0].input as Record<string, unknown>), runId: o.resume };
  } else {
    if (o.steps === undefined) {
      console.error('debugrl train: --steps is required');
      return 2;
    }
    // The learner worker polls DEBUGRL_LEARNER_TASK_QUEUE: a run started here trains there.
    raw = { ...trainingInputFrom(o), learnerTaskQueue: config.DEBUGRL_LEARNER_TASK_QUEUE };
    // RL from an SFT adapter trains the adapter's own rank unless told otherwise (sft train's default is 16, train's 8)
    const rank = typeof raw.initAdapter === 'string' && !o.loraRank ? adapterRank(resolveInitAdapter(raw.initAdapter, config.DEBUGRL_DATA_DIR)) : null;
    if (rank) raw.learner = { ...(raw.learner as object | undefined), loraRank: rank };
  }
  const parsed = TrainingRunInput.safeParse(raw);
  if (!parsed.success) {
    console.error(`debugrl train: ${describeZodError(parsed.error)}`);
    return 2;
  }
  const runId = parsed.data.runId ?? `train-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`;
  const modelDir = parsed.data.learner.modelDir;
  if (modelDir) {
    try {
      checkModelDir(config.DEBUGRL_PYTHON, modelDir); // the learner reads its architecture; a bad directory ends here
    } catch (e) {
      console.error(`debugrl train: --model ${modelDir}: ${(e as Error).message}`);
      return 2;
    }
  }
  // Before any rollout: the learner's tokenizer (from its model directory) must agree with the server's.
  const learnerDir = learnerModelDir(parsed.data.learner, config.DEBUGRL_DATA_DIR);
  if (learnerDir && fs.existsSync(learnerDir)) {
    const facts = await fetchServingFacts(publishUrl(config), () => probeConversation(config.DEBUGRL_PYTHON));
    if (!facts) console.error(`debugrl train: the server at ${publishUrl(config)} reports no tokenizer facts; the learner checks again when it starts`);
    else {
      try {
        checkTokenizerAgreement(config.DEBUGRL_PYTHON, learnerDir, facts);
      } catch (e) {
        console.error(`debugrl train: ${(e as Error).message}`);
        return 2;
      }
    }
  }
  try {
    checkRlInputs(parsed.data, config.DEBUGRL_DATA_DIR, o.resume ? runId : null); // the run's first activity checks again
  } catch (e) {
    if (!(e instanceof RlInputError)) throw e;
    console.error(`debugrl train: ${e.message}`);
    return 2;
  }
  const workflowId = o.resume ? `${runId}.resume-${Date.now().toString(36)}` : runId;
  return withClient(config, async (client) => {
    await client.workflow.start('TrainingRunWorkflow', { taskQueue: config.DEBUGRL_TASK_QUEUE, workflowId, args: [{ ...raw, runId }] });
    console.log(`training run ${runId} started (workflow ${workflowId}); learner queue ${parsed.data.learnerTaskQueue}`);
    if (o.detach) return 0;
    return follow(client, workflowId);
  });
}

/** The step's off-policy mode and mismatch (common/mismatch.ts), or nothing for a step without them. */
function mismatchLine(metrics: StepResult['metrics']): string {
  const m = mismatchOf(metrics);
  return m ? formatMismatch(m) : '';
}

async function status(runId: string): Promise<number> {
  const config = loadConfig();
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  try {
    const run = await pool.query('select workflow_id, input from training_runs where run_id = $1', [runId]);
    if (!run.rowCount) {
      console.error(`debugrl train status: no training run "${runId}"`);
      return 2;
    }
    const { described, live } = await withClient(config, async (c) => {
      const handle = c.workflow.getHandle(run.rows[0].workflow_id);
      const d = await handle.describe().catch(() => null);
      const described: RunDescription | null = d ? { status: d.status.name, memo: d.memo, closeTime: d.closeTime } : null;
      // Only a running workflow answers the query; asking a closed one would wait for a worker that never comes.
      const live = described?.status === 'RUNNING' ? await handle.query<TrainingProgress | null>('progress').catch(() => null) : null;
      return { described, live };
    }).catch(() => ({ described: null, live: null }));
    console.log(described ? formatRunState(described) : `state: unknown (Temporal has no workflow ${run.rows[0].workflow_id}, or cannot be reached)`);
    if (live) console.log(formatTrainingProgress(live));
    const steps = (await pool.query('select result from training_steps where run_id = $1 order by step', [runId])).rows.map((r) => r.result as StepResult);
    const rows = (await pool.query('select consumed_step, rejected_reason, episodes from training_groups where run_id = $1', [runId])).rows as { consumed_step: string | null; rejected_reason: string | null; episodes: { reward: number }[] }[];
    const zero = rows.filter((g) => isZeroSignal(g.episodes.map((e) => e.reward))).length;
    const dropped = rows.filter((g) => g.rejected_reason === ZERO_SIGNAL_DROPPED).length;
    const share = rows.length ? ` (${((100 * zero) / rows.length).toFixed(0)}%)` : '';
    console.log(
      `run ${runId}: ${steps.length} committed step(s), policy v${steps.at(-1)?.versionAfter ?? 0}; groups sealed ${rows.length}, consumed ${rows.filter((g) => g.consumed_step).length}; zero-signal ${zero}${share}, of them dropped ${dropped}`,
    );
    const input = run.rows[0].input as { initAdapter?: string; bcCorpus?: string };
    if (input.initAdapter) console.log(`  from ${input.initAdapter} (version 0, and the KL reference)`);
    const cfg = TrainingRunInput.safeParse(input);
    if (input.bcCorpus && cfg.success) {
      const { bcExamples, bcWeight } = runSettings(cfg.data);
      console.log(`  BC replay of ${input.bcCorpus}: ${bcExamples} example(s) per step, weight ${bcWeight}`);
    }
    const points = new Map((await pool.query('select step, point from training_points where run_id = $1', [runId])).rows.map((r) => [r.step as number, r.point as StepPoint]));
    for (const s of steps) {
      const pt = points.get(s.step);
      const zero = pt?.zeroSignalDropped !== undefined ? ` · zero-signal ${pt.zeroSignalTrained ?? 0} trained, ${pt.zeroSignalDropped} dropped` : '';
      const kl = typeof s.metrics?.kl_mean === 'number' ? ` · kl ${s.metrics.kl_mean.toExponential(2)}` : '';
      const bc = typeof s.metrics?.loss_bc === 'number' && s.metrics.sft_examples_trained ? ` · bc loss ${s.metrics.loss_bc.toFixed(4)} (${s.metrics.sft_examples_trained} examples)` : '';
      console.log(`  step ${s.step}: v${s.versionBefore}->v${s.versionAfter} · ${s.trainedGroups.length} group(s) · reward ${s.meanReward.toFixed(3)} · pass ${(100 * s.passRate).toFixed(0)}% · stale ${s.rejectedGroups.length} · refused ${s.rejectedTrajectories.length}${zero}${kl}${bc}${s.lag0 ? ` · lag-0 |log rho| ${s.lag0.meanAbsLogRatio.toExponential(1)}` : ''}${s.tokenChain ? ` · ${formatTokenChain(s.tokenChain)}` : ''}${mismatchLine(s.metrics)}`);
    }
    const chains = steps.flatMap((s) => (s.tokenChain ? [s.tokenChain] : []));
    if (chains.length) console.log(`  token chains over ${chains.length} step(s): ${formatTokenChain(sumTokenChains(chains))}`);
    console.log(`training report: ${path.join(REPO_ROOT, 'reports', runId, 'training.html')}`);
    return 0;
  } finally {
    await pool.end();
  }
}

export function register(program: Command): void {
  const train = program
    .command('train')
    .summary('GRPO training on the embedded policy (TrainingRunWorkflow), with a live progress line')
    .description('Start a training run and follow it; `train status <run>` shows a run; `--resume <run>` continues one from its last committed step.')
    .option('--split <split>', 'task split to train on', choiceOption('--split', Split.options))
    .option('--tasks <ids>', 'comma-separated task ids instead of a split')
    .option('--max-tasks <n>', 'first N tasks of the split', intOption('--max-tasks', 1, 10_000))
    .option('--group-size <n>', 'episodes per GRPO group (the seed: 12)', intOption('--group-size', 2, 64))
    .option('--groups-per-step <n>', 'groups per optimizer step (the seed: 4)', intOption('--groups-per-step', 1, 64))
    .option('--group-size-max <n>', 'dynamic group size: each group gets from --group-size up to N episodes, fewer for tasks near 50 % success (the general maximum: 16)', intOption('--group-size-max', 2, 64))
    .option('--profile <name>', `hardware profile, fixes the group-size range (${HARDWARE_PROFILE_NAMES.join(', ')}; 3xh200: 12, as the seed)`, choiceOption('--profile', HARDWARE_PROFILE_NAMES))
    .option('--steps <n>', 'optimizer steps', intOption('--steps', 1, 1_000_000))
    .option('--pool-size <n>', 'episodes running at once', intOption('--pool-size', 1, 1024))
    .option('--max-turns <n>', 'turn cap per episode', intOption('--max-turns', 1, 500))
    .option('--max-new-tokens <n>', 'tokens per model reply', intOption('--max-new-tokens', 16, 32_768))
    .option('--max-context <n>', 'context window in tokens (the embedded SmolLM2 serves 8192)', intOption('--max-context', 256, 1_000_000))
    .option('--tools <set>', 'full or no-debugger', choiceOption('--tools', ['full', 'no-debugger'] as const))
    .option('--learner-model <m>', 'smollm2 or tiny-moe', choiceOption('--learner-model', ['smollm2', 'tiny-moe'] as const))
    .option('--model <dir>', 'train this local checkpoint directory (config.json, safetensors, tokenizer; Llama, Qwen2, Qwen3, Qwen3-MoE) instead of the embedded SmolLM2; the server must serve the same model')
    .option('--learner-dtype <t>', 'float32 (default) or bfloat16 (a GPU learner beside a bf16 vLLM)', choiceOption('--learner-dtype', ['float32', 'bfloat16'] as const))
    .option('--lr <x>', 'learning rate')
    .option('--lora-rank <n>', 'LoRA rank', intOption('--lora-rank', 1, 256))
    .option('--learner-max-tokens <n>', 'tokens per learner microbatch (the seed: 16,384)', intOption('--learner-max-tokens', 64, 262_144))
    .option('--offpolicy-mode <m>', 'off-policy correction (benchmarks/offpolicy.md; default seed_clamp)', choiceOption('--offpolicy-mode', ['seed_clamp', 'token_tis', 'token_mask', 'seq_mask', 'geo_rs'] as const))
    .option('--id <run>', 'run id (default: train-<timestamp>)')
    .option('--resume <run>', 'continue this run from its last committed step')
    .option('--init-adapter <name|path>', 'start from this adapter (sft-v<N>, or a PEFT folder): version 0, and the KL reference')
    .option('--bc-corpus <dir>', 'replay this SFT corpus (sft build --out) in a behaviour-cloning term every step')
    .option('--bc-weight <w>', 'weight of the behaviour-cloning term (default 0.1)')
    .option('--bc-examples <n>', 'SFT examples replayed per step (default 4)', intOption('--bc-examples', 1, 1024))
    .option('--keep-zero-signal-groups', 'train groups whose rewards are all equal too (by default they are dropped and resampled)')
    .option('--attest-every <n>', 'check every N steps that the server still serves the adapter, re-publish if not (default 5; 0: only after a 404)', intOption('--attest-every', 0, 100_000))
    .option('--breaker-groups <n>', 'pause after N groups in a row fail for one infrastructure cause (default 2)', intOption('--breaker-groups', 1, 1000))
    .option('--breaker-probe-seconds <s>', 'while paused by the breaker, probe every S seconds and resume when the cause is gone (default 30)', intOption('--breaker-probe-seconds', 1, 86_400))
    .option('--mismatch-alarm-k3 <x>', 'lag-0 k3 KL(served || learner) above which a step counts toward the alarm (default 1e-3)')
    .option('--mismatch-alarm-steps <k>', 'pause after K steps in a row over the k3 threshold (default 3; 0: off)', intOption('--mismatch-alarm-steps', 0, 1000))
    .option('--detach', 'return once started')
    .action(action((o: TrainOptions) => start(o)));
  train
    .command('status')
    .description('where a training run stands: its real state in Temporal (running, paused and why, finished, terminated, failed), then its steps')
    .argument('<run>')
    .action(action((runId: string) => status(runId)));
  train
    .command('pause')
    .description('stop opening groups (the pause signal); episodes already running finish')
    .argument('<run>')
    .action(action((runId: string) => signal(runId, 'pause')));
  train
    .command('unpause')
    .description('resume a paused run (the resume signal): ends a pause by hand, by the circuit breaker or by the mismatch alarm')
    .argument('<run>')
    .action(action((runId: string) => signal(runId, 'resume')));
}

/** Send a run's workflow a signal, found by the run id in training_runs. */
async function signal(runId: string, name: 'pause' | 'resume'): Promise<number> {
  const config = loadConfig();
  const pool = new Pool({ connectionString: pgConnectionString(config) });
  const run = await pool.query('select workflow_id from training_runs where run_id = $1', [runId]).finally(() => pool.end());
  if (!run.rowCount) {
    console.error(`debugrl train ${name === 'resume' ? 'unpause' : name}: no training run "${runId}"`);
    return 2;
  }
  await withClient(config, (c) => c.workflow.getHandle(run.rows[0].workflow_id).signal(name));
  console.log(`sent ${name} to ${run.rows[0].workflow_id}; \`npx debugrl train status ${runId}\` shows its state`);
  return 0;
}
