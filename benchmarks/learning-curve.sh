#!/usr/bin/env bash
# The learning curve (issue 23, "Prove it"), on this machine, on the learnable tier (the `starter` split, without the
# debugger tools), through the real loop: services, embedded SmolLM2-135M server, workers and learner must be up
# (./infra/up && ./infra/embedded && ./infra/workers --restart). Stages, in order:
#   teacher   the oracle on every starter task, LC_TEACHER_EPISODES each (the short no-debugger plan)
#   sft       `sft build` (behavioural filters, short/long interleaving, assistant-only masks) and `sft train`
#   sft-eval  the SFT init on the starter tasks, n = LC_EPISODES per task, seeds 0..n-1 (the "before")
#   rl        GRPO from the SFT adapter (version 0 and the KL reference), BC replay of the corpus, LC_STEPS steps
#   rl-eval   the RL arm's last adapter, same tasks and seeds (the "after")
#   control   the same run with learning rate 0
#   control-eval
#   base-eval the base model, same tasks and seeds
#   val-sft   the SFT init on the seed's validation split (never trained or selected on), LC_VAL_EPISODES (1) per task
#   val-rl    the RL arm's last adapter on the validation split, same seeds
#   report    benchmarks/learning-curve.{md,svg} (node lib/benchmarks/learning-curve.js)
# LC_ID names every workflow (default lc-<time>); LC_CORPUS overrides the corpus folder; LC_FROM=<stage> starts at a
# stage of an earlier LC_ID (its SFT adapter is read from $LOGS/<LC_ID>-sft.log, the arms' adapters from their logs),
# or LC_SFT_ADAPTER=<folder> names an SFT adapter from elsewhere (loaded on the server as <LC_ID>-sft-init).
# LC_OUT (benchmarks/learning-curve) is where the report's .md and .svg go. LC_SKIP="<stage> ..." leaves stages out (e.g. "control control-eval": the report then has no control arm).
# LC_TASKS=<id,id,...> trains and evaluates those tasks instead of the whole starter split (the learning run picks them
# by the SFT init's measured rate); LC_FIRST_SEED (0) shifts every evaluation's seeds, so that they are fresh after a
# selection made with seeds 0..n-1 (all evaluations share them: their episodes pair up). Knobs: LC_TEACHER_EPISODES (2),
# LC_SFT_EPOCHS (4), LC_SFT_LR (1e-3), LC_SFT_BATCH (2), LC_EPISODES (8), LC_TURNS (4), LC_NEW_TOKENS (96),
# LC_STEPS (8), LC_GROUP (8), LC_GROUPS_PER_STEP (1), LC_LR (5e-4), LC_BC_EXAMPLES (1). Context 2,048 tokens; the learner
# takes one chain per microbatch (--learner-max-tokens 2048: packed microbatches ran 27 against 38 tokens/s here).
source "$(dirname "${BASH_SOURCE[0]}")/../infra/lib.sh"
cd "$ROOT"
id=${LC_ID:-lc-$(date +%Y%m%d-%H%M%S)} from=${LC_FROM:-teacher}
teacher_episodes=${LC_TEACHER_EPISODES:-2} sft_epochs=${LC_SFT_EPOCHS:-4} sft_lr=${LC_SFT_LR:-1e-3} sft_batch=${LC_SFT_BATCH:-2}
episodes=${LC_EPISODES:-8} turns=${LC_TURNS:-4} new_tokens=${LC_NEW_TOKENS:-96} steps=${LC_STEPS:-8} group=${LC_GROUP:-8}
groups_per_step=${LC_GROUPS_PER_STEP:-1} lr=${LC_LR:-5e-4} bc_examples=${LC_BC_EXAMPLES:-1}
corpus=${LC_CORPUS:-$DATA/sft-corpora/$id} first_seed=${LC_FIRST_SEED:-0}
if [[ -n ${LC_TASKS:-} ]]; then tasks=(--tasks "$LC_TASKS"); else tasks=(--split starter); fi
cli() { node lib/workers/cli.js "$@"; }
stages=(teacher sft sft-eval rl rl-eval control control-eval base-eval val-sft val-rl report)
started=0
skip=" ${LC_SKIP:-} "
run_stage() { [[ $1 == "$from" ]] && started=1; ((started)) && [[ $skip != *" $1 "* ]]; }
stage_start=$SECONDS
stage_done() { log "$1: $((SECONDS - stage_start)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"; stage_start=$SECONDS; }
[[ " ${stages[*]} " == *" $from "* ]] || die "LC_FROM must be one of: ${stages[*]}"

evaluate() { # ID POLICY [EPISODES TASK-SELECTION...] (default: the learning tasks, LC_EPISODES each); k = min(3, EPISODES)
  local rc=0 id=$1 policy=$2 n=${3:-$episodes}
  local selection=("${@:4}"); ((${#selection[@]})) || selection=("${tasks[@]}")
  cli eval --policy "$policy" "${selection[@]}" --episodes "$n" --k $((n < 3 ? n : 3)) --tools no-debugger --max-turns "$turns" \
    --max-new-tokens "$new_tokens" --max-context 2048 --concurrency 8 --first-seed "$first_seed" --id "$id" || rc=$?
  ((rc <= 1)) || die "evaluation $id failed (exit $rc)"
}
train_arm() { # RUN LR
  cli train "${tasks[@]}" --tools no-debugger --group-size "$group" --groups-per-step "$groups_per_step" --steps "$steps" \
    --pool-size "$group" --max-turns "$turns" --max-new-tokens "$new_tokens" --max-context 2048 --lr "$2" \
    --learner-max-tokens 2048 --init-adapter "$init" --bc-corpus "$corpus" --bc-examples "$bc_examples" --id "$1" | tee "$LOGS/$1.log"
}
served() { sed -n 's/.*(served as \(embedded:[^)]*\)).*/\1/p' "$LOGS/$1.log" | tail -n 1; }
rl_policy() { # sets rl to the RL arm's last served adapter (as a policy), or stops
  rl=$(served "$id-rl")
  [[ -n $rl ]] || die "the RL arm $id-rl published no adapter (see $LOGS/$id-rl.log)"
}

if run_stage teacher; then
  cli eval --policy oracle --split starter --tools no-debugger --episodes "$teacher_episodes" --k 1 --concurrency 4 --id "$id-teacher"
  stage_done teacher
fi
if run_stage sft; then
  cli sft build --from "$id-teacher" --out "$corpus" --no-microskills
  cli sft train --corpus "$corpus" --epochs "$sft_epochs" --batch "$sft_batch" --lr "$sft_lr" --id "$id-sft" | tee "$LOGS/$id-sft.log"
  stage_done sft
fi
if [[ -n ${LC_SFT_ADAPTER:-} ]]; then
  [[ -f $LC_SFT_ADAPTER/adapter_config.json ]] || die "LC_SFT_ADAPTER=$LC_SFT_ADAPTER has no adapter_config.json"
  sft=$id-sft-init init=$LC_SFT_ADAPTER
  curl -fsS -X POST "${DEBUGRL_EMBEDDED_URL%/v1}/v1/load_lora_adapter" -H 'content-type: application/json' \
    -d "{\"lora_name\": \"$sft\", \"lora_path\": \"$(realpath "$LC_SFT_ADAPTER")\"}" >/dev/null \
    || die "the server would not load $LC_SFT_ADAPTER"
else
  sft=$(sed -n 's/.*published as \([^ ]*\) (.*/\1/p' "$LOGS/$id-sft.log" 2>/dev/null | tail -n 1) init=$sft
  [[ -n $sft ]] || die "no SFT adapter for $id (see $LOGS/$id-sft.log)"
fi
if run_stage sft-eval; then evaluate "$id-eval-sft" "embedded:$sft"; stage_done sft-eval; fi
if run_stage rl; then train_arm "$id-rl" "$lr"; stage_done rl; fi
if run_stage rl-eval; then
  rl_policy
  evaluate "$id-eval-rl" "$rl"
  stage_done rl-eval
fi
if run_stage control; then train_arm "$id-control" 0; stage_done control; fi
if run_stage control-eval; then
  control=$(served "$id-control")
  [[ -n $control ]] || die "the control arm $id-control published no adapter (see $LOGS/$id-control.log)"
  evaluate "$id-eval-control" "$control"
  stage_done control-eval
fi
if run_stage base-eval; then evaluate "$id-eval-base" embedded; stage_done base-eval; fi
validation=("${LC_VAL_EPISODES:-1}" --split validation)
if run_stage val-sft; then evaluate "$id-val-sft" "embedded:$sft" "${validation[@]}"; stage_done val-sft; fi
if run_stage val-rl; then
  rl_policy
  evaluate "$id-val-rl" "$rl" "${validation[@]}"
  stage_done val-rl
fi
if run_stage report; then
  optional=()
  [[ $skip == *" control "* ]] || optional+=(--control "$id-control" --control-eval "$id-eval-control")
  [[ $skip == *" base-eval "* ]] || optional+=(--base "$id-eval-base")
  [[ $skip == *" val-sft "* || $skip == *" val-rl "* ]] || optional+=(--val-sft "$id-val-sft" --val-rl "$id-val-rl")
  node lib/benchmarks/learning-curve.js --rl "$id-rl" --sft "$id-eval-sft" --rl-eval "$id-eval-rl" "${optional[@]}" \
    --out "${LC_OUT:-$ROOT/benchmarks/learning-curve}"
fi
