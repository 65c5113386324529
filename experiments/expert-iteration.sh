#!/bin/sh
# One round of expert iteration on top of the shipped champion (issue: "a stronger top"):
#   1. collect: search guided by the champion plays every seat, at four-seat and heads-up
#      tables; every searched position and the scores of its actions are kept;
#   2. fit: the champion's network is fitted to choose as that search chose (`distil fit`);
#   3. eval: the student against the champion, heads-up and against three, duplicate deals.
# Every stage resumes: collection continues its sample files chunk by chunk, and a stage whose
# output exists is skipped. Run it from the workspace root:
#   sh experiments/expert-iteration.sh [ROUND_DIR] [BUDGET]
# ROUND_DIR defaults to runs/iteration-1; BUDGET is search's worlds per decision (default 64).
# THREADS (default: all cores), GAMES (four-seat games, default 4800), HEADS_UP_GAMES
# (default: GAMES) and CHAMPION (the network searched with and fitted, default
# checkpoints/champion) come from the environment. Round 1 (runs/iteration-1, BENCHMARKS.md "A
# stronger top") ran on the champion of its day, today's checkpoints/champion-256:
#   CHAMPION=checkpoints/champion-256 sh experiments/expert-iteration.sh runs/iteration-1 64
set -eu
dir=${1:-runs/iteration-1}
budget=${2:-64}
games=${GAMES:-4800}
heads_up_games=${HEADS_UP_GAMES:-$games}
threads=${THREADS:-0}
sabacc=${SABACC:-sabacc}
champion=${CHAMPION:-checkpoints/champion}
teacher="search:$budget+$champion"
mkdir -p "$dir"
thread_arg=""
[ "$threads" -gt 0 ] && thread_arg="--threads $threads"

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$dir/stages.log"; }

log "collect: four seats, $games games, teacher $teacher"
$sabacc distil collect --teacher "$teacher" --players 4 --games "$games" --seed 701 \
  --out "$dir/four.samples" $thread_arg --quiet | tee -a "$dir/stages.log"
log "collect: heads-up, $heads_up_games games"
$sabacc distil collect --teacher "$teacher" --players 2 --games "$heads_up_games" --seed 702 \
  --out "$dir/two.samples" $thread_arg --quiet | tee -a "$dir/stages.log"

if [ ! -d "$dir/fit" ]; then
  log "fit from $champion"
  $sabacc distil fit --init "$champion" --data "$dir/four.samples" "$dir/two.samples" \
    --out "$dir/fit" --epochs 8 --lr 1e-4 --temperature 0.02 --quiet | tee -a "$dir/stages.log"
fi

# Heads-up, then the student against three champions (every seating of each deal).
if [ ! -f "$dir/eval-2/report.json" ]; then
  log "eval: student vs champion, heads-up"
  $sabacc eval --agents "$dir/fit,$champion" --games 4000 --seed 95 \
    --out "$dir/eval-2" $thread_arg | tail -20 | tee -a "$dir/stages.log"
fi
if [ ! -f "$dir/eval-4/report.json" ]; then
  log "eval: student vs three champions"
  $sabacc eval --agents "$dir/fit,$champion,$champion,$champion" --games 4008 \
    --seed 96 --out "$dir/eval-4" $thread_arg | tail -20 | tee -a "$dir/stages.log"
fi
log "done"
