#!/bin/sh
# Builds the seed corpora in fuzz/corpus/{text,decode,pipeline} from samples/, the README and
# docs/ and (when present beside the repository) ../shared/data/puzzles. Run from anywhere.
set -eu
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$fuzz")
corpus="$fuzz/corpus"
mkdir -p "$corpus/text"

# text: each sample's ground truth, the code blocks of README.md and docs/*.md (the text
# puzzles' examples live in docs/text-puzzles.md), a few lines of each data file.
for f in "$root"/samples/*.txt; do
    cp "$f" "$corpus/text/sample-$(basename "$f")"
done
for doc in "$root/README.md" "$root"/docs/*.md; do
    name=$(basename "$doc" .md | tr 'A-Z' 'a-z')
    awk '/^```/ { if (block) { close(out); block = 0 } else { block = 1; n++; out = sprintf("%s/%s-%02d.txt", dir, name, n) }; next }
         block { print > out }' dir="$corpus/text" name="$name" "$doc"
done
if [ -d "$root/../shared/data/puzzles" ]; then
    for f in "$root"/../shared/data/puzzles/*.txt; do
        head -n 20 "$f" > "$corpus/text/data-$(basename "$f")"
    done
fi

# decode and pipeline: shrunk, re-encoded samples (see examples/seed.rs).
cargo run --quiet --release --manifest-path "$fuzz/Cargo.toml" --example seed -- "$root/samples" "$corpus"
