#!/usr/bin/env bash
# One screenshot end to end, as whole processes: the release binary (`sudoku-snap IN -o OUT`)
# against the floor program (examples/floor.rs: decode IN and encode OUT with the same `image`
# crate, nothing else), run in turn A B A B ... so that drift of the machine's speed hits both
# alike; the ratio is taken pair by pair and its median reported. Also the start-up: the binary
# on an 8x8 picture with no grid (it fails fast, exit 1), against the floor on the same picture.
#
#   benches/whole.sh [RUNS]        # default 21 pairs per picture
#
# Pictures: samples/phone-1170x2532.png (phone-sized) and samples/classic-dejavu-light.png
# (760x760); the phone once more against the floor given huge pages as the tool takes them.
# Uses `hyperfine` when it is on PATH (it reports mean, min/max of each side and the ratio);
# otherwise times the pairs itself with the shell's monotonic clock.
# Run it on an idle machine: it measures wall time.
set -euo pipefail
runs=${1:-21}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --manifest-path "$root/Cargo.toml" --bin sudoku-snap --example floor >&2
target=${CARGO_TARGET_DIR:-$root/target}
bin=$target/release/sudoku-snap
floor=$target/release/examples/floor
work=$(mktemp -d /tmp/sudoku-snap-whole.XXXXXX)
trap 'rm -rf "$work"' EXIT
# An 8x8 white PNG: no grid, so the run is start-up, decode and a failed locate.
python3 - "$work/tiny.png" <<'PY' 2>/dev/null || "$floor" "$root/samples/classic-dejavu-light.png" "$work/tiny.png"
import sys, zlib, struct
raw = b"".join(b"\x00" + b"\xff" * 24 for _ in range(8))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
PY

echo "$(date -u +%FT%TZ), $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
own_pairs() {
    # $1 label, then the two commands as strings; prints the median of each side and of A/B.
    local label=$1 a=$2 b=$3 i ta tb
    local -a as bs rs
    for ((i = 0; i <= runs; i++)); do
        local t0 t1 t2
        t0=$(date +%s%N); sh -c "$a" >/dev/null 2>&1 || true; t1=$(date +%s%N)
        sh -c "$b" >/dev/null 2>&1 || true; t2=$(date +%s%N)
        ((i == 0)) && continue # warm-up pair
        ta=$((t1 - t0)); tb=$((t2 - t1))
        as+=("$ta"); bs+=("$tb"); rs+=("$(awk -v a="$ta" -v b="$tb" 'BEGIN {printf "%.4f", a / b}')")
    done
    med() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
    echo "$label: tool $(awk -v n="$(med "${as[@]}")" 'BEGIN {printf "%.1f", n / 1e6}') ms, floor $(awk -v n="$(med "${bs[@]}")" 'BEGIN {printf "%.1f", n / 1e6}') ms, ratio $(med "${rs[@]}") (median of $runs pairs, wall time including the shell's fork)"
}
compare() {
    # $4, when given, is an environment for the floor's process; then both sides start
    # through `env`, so that its exec is on both.
    local label=$1 input=$2 ext=$3 floor_env=${4:-}
    local a="$bin $input -o $work/out-tool.$ext --overwrite -q"
    local b="$floor $input $work/out-floor.$ext"
    if [ -n "$floor_env" ]; then
        a="env SUDOKU_SNAP_WHOLE=1 $a"
        b="env $floor_env $b"
    fi
    if command -v hyperfine >/dev/null; then
        echo "== $label (hyperfine, whole processes, first = tool, second = floor)"
        hyperfine -N --warmup 1 --runs "$runs" "$a" "$b"
    else
        own_pairs "$label" "$a" "$b"
    fi
}
compare "phone 1170x2532 PNG" "$root/samples/phone-1170x2532.png" png
compare "760x760 PNG" "$root/samples/classic-dejavu-light.png" png
compare "start-up (8x8, no grid)" "$work/tiny.png" png
# The tool's allocator advises huge pages under large blocks (src/app/huge_pages.rs); glibc's
# tunable gives the floor the same advice, for the ratio to a floor that saves those faults too.
compare "phone 1170x2532 PNG, the floor with glibc.malloc.hugetlb=1" \
    "$root/samples/phone-1170x2532.png" png GLIBC_TUNABLES=glibc.malloc.hugetlb=1
