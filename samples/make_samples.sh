#!/usr/bin/env bash
# Regenerate the bundled sample screenshots (samples/*.png|jpg|webp + *.txt)
# and tests/data/no-grid.png.  Usage: bash samples/make_samples.sh [--only NAME,...]
# Needs Debian (apt) for headless Chromium, fonts and ImageMagick; installs
# whatever is missing (run as root, or with sudo available).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

pkgs=(chromium imagemagick
      fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-noto-core
      fonts-noto-mono fonts-roboto fonts-roboto-slab fonts-open-sans fonts-comfortaa
      fonts-firacode fonts-cantarell fonts-lato)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
fc-cache -f >/dev/null 2>&1 || true

families="$(fc-list : family | tr ',' '\n' | sort -u)"
# every font family the pages use must really be installed (no silent fallback)
for fam in "DejaVu Sans" "DejaVu Sans Mono" "Liberation Sans" "Liberation Serif" \
           "Noto Sans" "Noto Serif" "Roboto" "Roboto Slab" "Open Sans" "Comfortaa" \
           "Fira Code" "Cantarell" "Lato"; do
  grep -qx "$fam" <<<"$families" || { echo "font missing: $fam" >&2; exit 1; }
done

exec python3 "$here/make_samples.py" "$@"
