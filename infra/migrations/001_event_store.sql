-- The event store. Temporal workflow results carry only ids; the records live here (and in Kafka).

-- SmokeWorkflow's round trip (issue: foundation).
create table smoke_events (
  id          text primary key,
  workflow_id text not null,
  message     text not null,
  created_at  timestamptz not null default now()
);
