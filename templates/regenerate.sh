#!/usr/bin/env bash
# Regenerate the digit templates in templates/<slug>/<d>.png.
#
#   bash templates/regenerate.sh            # from the repo root (or anywhere)
#
# 1. installs the Debian font packages whose files are missing (apt-get, needs root
#    or sudo; skipped entirely when every font file is already present);
# 2. fetches the pinned @fontsource npm packages whose files are missing (`npm pack`) into
#    target/screens-fonts/, the cache bench/screens/make.sh fills too ($FONTS_CACHE overrides);
# 3. creates a venv in /tmp with a pinned Pillow from PyPI (reused when present);
# 4. runs make_templates.py, which overwrites the PNGs in place.
# Re-runnable; the output is byte-identical between runs for the pinned Pillow.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PILLOW_VERSION="${PILLOW_VERSION:-11.3.0}"
VENV="${TEMPLATES_VENV:-/tmp/sudoku-snap-templates-venv}"
PY="${PYTHON:-python3}"

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
apt_install() {
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
        install -y --no-install-recommends "$@"
}

if ! command -v "$PY" >/dev/null; then
    $SUDO apt-get update
    apt_install python3 python3-venv
fi

# 1. fonts (the list of packages comes from the FONTS table in make_templates.py)
missing="$("$PY" "$HERE/make_templates.py" --missing-packages)"
if [ -n "$missing" ]; then
    echo "installing font packages: $missing"
    $SUDO apt-get update
    # shellcheck disable=SC2086
    apt_install $missing
else
    echo "all font files present, skipping apt-get"
fi

# 2. npm font packages (pinned versions in FONTS; cached)
if ! command -v npm >/dev/null; then
    $SUDO apt-get update
    apt_install npm
fi
"$PY" "$HERE/make_templates.py" --fetch-npm

# 3. venv with pinned Pillow (its wheel bundles FreeType, so rendering is reproducible)
if ! "$VENV/bin/python" -c "import PIL, sys; sys.exit(PIL.__version__ != '$PILLOW_VERSION')" 2>/dev/null; then
    rm -rf "$VENV"
    if ! "$PY" -m venv "$VENV" 2>/dev/null; then
        rm -rf "$VENV"
        $SUDO apt-get update
        apt_install python3-venv
        "$PY" -m venv "$VENV"
    fi
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "Pillow==$PILLOW_VERSION"
fi

# 4. render (the old-style faces need Pillow's raqm layout: libraqm0, pulled in by fonts-* deps
#    or `apt-get install libraqm0` when Pillow reports it missing)
"$VENV/bin/python" "$HERE/make_templates.py" --out "$HERE" "$@"
