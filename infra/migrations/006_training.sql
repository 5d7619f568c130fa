-- GRPO training: runs, sealed groups, committed steps and the learner's consumed Kafka offsets.
-- The exactly-once argument is in activities/training-store.ts: a step's row, the groups it consumed and the consumer
-- offsets it advanced are written in ONE transaction, so a step either happened (all three) or did not (none).

-- One row per TrainingRunWorkflow: its validated input, for `train status` and `--resume`.
create table training_runs (
  run_id      text primary key,
  workflow_id text not null,
  input       jsonb not null,
  created_at  timestamptz not null default now()
);

-- One row per sealed GRPO group: the claim check the training-groups topic carries, plus where it was published.
-- `episodes` is [{episodeId, reward, components, minPolicyVersion, passed}] for the scorable trajectories.
create table training_groups (
  group_id          text primary key,
  run_id            text not null references training_runs (run_id),
  task_id           text not null,
  reward_config     text not null,
  episodes          jsonb not null,
  min_policy_version integer not null,
  sealed_reason     text not null,            -- 'full' | 'partial-timeout'
  infra_failures    integer not null default 0,
  publish_partition integer,
  publish_from      bigint,
  kafka_offset      bigint,
  consumed_step     text,                      -- the step id that consumed it (trained or rejected)
  rejected_reason   text,                      -- set when the step refused the whole group (policy lag)
  sealed_at         timestamptz not null default now()
);
create index training_groups_run on training_groups (run_id);

-- One row per committed optimizer step. step_id = '<run>:<step>' makes a retried step a no-op.
create table training_steps (
  step_id         text primary key,
  run_id          text not null references training_runs (run_id),
  step            integer not null,
  version_before  integer not null,
  version_after   integer not null,
  adapter_path    text,
  group_ids       text[] not null,
  result          jsonb not null,              -- metrics, rejections, lag histogram (see common/training.ts)
  committed_at    timestamptz not null default now(),
  unique (run_id, step)
);

-- Next offset to read per (run, partition) of the training-groups topic: the learner's consumer position, kept here
-- rather than in Kafka so it commits atomically with the step.
create table training_offsets (
  run_id      text not null references training_runs (run_id),
  topic       text not null,
  partition   integer not null,
  next_offset bigint not null,
  primary key (run_id, topic, partition)
);
