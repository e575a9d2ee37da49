#!/usr/bin/env bash
# Peak memory of a batch over every kind of bad input at once, with good pictures among them:
# zero-byte, truncated, a 50,000 x 50,000 PNG header (pixel bomb), a 9999 x 9999 16-bit RGBA
# PNG (800 MB decoded, under 1 MB on disk), a FIFO, a folder named like a picture, a symlink
# loop, a name that is not UTF-8, and the decoder bombs of issue 57 (benches/bombs.py: a
# 38-byte lossless WebP of 16383 x 6100, progressive and baseline JPEGs, a GIF, an RLE8 BMP
# and an interlaced PNG of 10,000^2, PNGs whose iCCP / zTXt / iTXt chunk inflates to 2 GB).
# Runs the release binary under `/usr/bin/time -v` at each -j given, prints its exit code,
# statuses and maximum resident set size, and fails (exit 1, saying why) unless: the exit
# code is 1, the good pictures are solved, each bomb is refused by name with the memory it
# needs against --max-memory (the PNGs with huge chunks are read, the chunk skipped), and the
# peak stays under HOSTILE_MAX_RSS_MB (default 300) at every -j. Then a picture on stdin
# that never ends must be refused within the same peak.
#
#   benches/hostile.sh [JOBS...]     # default: 1 2 4
#
# Needs GNU time (`/usr/bin/time`), python3 with numpy and Pillow (the bombs), ~20 MB of
# disk and a minute to write them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(1 2 4)
if [ -z "${SUDOKU_SNAP_BIN:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
fi
bin=${SUDOKU_SNAP_BIN:-$root/target/release/sudoku-snap}
work=$(mktemp -d /tmp/sudoku-snap-hostile.XXXXXX)
trap 'rm -rf "$work"' EXIT
shots=$work/shots
mkdir -p "$shots/folder.png"
cp "$root/samples/classic-dejavu-light.png" "$shots/good1.png"
cp "$root/samples/phone-1170x2532.png" "$shots/good2.png"
cp "$root/samples/lato-light.jpg" "$shots/good3.jpg"
cp "$root/samples/classic-dejavu-light.png" "$shots/good$(printf '\377')4.png"
: > "$shots/zero.png"
head -c 20000 "$root/samples/classic-dejavu-light.png" > "$shots/truncated.png"
mkfifo "$shots/fifo.png"
ln -s loop.png "$shots/loop.png"
python3 - "$shots" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
def png(path, side, depth, colour, rows):
    head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, depth, colour, 0, 0, 0))
    open(path, "wb").write(head + rows + chunk(b"IEND", b""))
shots = sys.argv[1]
png(f"{shots}/bomb.png", 50000, 8, 2, b"")
side = 9999
z = zlib.compressobj(9)
row = b"\0" + b"\x80" * (side * 8)
data = b"".join(z.compress(row) for _ in range(side)) + z.flush()
png(f"{shots}/bomb16.png", side, 16, 6, chunk(b"IDAT", data))
PY
python3 "$root/benches/bombs.py" "$shots"
max_rss_mb=${HOSTILE_MAX_RSS_MB:-300}
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
# The bombs no scale brings within the default --max-memory: refused by name before decoding.
refused=(webp-lossless.webp jpeg-progressive.jpg jpeg-baseline.jpg gif.gif bmp-rle8.bmp png-interlaced.png)
# Pictures whose chunk would inflate to 2 GB: read with the chunk skipped (no grid in them).
skipped=(png-iccp.png png-ztxt.png png-itxt.png)
echo "inputs: $(ls "$shots" | wc -l) entries, $(du -sh "$shots" | cut -f1) on disk; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
for j in "${jobs[@]}"; do
    rm -rf "$work/out"
    set +e
    /usr/bin/time -v "$bin" "$shots" "$shots/folder.png" -j "$j" -q -f line -o "$work/out/" \
        > "$work/stdout" 2> "$work/stderr"
    code=$?
    set -e
    rss=$(grep 'Maximum resident set size' "$work/stderr" | awk '{print $NF}')
    wall=$(grep 'Elapsed (wall clock)' "$work/stderr" | awk '{print $NF}')
    statuses=$(cut -f2 "$work/stdout" | sed 's/^[1-9]\{81\}$/solved/' | sort | uniq -c | tr -s ' ' | paste -sd, -)
    echo "-j $j: exit $code, peak RSS $((rss / 1024)) MB, wall $wall, outputs $(ls "$work/out" | wc -l); statuses:$statuses"
    [ "$code" -eq 1 ] || fail "-j $j: exit $code, expected 1 (some inputs fail)"
    [ $((rss / 1024)) -lt "$max_rss_mb" ] || fail "-j $j: peak RSS $((rss / 1024)) MB, over $max_rss_mb MB"
    solved=$(cut -f2 "$work/stdout" | grep -c '^[1-9]\{81\}$' || true)
    [ "$solved" -eq 4 ] || fail "-j $j: $solved good pictures solved, expected 4"
    for name in "${refused[@]}"; do
        grep -q "^$shots/$name	error" "$work/stdout" || fail "-j $j: $name is not reported as an error"
        grep -q "$shots/$name: decoding it needs [0-9]* MB, over the limit of [0-9]* MB" "$work/stderr" \
            || fail "-j $j: no message naming $name and the memory it needs"
    done
    for name in "${skipped[@]}"; do
        grep -q "^$shots/$name	no_grid" "$work/stdout" || fail "-j $j: $name is not read with its chunk skipped"
    done
done
# A picture on stdin that never ends: refused once it passes the budget, not held further.
set +e
{ printf '\211PNG\r\n\032\n'; cat /dev/zero; } 2> /dev/null \
    | /usr/bin/time -v "$bin" - -o "$work/stdin.png" > /dev/null 2> "$work/stderr"
code=${PIPESTATUS[1]}
set -e
rss=$(grep 'Maximum resident set size' "$work/stderr" | awk '{print $NF}')
echo "stdin without end: exit $code, peak RSS $((rss / 1024)) MB"
[ "$code" -eq 1 ] || fail "stdin: exit $code, expected 1"
grep -q "^error: -: .*more than [0-9]* MB to read, over --max-memory" "$work/stderr" \
    || fail "stdin: no message saying the picture is over --max-memory"
[ $((rss / 1024)) -lt "$max_rss_mb" ] || fail "stdin: peak RSS $((rss / 1024)) MB, over $max_rss_mb MB"
if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "all checks passed"
