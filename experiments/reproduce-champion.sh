#!/bin/sh
# Reproduces the shipped champion (`checkpoints/champion`) from scratch, every stage of the
# pipeline that made it, with the committed configs and recipes:
#
#   1. thirty        PPO from scratch, experiments/thirty.toml                  (checkpoints/thirty)
#   2. champion-ppo  PPO from thirty, experiments/champion-ppo.toml             (checkpoints/champion-ppo)
#   3. clone         `search:32` cloned at four seats: distil collect, then fit (checkpoints/search-clone)
#                    from champion-ppo (checkpoints/search-clone/README.md)
#   4. champion      PPO from the clone, experiments/champion.toml         (checkpoints/champion-256)
#   5. iteration     ROUNDS rounds of expert iteration on top (default 1): `search:64` guided by the
#                    best network so far plays every seat (experiments/expert-iteration.sh's
#                    collection); that network, widened to two hidden layers of WIDTH (default 512;
#                    `sabacc distil widen`, which keeps its play), is fitted to the search's choices,
#                    then trained by PPO with the champion's recipe at that width
#                    (experiments/wide-1.toml, 16 M decisions); the result replaces the best so far
#                    only if it beats it heads-up and against three with 95 % intervals above 50 %
#                    and 25 % (200,000 and 100,008 games, the shipping rule's samples) and passes
#                    the ship gate's panel (`sabacc gate`, docs/gate.md). Round 1 did
#                    (BENCHMARKS.md, "A stronger top"): the third champion is its network
#                                                                     (checkpoints/champion-wide)
#   6. robust        the first step of a best-response loop: a heads-up best response to the best
#                    so far, warm-started from stage 4's network and trained for 46.5 M learner
#                    decisions (checkpoints/exploiter-champion-wide/config.toml, the shipped
#                    exploiter's run), then the best trained on with that exploiter among its
#                    heads-up opponents (experiments/robust-1.toml, 10 M decisions); kept by the
#                    same gate as stage 5 (seeds 651, 652). ROBUST=0 skips it
#                                                                   (checkpoints/champion-robust)
#   7. tables        the best trained on for both table sizes (experiments/both-tables.toml, 20 M
#                    decisions): four-seat tables twice as often as heads-up ones, each four-seat
#                    opponent drawn from a wide mix (the clone, `expert`, stages 4 and 5's
#                    networks, the six style bots, its own selves), heads-up stage 6's exploiter
#                    among its opponents; kept by the same gate (seeds 651, 652). It needs the
#                    networks of stages 5 and 6; TABLES=0 skips it                (checkpoints/champion)
#   8. check         the result against `expert`, heads-up and against three, on the seeds of the
#                    shipped champion's card (601, 602), beside the shipped champion's figures.
#
# Every stage goes to DIR/STAGE and is skipped when DIR/STAGE/DONE exists; a stage cut off is
# resumed (training from its last checkpoint with `sabacc train --resume`, collections chunk by
# chunk), so the same command continues an interrupted run. Each stage's wall time goes to
# DIR/stages.log and DIR/STAGE/DONE; a stage cut off keeps the seconds it ran in DIR/.time/STAGE
# and its resumption adds them, so the time is the stage's whole (a process killed with SIGKILL
# cannot record its share). The stages take the paths of earlier stages' outputs, not the shipped
# checkpoints: the configs are copied into DIR/configs with `init_from` and the clone's path
# rewritten (and, with --smoke, the budgets).
#
# Usage, from the workspace root:
#   sh experiments/reproduce-champion.sh [--smoke] [DIR]
# DIR defaults to runs/reproduce (runs/reproduce-smoke with --smoke). --smoke runs every stage
# at tiny budgets (a few thousand learner decisions, 48-game collections and evaluations, search
# at 2 worlds) to prove the pipeline end to end in a few minutes; its networks mean nothing.
# Environment: SABACC (the binary; default `sabacc`), THREADS (worker threads of collections and
# evaluations; default all cores), ROUNDS (expert-iteration rounds; default 1, 0 skips stage 5),
# WIDTH (the students' hidden width; default 512), ROBUST (1: run stage 6, the default; 0: skip it),
# TABLES (1: run stage 7, the default; 0: skip it),
# STOP_AFTER (a stage name: stop once it is done), PANEL (the ship gate's panel; default
# ladder/panel.toml).
# Wall time on 2 cores: 4 h 23 min to the end of stage 6 (1 h 55 min to stage 4, 2 h 54 min to the
# end of stage 5, 1 h 29 min for stage 6), every stage measured through this script (BENCHMARKS.md,
# "Reproducing the champion"); stage 7 adds its training (56 min when run alone with the shipped
# inputs) and its gate, not yet timed through the script. Stages 5 to 7 keep their result only if
# it passes its gate, and their margins are close to what the gate's samples resolve: a run may
# end on an earlier stage's network (the log and DIR/CHAMPION say which).
set -eu

smoke=0
if [ "${1:-}" = "--smoke" ]; then
  smoke=1
  shift
fi
if [ $smoke = 1 ]; then dir=${1:-runs/reproduce-smoke}; else dir=${1:-runs/reproduce}; fi
sabacc=${SABACC:-sabacc}
threads=${THREADS:-0}
rounds=${ROUNDS:-1}
width=${WIDTH:-512}
stop_after=${STOP_AFTER:-}
robust=${ROBUST:-1}
tables=${TABLES:-1}
panel=${PANEL:-ladder/panel.toml}
exploiter_config=checkpoints/exploiter-champion-wide/config.toml
thread_arg=""
[ "$threads" -gt 0 ] && thread_arg="--threads $threads"

for f in experiments/thirty.toml experiments/champion-ppo.toml experiments/champion.toml experiments/wide-1.toml \
  experiments/robust-1.toml experiments/both-tables.toml "$exploiter_config" "$panel"; do
  [ -f "$f" ] || { echo "error: $f not found; run this from the workspace root" >&2; exit 2; }
done
command -v "$sabacc" >/dev/null 2>&1 || [ -x "$sabacc" ] || {
  echo "error: the sabacc binary \`$sabacc\` was not found; build it (cargo build --release -p cli) and set SABACC=PATH" >&2
  exit 2
}
mkdir -p "$dir/configs"

# Budgets: the recipes' own, or tiny ones for --smoke.
if [ $smoke = 1 ]; then
  decisions_thirty=6000; decisions_ppo=6000; decisions_champion=6000; decisions_iter=6000
  decisions_exploit=6000; decisions_robust=6000; decisions_tables=6000
  clone_games=48; clone_search=search:2; iter_search=2; iter_four=24; iter_two=24
  check_games=48; gate_two=48; gate_four=48; fit_epochs_clone=1; fit_epochs_iter=1
  # The panel's cells at their fewest games (one deal each).
  panel_games="--games 2"
else
  decisions_thirty=; decisions_ppo=; decisions_champion=; decisions_iter=
  # The shipped exploiter trained for 60 minutes, 11,361 updates of 4,096 learner decisions
  # (46,707,776 counted); a decision budget makes the same effort on any machine.
  decisions_exploit=46534656; decisions_robust=; decisions_tables=
  clone_games=9984; clone_search=search:32; iter_search=64; iter_four=3312; iter_two=480
  check_games=8000; gate_two=200000; gate_four=100008; fit_epochs_clone=12; fit_epochs_iter=8
  panel_games=""
fi

started=$(date +%s)
log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$dir/stages.log"; }
# Stage times: `begin STAGE` starts the clock; whatever ends the script (an error, Ctrl-C, a
# terminated job) saves the running stage's seconds so far in DIR/.time/STAGE, and `finish`
# adds them to this run's share.
stage_now="" stage_start=0
spent_before() { cat "$dir/.time/$1" 2>/dev/null || echo 0; }
save_partial() {
  [ -n "$stage_now" ] || return 0
  mkdir -p "$dir/.time"
  echo "$(( $(spent_before "$stage_now") + $(date +%s) - stage_start ))" > "$dir/.time/$stage_now"
  stage_now=""
}
trap save_partial EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
begin() {
  stage_now=$1
  stage_start=$(date +%s)
  if [ -f "$dir/.time/$1" ]; then log "$1: resuming after $(cat "$dir/.time/$1") s in earlier runs"; fi
}
# Marks a stage done with its wall time (over every run that worked on it).
finish() {
  now=$(date +%s)
  total=$(( $(spent_before "$1") + now - stage_start ))
  echo "$total" > "$dir/$1/DONE"
  rm -f "$dir/.time/$1"
  stage_now=""
  log "$1: done in $total s (pipeline so far, this run: $(( now - started )) s)"
  if [ "$stop_after" = "$1" ]; then log "stopping after $1 (STOP_AFTER)"; exit 0; fi
}
done_already() {
  if [ -f "$dir/$1/DONE" ]; then
    log "$1: already done ($(cat "$dir/$1/DONE") s), skipped"
    [ "$stop_after" = "$1" ] && exit 0
    return 0
  fi
  return 1
}

# Runs a command with its output shown and appended to the log; fails when the command fails
# (a plain pipe into tee would hide its exit status in POSIX sh).
logged() {
  rm -f "$dir/.status"
  { if "$@" 2>&1; then echo 0 > "$dir/.status"; else echo "$?" > "$dir/.status"; fi; } | tee -a "$dir/stages.log"
  # No status file: the pipeline was killed (Ctrl-C reaches every process of it), a failure.
  return "$(cat "$dir/.status" 2>/dev/null || echo 1)"
}

# A copy of CONFIG for stage STAGE: init_from INIT (if given), the clone at CLONE (if given),
# total_decisions DECISIONS (if given), and the smoke budgets. (POSIX sh has no local
# variables: every function's variables carry its prefix.)
config() {
  c_src=$1 c_stage=$2 c_init=$3 c_clone=$4 c_decisions=$5
  c_out="$dir/configs/$c_stage.toml"
  sed -e "s|^name = .*|name = \"$c_stage\"|" "$c_src" > "$c_out.tmp"
  if [ -n "$c_init" ]; then
    sed -i -e "s|^init_from = .*|init_from = \"$c_init\"|" "$c_out.tmp"
  fi
  if [ -n "$c_clone" ]; then
    sed -i -e "s|\"checkpoints/search-clone@argmax\"|\"$c_clone@argmax\"|" "$c_out.tmp"
  fi
  if [ -n "$c_decisions" ]; then
    sed -i -e "s|^total_decisions = .*|total_decisions = $c_decisions|" "$c_out.tmp"
  fi
  if [ $smoke = 1 ]; then
    sed -i -e "s|^num_envs = .*|num_envs = 16|" -e "s|^num_steps = .*|num_steps = 32|" \
      -e "s|^eval_every = .*|eval_every = 0|" -e "s|^snapshot_every = .*|snapshot_every = 4|" \
      -e "s|^checkpoint_every = .*|checkpoint_every = 4|" "$c_out.tmp"
  fi
  mv "$c_out.tmp" "$c_out"
  echo "$c_out"
}

# PPO run RUN (a folder under DIR) with config CFG: fresh, or resumed from its last checkpoint
# (a run that had finished before it was marked done is left as it is).
train() {
  t_run="$dir/$1" t_cfg=$2
  if [ -d "$t_run/checkpoint" ]; then
    log "$1: resuming $t_run"
    if ! logged "$sabacc" train --resume "$t_run" --eval-games 0 --quiet; then
      tail -n 3 "$dir/stages.log" | grep -q "is finished" || exit 1
      log "$1: the run had finished"
    fi
  else
    rm -rf "$t_run"
    log "$1: training, config $t_cfg"
    logged "$sabacc" train --config "$t_cfg" --out "$t_run" --eval-games 0 --quiet
  fi
}

# 1. thirty: PPO from scratch.
if ! done_already thirty; then
  begin thirty
  train thirty "$(config experiments/thirty.toml thirty "" "" "$decisions_thirty")"
  finish thirty
fi

# 2. champion-ppo: PPO from thirty.
if ! done_already champion-ppo; then
  begin champion-ppo
  train champion-ppo "$(config experiments/champion-ppo.toml champion-ppo "$dir/thirty/checkpoint" "" "$decisions_ppo")"
  finish champion-ppo
fi

# 3. clone: search at four seats (three `search` seats and champion-ppo), fitted into champion-ppo.
if ! done_already clone; then
  begin clone
  mkdir -p "$dir/clone"
  log "clone: collect, $clone_games four-seat games, teacher $clone_search"
  # shellcheck disable=SC2086
  logged "$sabacc" distil collect --teacher "$clone_search" \
    --opponents "$clone_search,$clone_search,$dir/champion-ppo/checkpoint@argmax" --players 4 \
    --games "$clone_games" --chunk-games 48 --seed 301 --out "$dir/clone/samples" $thread_arg --quiet
  rm -rf "$dir/clone/fit"
  log "clone: fit from champion-ppo"
  logged "$sabacc" distil fit --init "$dir/champion-ppo/checkpoint" --data "$dir/clone/samples" \
    --out "$dir/clone/fit" --epochs "$fit_epochs_clone" --lr 3e-4 --temperature 0.01 --quiet
  finish clone
fi

# 4. champion: PPO from the clone, the clone at four-seat tables.
if ! done_already champion; then
  begin champion
  train champion "$(config experiments/champion.toml champion "$dir/clone/fit" "$dir/clone/fit" "$decisions_champion")"
  finish champion
fi
best="$dir/champion/checkpoint"

# The first agent's lower 95 % bound in an arena report (report.json), in percent (two decimals:
# the shipped round cleared 50 % by 0.06 points).
lower_bound() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); a=r["agents"][0]; print(round(a["ci_low"]*100, 2))' "$1"
}

# The gate of stages 5 and 6: STAGE's candidate (DIR/ppo/checkpoint) against BEST heads-up
# (seed SEED2) and against three of it (SEED4), on the shipping rule's samples, then both on the
# ship gate's panel (`sabacc gate`, ladder/panel.toml: docs/gate.md); the candidate is
# written to DIR/BEST only if both lower 95 % bounds clear 50 % and 25 % and it passes the panel
# (worse against no panel opponent at either table size, better against one).
gate() {
  g_stage=$1 g_dir=$2 g_best=$3 g_seed2=$4 g_seed4=$5
  for g_n in 2 4; do
    if [ ! -f "$g_dir/gate-$g_n/report.json" ]; then
      if [ "$g_n" = 2 ]; then g_lineup="$g_dir/ppo/checkpoint@argmax,$g_best@argmax" g_games=$gate_two g_seed=$g_seed2; else
        g_lineup="$g_dir/ppo/checkpoint@argmax,$g_best@argmax,$g_best@argmax,$g_best@argmax" g_games=$gate_four g_seed=$g_seed4; fi
      log "$g_stage: gate, $g_n seats, $g_games games"
      # shellcheck disable=SC2086
      "$sabacc" eval --agents "$g_lineup" --games "$g_games" --seed "$g_seed" --out "$g_dir/gate-$g_n" $thread_arg > /dev/null
    fi
  done
  if [ ! -f "$g_dir/panel/gate.json" ]; then
    log "$g_stage: gate, the panel"
    g_status=0
    # shellcheck disable=SC2086
    "$sabacc" gate --agents "$g_best@argmax,$g_dir/ppo/checkpoint@argmax" --panel "$panel" --out "$g_dir/panel.part" $panel_games \
      $thread_arg > /dev/null || g_status=$?
    # 3: the panel refused the candidate; anything else but 0 is an error.
    [ "$g_status" = 0 ] || [ "$g_status" = 3 ] || exit "$g_status"
    rm -rf "$g_dir/panel" && mv "$g_dir/panel.part" "$g_dir/panel"
  fi
  g_low2=$(lower_bound "$g_dir/gate-2/report.json")
  g_low4=$(lower_bound "$g_dir/gate-4/report.json")
  g_panel=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["gates"][0]; print(("passes: " if g["passes"] else "fails: ") + g["reason"])' \
    "$g_dir/panel/gate.json")
  if python3 -c "import sys; sys.exit(0 if $g_low2 > 50 and $g_low4 > 25 else 1)" && [ "${g_panel%%:*}" = passes ]; then
    echo "$g_dir/ppo/checkpoint" > "$g_dir/BEST"
    log "$g_stage: kept: lower bounds $g_low2 % heads-up, $g_low4 % against three (above 50 / 25); the panel $g_panel"
  else
    log "$g_stage: not kept: lower bounds $g_low2 % heads-up, $g_low4 % against three (need above 50 / 25); the panel $g_panel"
  fi
}

# 5. iteration: ROUNDS rounds of expert iteration, each kept only if it beats the best so far.
round=1
while [ "$round" -le "$rounds" ]; do
  stage="iteration-$round"
  if ! done_already "$stage"; then
    begin "$stage"
    it="$dir/$stage"
    mkdir -p "$it"
    teacher="search:$iter_search+$best"
    log "$stage: collect, teacher $teacher, $iter_four four-seat and $iter_two heads-up games"
    # shellcheck disable=SC2086
    logged "$sabacc" distil collect --teacher "$teacher" --players 4 --games "$iter_four" --seed $((701 + 10 * (round - 1))) \
      --out "$it/four.samples" $thread_arg --quiet
    # shellcheck disable=SC2086
    logged "$sabacc" distil collect --teacher "$teacher" --players 2 --games "$iter_two" --seed $((702 + 10 * (round - 1))) \
      --out "$it/two.samples" $thread_arg --quiet
    if [ ! -f "$it/fit/metadata.json" ]; then
      rm -rf "$it/widened" "$it/fit"
      log "$stage: widen $best to $width,$width"
      logged "$sabacc" distil widen --init "$best" --hidden "$width,$width" --out "$it/widened"
      log "$stage: fit"
      logged "$sabacc" distil fit --init "$it/widened" --data "$it/four.samples" "$it/two.samples" --out "$it/fit" \
        --epochs "$fit_epochs_iter" --lr 1e-4 --temperature 0.02 --quiet
    fi
    cfg=$(config experiments/wide-1.toml "$stage-ppo" "$it/fit" "$dir/clone/fit" "$decisions_iter")
    sed -i -e "s|^hidden = .*|hidden = [$width, $width]|" "$cfg"
    train "$stage/ppo" "$cfg"
    gate "$stage" "$it" "$best" $((620 + 10 * (round - 1) + 2)) $((620 + 10 * (round - 1) + 4))
    finish "$stage"
  fi
  if [ -f "$dir/$stage/BEST" ]; then best=$(cat "$dir/$stage/BEST"); fi
  round=$((round + 1))
done

# 6. robust: the first step of a best-response loop. A heads-up best response to the best so far
# (its exploiter: the shipped exploiter's recipe, a PPO run warm-started from stage 4's network
# and trained only against the frozen best at `@argmax`, as `sabacc exploit BEST@argmax --init
# STAGE4 --decisions D` trains it, here as a resumable run), then the best trained further with
# the exploiter among its heads-up opponents (experiments/robust-1.toml); the result replaces the
# best only if it beats it at both table sizes, as in stage 5.
if [ "$robust" = 1 ]; then
  if ! done_already robust; then
    begin robust
    rb="$dir/robust"
    mkdir -p "$rb"
    cfg=$(config "$exploiter_config" robust-exploiter "$dir/champion/checkpoint" "" "$decisions_exploit")
    sed -i -e "s|^\"checkpoints/[a-z0-9-]*@argmax\" = 1.0$|\"$best@argmax\" = 1.0|" \
      -e "s|^eval_bots = .*|eval_bots = [\"$best@argmax\"]|" "$cfg"
    grep -q "^\"$best@argmax\" = 1.0$" "$cfg" || { echo "error: $cfg does not name $best as its opponent" >&2; exit 1; }
    train robust/exploiter "$cfg"
    cfg=$(config experiments/robust-1.toml robust-ppo "$best" "$dir/clone/fit" "$decisions_robust")
    # The best's own width (stage 5's round may not have been kept).
    b_hidden=$(python3 -c 'import json,sys; print(", ".join(map(str, json.load(open(sys.argv[1]))["network"]["hidden"])))' \
      "$best/metadata.json")
    sed -i -e "s|^\"checkpoints/exploiter-[a-z0-9-]*\" = |\"$rb/exploiter/checkpoint\" = |" \
      -e "s|^hidden = .*|hidden = [$b_hidden]|" "$cfg"
    grep -q "^\"$rb/exploiter/checkpoint\" = " "$cfg" || { echo "error: $cfg does not name the exploiter" >&2; exit 1; }
    train robust/ppo "$cfg"
    gate robust "$rb" "$best" 651 652
    finish robust
  fi
  if [ -f "$dir/robust/BEST" ]; then best=$(cat "$dir/robust/BEST"); fi
fi

# 7. tables: the best trained on for both table sizes (experiments/both-tables.toml). The config
# names shipped networks; each becomes this run's own: the best so far (frozen, heads-up), stage
# 6's exploiter, stage 4's network (`champion-256`) and stage 5's first round (`champion-wide`).
if [ "$tables" = 1 ]; then
  if ! done_already tables; then
    tb_wide="$dir/iteration-1/ppo/checkpoint" tb_exploiter="$dir/robust/exploiter/checkpoint"
    for tb_need in "$tb_wide" "$tb_exploiter"; do
      [ -f "$tb_need/metadata.json" ] || {
        echo "error: stage tables trains against $tb_need, which stages 5 and 6 make (ROUNDS >= 1, ROBUST=1); TABLES=0 skips it" >&2
        exit 2
      }
    done
    begin tables
    tb="$dir/tables"
    mkdir -p "$tb"
    cfg=$(config experiments/both-tables.toml tables-ppo "$best" "$dir/clone/fit" "$decisions_tables")
    b_hidden=$(python3 -c 'import json,sys; print(", ".join(map(str, json.load(open(sys.argv[1]))["network"]["hidden"])))' \
      "$best/metadata.json")
    # Renamed opponents that turn out to be one network (the best so far is stage 4's or 5's
    # when a later stage was not kept) share one entry, with their weights summed.
    python3 - "$cfg" "$tb_exploiter" "$best@argmax" "$dir/champion/checkpoint@argmax" "$tb_wide@argmax" "$b_hidden" <<'PY'
import re, sys
path, exploiter, best, stage4, stage5, hidden = sys.argv[1:]
rename = {"checkpoints/champion-robust@argmax": best, "checkpoints/champion-256@argmax": stage4,
          "checkpoints/champion-wide@argmax": stage5}
out, section = [], {}
for line in open(path).read().splitlines():
    if line.startswith("["):
        section = {}
    if line.startswith("hidden = "):
        line = "hidden = [%s]" % hidden
    m = re.match(r'^"([^"]+)" = ([0-9.eE+-]+)$', line)
    if m:
        name = exploiter if m.group(1).startswith("checkpoints/exploiter-") else rename.get(m.group(1), m.group(1))
        if name in section:
            i = section[name]
            out[i] = '"%s" = %r' % (name, round(float(out[i].rsplit("= ", 1)[1]) + float(m.group(2)), 9))
            continue
        section[name] = len(out)
        line = '"%s" = %s' % (name, m.group(2))
    out.append(line)
open(path, "w").write("\n".join(out) + "\n")
PY
    if grep -q '^"checkpoints/' "$cfg"; then
      echo "error: $cfg still names a shipped network: $(grep '^"checkpoints/' "$cfg" | head -n 1)" >&2
      exit 1
    fi
    train tables/ppo "$cfg"
    gate tables "$tb" "$best" 651 652
    finish tables
  fi
  if [ -f "$dir/tables/BEST" ]; then best=$(cat "$dir/tables/BEST"); fi
fi
echo "$best" > "$dir/CHAMPION"
log "the champion: $best"

# 8. check: against `expert`, on the shipped champion's card seeds.
if ! done_already check; then
  begin check
  mkdir -p "$dir/check"
  # shellcheck disable=SC2086
  "$sabacc" eval --agents "$best@argmax,expert" --games "$check_games" --seed 601 --out "$dir/check/vs-expert" \
    $thread_arg > /dev/null
  # shellcheck disable=SC2086
  "$sabacc" eval --agents "$best@argmax,expert,expert,expert" --games "$check_games" --seed 602 \
    --out "$dir/check/vs-three-experts" $thread_arg > /dev/null
  for r in vs-expert vs-three-experts; do
    python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["agents"][0]; print("%s: %.1f %% [%.1f, %.1f] of %d games" % (sys.argv[2], a["win_rate"]*100, a["ci_low"]*100, a["ci_high"]*100, a["games"]))' \
      "$dir/check/$r/report.json" "$r" | tee -a "$dir/stages.log"
  done
  log "check: on these games at full budgets the shipped champion (stage 7) scores 64.2 % [63.1, 65.2] and 44.6 % [43.5, 45.7], champion-robust (stage 6) 62.8 % and 42.1 %, champion-wide (stage 5) 63.1 % and 44.2 %, champion-256 (stage 4) 61.9 % and 43.5 %"
  finish check
fi
log "reproduced in $(( $(date +%s) - started )) s of this invocation; stage times in $dir/stages.log"
