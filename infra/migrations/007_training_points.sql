-- One point per committed training step as the coordinator saw it (reward, pass rate, learner statistics, curriculum
-- phase, validation pass@1): the training report's curves. Keyed by (run, step), so a retried write is a no-op.
create table training_points (
  run_id  text not null references training_runs (run_id),
  step    integer not null,
  point   jsonb not null,
  primary key (run_id, step)
);
