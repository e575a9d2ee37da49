#!/usr/bin/env bash
# Batch throughput and peak memory: builds a folder of N copies of the sample screenshots in
# /tmp and runs the release binary on it with -j 1 and -j 2 under `/usr/bin/time -v`,
# printing images/s and the maximum resident set size of each run.
#
#   benches/batch.sh [N] [mix|phone]     # default: 500 mix
#
# mix: copies of every sample (PNG, JPEG, WebP; 300x300 to 1170x2532), round robin.
# phone: copies of samples/phone-1170x2532.png only (a phone-sized screenshot).
# Needs GNU time (`/usr/bin/time`); on Debian/Ubuntu: apt-get install time (installed below
# when missing and running as root).
set -euo pipefail
n=${1:-500}
kind=${2:-mix}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x /usr/bin/time ]; then
    echo "installing GNU time (apt-get install time)" >&2
    apt-get install -y time >/dev/null
fi
# SUDOKU_SNAP_BIN runs another build (e.g. of a clean checkout) instead of this tree's.
if [ -z "${SUDOKU_SNAP_BIN:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
fi
bin=${SUDOKU_SNAP_BIN:-$root/target/release/sudoku-snap}
work=$(mktemp -d /tmp/sudoku-snap-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shots"
if [ "$kind" = phone ]; then
    samples=("$root/samples/phone-1170x2532.png")
else
    samples=("$root"/samples/*.png "$root"/samples/*.jpg "$root"/samples/*.webp)
fi
for ((i = 0; i < n; i++)); do
    s=${samples[$((i % ${#samples[@]}))]}
    cp "$s" "$work/shots/$(printf %05d "$i")-$(basename "$s")"
done
echo "$n $kind screenshots in $work/shots ($(du -sh "$work/shots" | cut -f1)), $(nproc) cores"
for jobs in 1 2; do
    rm -rf "$work/out"
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
    /usr/bin/time -v -o "$work/time.txt" "$bin" "$work/shots" -o "$work/out/" -j "$jobs" -q \
        --report "$work/report.jsonl" >/dev/null 2>"$work/stderr.txt" || true
    secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
        for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
    solved=$(grep -c '"status":"solved"' "$work/report.jsonl" || true)
    written=$(find "$work/out" -type f | wc -l)
    cpu=$(awk -F': ' '/Percent of CPU/ {print $2}' "$work/time.txt")
    # CPU seconds per image do not depend on what else the machine runs; wall time does.
    cpu_s=$(awk -F': ' '/(User|System) time/ {s += $2} END {print s}' "$work/time.txt")
    echo "-j $jobs: $n images in ${secs} s = $(awk -v n="$n" -v s="$secs" 'BEGIN {printf "%.1f", n / s}') images/s, CPU $cpu ($(awk -v n="$n" -v s="$cpu_s" 'BEGIN {printf "%.1f", 1000 * s / n}') ms CPU per image), max RSS ${rss} MB, $solved solved, $written written (load average before: $load)"
done
