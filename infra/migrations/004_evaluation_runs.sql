-- Evaluation runs: which workflow run an evaluation row belongs to, so that a second run under an existing evaluation
-- id is refused unless it asks for a new run (EvaluationInput.rerun), which is then stored under its own id.
alter table evaluations add column run_id text;
alter table evaluations add column base_id text;
create unique index evaluations_run on evaluations (run_id) where run_id is not null;
create index evaluations_base on evaluations (base_id) where base_id is not null;
