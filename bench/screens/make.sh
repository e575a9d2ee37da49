#!/usr/bin/env bash
# Builds the screenshot benchmark into target/screens/ (see bench/screens/README.md).
#
#   bash bench/screens/make.sh [--count N] [--seed S] [--jobs J] [--pencil-mistakes P] [--round R]
#   bash bench/screens/make.sh --tests DIR [--only NAME...]
#
# Installs what it needs (Debian fonts-* packages, a Python venv with pinned Pillow/numpy/
# fontTools, @fontsource packages via `npm pack` cached in target/screens-fonts/), builds the
# release binary for the puzzles, then renders. --pencil-mistakes P makes about that share of
# the marked cells leave out their answer. With --tests DIR it renders only the pictures of
# tests/data/reading into DIR (with --only, just the ones named). --round R draws the families
# from round R of fonts.csv (default 1; 2 = the families added in the twenty-first session; 3 and 4:
# handwriting, added in the twenty-ninth and thirtieth). Environment:
# CARGO_TARGET_DIR (default target), SCREENS_OUT (default target/screens), SCREENS_VENV
# (default /tmp/sudoku-snap-screens-venv).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

count=1200 seed=1 jobs=2 tests="" mistakes=0 round=1 only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --tests) tests="$2"; shift 2 ;;
    --pencil-mistakes) mistakes="$2"; shift 2 ;;
    --round) round="$2"; shift 2 ;;
    --only) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do only+=("$1"); shift; done ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

target="${CARGO_TARGET_DIR:-$repo/target}"
out="${SCREENS_OUT:-$repo/target/screens}"
cache="$repo/target/screens-fonts"
venv="${SCREENS_VENV:-/tmp/sudoku-snap-screens-venv}"
start=$(date +%s)
step() { echo "[$(($(date +%s) - start))s] $*"; }

# 1. Debian packages: the fonts of fonts.csv whose source is apt:, npm and Python.
apt_pkgs=$(awk -F, 'NR > 1 && $2 ~ /^apt:/ { sub(/^apt:/, "", $2); print $2 }' "$here/fonts.csv" | sort -u)
missing=""
for p in $apt_pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
command -v npm >/dev/null || missing="$missing npm"
python3 -c "import venv, ensurepip" 2>/dev/null || missing="$missing python3 python3-venv"
if [ -n "$missing" ]; then
  step "apt-get install$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# 2. Python venv with pinned packages.
if ! "$venv/bin/python" -c "import PIL, numpy, fontTools" 2>/dev/null; then
  step "python venv in $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "Pillow==11.3.0" "numpy==2.2.6" "fonttools==4.59.0"
fi
py="$venv/bin/python"

# 3. Fonts from npm (@fontsource), cached.
step "fonts: npm pack into $cache"
nice -n 5 "$py" "$here/fonts.py" fetch "$cache"
"$py" "$here/fonts.py" check "$cache"

# 4. Puzzles from the project's own generator (every one has exactly one solution).
step "cargo build --release (puzzles)"
cargo build --release --quiet --bin sudoku-snap
bin="$target/release/sudoku-snap"
work="$repo/target/screens-work"
mkdir -p "$work"
n=$(( count > 100 ? count : 100 ))
"$bin" generate -n "$n" --seed "$seed" > "$work/puzzles-$seed.txt"
"$bin" solve -f line "$work/puzzles-$seed.txt" > "$work/solutions-$seed.txt"
paste -d' ' "$work/puzzles-$seed.txt" "$work/solutions-$seed.txt" > "$work/pairs-$seed.txt"

# 5. Render.
if [ -n "$tests" ]; then
  step "rendering the test pictures into $tests"
  nice -n 5 "$py" "$here/render.py" --fonts "$cache" --puzzles "$work/pairs-$seed.txt" --tests "$tests" \
    ${only[@]+--only "${only[@]}"}
else
  step "rendering $count pictures into $out ($jobs processes)"
  rm -rf "$out"
  nice -n 5 "$py" "$here/render.py" --fonts "$cache" --puzzles "$work/pairs-$seed.txt" \
    --out "$out" --count "$count" --seed "$seed" --jobs "$jobs" --pencil-mistakes "$mistakes" --round "$round"
  for s in tune validate; do
    for d in "$out/$s"/*/; do
      echo "  $s/$(basename "$d"): $(ls "$d" | grep -vc '\.txt$') pictures"
    done
  done
fi
step "done: ${tests:-$out}"
[ -n "$tests" ] || echo "score: cargo run --release --example accuracy -- $out/tune $out/validate"
