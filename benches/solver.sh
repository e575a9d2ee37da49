#!/usr/bin/env bash
# The solver against the `sudoku` crate 0.8 (the reference of issue 15), one thread pinned to
# one cpu, in one run so that the machine's speed is the same for both:
#
#   1. the reference's timed loop: `solver-peers --solver sudoku --mode count2 --runs 3`
#      (shared/tools/solver-peers, built here from a copy), median puzzles/s;
#   2. our `solve` command as a whole process: `sudoku-snap solve --count -j 1 -f line FILE`,
#      5 runs, median cpu time (user + sys, from bash's `time`) turned into puzzles/s, start-up,
#      reading and printing included;
#   3. our solver's timed loop, timed the reference's way (examples/solver_rate.rs);
#   4. the reference again, to show how far the machine drifted.
#
# Ratios: 2 / 1 ("process") and 3 / 1 ("loop"), each against the lower and the higher of the
# two reference figures. Files: magictour_top1465 ten times over (timed loop: once),
# 17_clue whole, forum_hardest_1905_11plus first 20,000.
#
#   benches/solver.sh            # about 2 minutes
#   SOLVER_PEERS=/path/to/solver-peers benches/solver.sh
#   SUDOKU_SNAP_BIN=... SOLVER_RATE_BIN=... benches/solver.sh   # another build (e.g. the last
#                                                               # release) instead of this tree's
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
puzzles=${PUZZLES:-$root/../shared/data/puzzles}
peers_src=${SOLVER_PEERS:-$root/../shared/tools/solver-peers}
cpu=${BENCH_CPU:-1}
work=$(mktemp -d /tmp/sudoku-snap-solver-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

target=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${SUDOKU_SNAP_BIN:-}${SOLVER_RATE_BIN:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" --bin sudoku-snap --example solver_rate >&2
fi
bin=${SUDOKU_SNAP_BIN:-$target/release/sudoku-snap}
rate=${SOLVER_RATE_BIN:-$target/release/examples/solver_rate}
cp -r "$peers_src" "$work/peers"
rm -rf "$work/peers/target"
# Its own target folder: a CARGO_TARGET_DIR set for our build must not move it.
CARGO_TARGET_DIR="$work/peers/target" cargo build --release --quiet --manifest-path "$work/peers/Cargo.toml" >&2
peers=$work/peers/target/release/solver-peers

for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$puzzles/magictour_top1465.txt"; done >"$work/top1465x10.txt"
head -n 20000 "$puzzles/forum_hardest_1905_11plus.txt" >"$work/11plus_20k.txt"

# The reference's median puzzles/s on FILE (its own timed loop; its check pass is untimed).
reference() {
    taskset -c "$cpu" "$peers" --solver sudoku --mode count2 --runs 3 "$1" |
        tail -n 1 | cut -d'|' -f7 | tr -d ' '
}

# Median cpu seconds (user + sys) of 5 whole runs of our solve command on FILE, after one
# untimed run that also checks every puzzle came out unique.
process_cpu() {
    local file=$1 lines
    lines=$(taskset -c "$cpu" "$bin" solve --count -j 1 -f line "$file" | grep -c ' 1$')
    [ "$lines" = "$(grep -c . "$file")" ] || { echo "not every puzzle unique in $file" >&2; exit 1; }
    local TIMEFORMAT='%U %S'
    for _ in 1 2 3 4 5; do
        { time taskset -c "$cpu" "$bin" solve --count -j 1 -f line "$file" >/dev/null; } 2>&1
    done | awk '{print $1 + $2}' | sort -n | sed -n 3p
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cpu $cpu"
printf '| puzzles | sudoku 0.8 timed loop (before / after) | ours, whole process | ours, timed loop | ratio process | ratio loop |\n'
printf '|---|---:|---:|---:|---:|---:|\n'
for set in top1465 17_clue 11plus; do
    case $set in
    top1465) ref_file=$puzzles/magictour_top1465.txt proc_file=$work/top1465x10.txt ;;
    17_clue) ref_file=$puzzles/17_clue.txt proc_file=$puzzles/17_clue.txt ;;
    11plus) ref_file=$work/11plus_20k.txt proc_file=$work/11plus_20k.txt ;;
    esac
    before=$(reference "$ref_file")
    seconds=$(process_cpu "$proc_file")
    count=$(grep -c . "$proc_file")
    ours=$(awk -v n="$count" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
    loop=$(taskset -c "$cpu" "$rate" "$ref_file" | sed 's/.*median \([0-9]*\).*/\1/')
    after=$(reference "$ref_file")
    awk -v set="$set" -v n="$count" -v s="$seconds" -v b="$before" -v a="$after" -v o="$ours" -v l="$loop" 'BEGIN {
        lo = b < a ? b : a; hi = b < a ? a : b
        printf "| %s (%d) | %d / %d | %d/s (%.3f s cpu) | %d/s | %.2f-%.2fx | %.2f-%.2fx |\n",
            set, n, b, a, o, s, l, o / hi, o / lo, l / hi, l / lo
    }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
