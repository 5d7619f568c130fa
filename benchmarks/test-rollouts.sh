#!/usr/bin/env bash
# How much of `./infra/test` the serving engine saves (issue 19): the integration suites whose time goes to SmolLM2
# rollouts on the shared embedded server, run twice in one sitting, side by side:
#   baseline  the server started with "--max-batch 1 --no-prefix-cache": one sequence at a time, every prompt prefilled
#             from its first token (what one global lock and no conversation cache did before the batching engine);
#   engine    the server as ./infra/test starts it (continuous batching, the per-conversation prefix cache).
# Same code, same model, same suites, same seeds; only the server's options differ. Each suite's time is jest's own
# (its start and end), and the server's counters (/health: prompt tokens from cache and prefilled, steps, and the
# step time split into forward, sampling, constraint and other Python) are read after each arm.
# Needs the services and workers up (./infra/up && ./infra/workers); it restarts the embedded server twice and leaves it
# as ./infra/embedded starts it. Run it on a quiet machine: it is a timing.
#   benchmarks/test-rollouts.sh [suite ...]   (default: star-loop training-e2e policies)
source "$(dirname "${BASH_SOURCE[0]}")/../infra/lib.sh"
cd "$ROOT"
suites=("$@")
((${#suites[@]})) || suites=(star-loop training-e2e policies)
files=()
for s in "${suites[@]}"; do
  [[ -f tests/$s.test.ts ]] || die "no suite tests/$s.test.ts"
  files+=("tests/$s.test.ts")
done
out=$(mktemp -d)
arm() { # NAME SERVER_ARGS
  log "$1: restarting the embedded server with '${2:-(defaults)}'"
  DEBUGRL_EMBEDDED_ARGS=$2 "$ROOT/infra/embedded" --restart
  local t0=$SECONDS rc=0
  npx jest --selectProjects integration --runInBand --forceExit --json --outputFile "$out/$1.json" "${files[@]}" >"$out/$1.log" 2>&1 || rc=$?
  curl -fsS "${DEBUGRL_EMBEDDED_URL%/v1}/health" >"$out/$1.stats.json" 2>/dev/null || echo '{}' >"$out/$1.stats.json"
  log "$1: jest exited $rc after $((SECONDS - t0)) s (load: $(cut -d' ' -f1-3 /proc/loadavg)); log $out/$1.log"
  ((rc == 0)) || die "$1: a suite failed, so its time is not comparable (see $out/$1.log)"
}
arm baseline "--max-batch 1 --no-prefix-cache"
arm engine ""
"$ROOT/infra/embedded" --restart >/dev/null
node - "$out" <<'JS'
const fs = require('node:fs');
const dir = process.argv[2];
const read = (arm) => {
  const r = JSON.parse(fs.readFileSync(`${dir}/${arm}.json`, 'utf8'));
  return Object.fromEntries(r.testResults.map((t) => [t.name.replace(/.*\/tests\//, ''), (t.endTime - t.startTime) / 1000]));
};
const [base, engine] = [read('baseline'), read('engine')];
const stats = (arm) => {
  const h = JSON.parse(fs.readFileSync(`${dir}/${arm}.stats.json`, 'utf8'));
  const c = h.kv_cache ?? {}, s = h.scheduler ?? {};
  return { cached_tokens: c.cached_tokens, prefilled_tokens: c.prefilled_tokens, decode_tokens: s.decode_tokens, steps: s.steps, max_active: s.max_active, ...Object.fromEntries(['forward_s', 'sample_s', 'constraint_s', 'other_s'].map((k) => [k, Number((s[k] ?? 0).toFixed(1))])) };
};
console.log(`| suite | baseline (batch 1, no prefix cache) | engine | baseline / engine |\n| --- | --- | --- | --- |`);
let [tb, te] = [0, 0];
for (const name of Object.keys(base)) {
  tb += base[name]; te += engine[name];
  console.log(`| ${name} | ${base[name].toFixed(0)} s | ${engine[name].toFixed(0)} s | ${(base[name] / engine[name]).toFixed(2)}x |`);
}
console.log(`| all | ${tb.toFixed(0)} s | ${te.toFixed(0)} s | ${(tb / te).toFixed(2)}x |`);
for (const arm of ['baseline', 'engine']) console.log(`${arm} server: ${JSON.stringify(stats(arm))}`);
JS
