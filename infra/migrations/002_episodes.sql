-- Episodes: the turn-by-turn event log, written as the episode runs, and one summary row per finished episode.

-- Every event of an episode, keyed so that a retried activity writes nothing twice:
--   turn 0 'start'    the task, policy, limits and the opening messages
--   turn n 'assistant' the model's reply (text, tool call, token ids, logprobs, token counts)
--   turn n 'tool'      the tool call's observation (or the error shown for an invalid reply)
--   turn n 'recovery-k' the k-th sandbox recovery, before turn n ran
--   turn n 'grade'     the grader's per-test outcome
create table episode_events (
  episode_id  text not null,
  turn        integer not null,
  kind        text not null,
  payload     jsonb not null,
  created_at  timestamptz not null default now(),
  primary key (episode_id, turn, kind)
);

-- One row per finished episode. `publish_from` and the Kafka position make the publish exactly-once: see
-- activities/trajectory-store.ts.
create table episodes (
  episode_id        text primary key,
  workflow_id       text not null,
  task_id           text not null,
  split             text not null,
  policy_spec       text not null,
  policy_version    integer not null default 0,
  toolset           text not null,
  evaluation_id     text,
  passed            boolean not null,
  exit_reason       text not null,
  turns             integer not null,
  prompt_tokens     integer not null,
  completion_tokens integer not null,
  recoveries        integer not null default 0,
  tests             jsonb not null,
  record            jsonb not null,
  publish_partition integer,
  publish_from      bigint,
  kafka_offset      bigint,
  started_at        timestamptz not null,
  finished_at       timestamptz not null,
  stored_at         timestamptz not null default now()
);
create index episodes_task on episodes (task_id);
create index episodes_evaluation on episodes (evaluation_id) where evaluation_id is not null;
