#!/usr/bin/env bash
# Peak memory of a batch over every kind of bad input at once, with good pictures among them:
# zero-byte, truncated, a 50,000 x 50,000 PNG header (pixel bomb), a 9999 x 9999 16-bit RGBA
# PNG (800 MB decoded, under 1 MB on disk), a FIFO, a folder named like a picture, a symlink
# loop and a name that is not UTF-8. Runs the release binary under `/usr/bin/time -v` at each
# -j given and prints its exit code, statuses and maximum resident set size.
#
#   benches/hostile.sh [JOBS...]     # default: 1 2 4
#
# Needs GNU time (`/usr/bin/time`) and python3 (to write the 16-bit bomb).
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
done
