-- Evaluations: which arm (policy × tool set) an episode belongs to, and one row per evaluation with its summary.
alter table episodes add column arm text;
create index episodes_evaluation_arm on episodes (evaluation_id, arm) where evaluation_id is not null;

create table evaluations (
  evaluation_id text primary key,
  workflow_id   text not null,
  input         jsonb not null,
  summary       jsonb,
  report_dir    text,
  started_at    timestamptz not null default now(),
  finished_at   timestamptz
);
