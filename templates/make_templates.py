#!/usr/bin/env python3
"""Render the digit glyph templates used by sudoku-snap's template matcher.

For every font in FONTS this writes templates/<slug>/<d>.png for d = 1..9:
8-bit grayscale PNG, black glyph (0) on white (255), anti-aliased, cropped
tight to the ink bounding box (no padding, never rescaled, so the glyph keeps
its true aspect ratio), rendered at the font size where the digits are about
TARGET_HEIGHT px tall.

Usage: make_templates.py [--out DIR] [--height PX] [--only SLUG ...]
Normally run through templates/regenerate.sh, which installs the fonts and a
pinned Pillow. The output is deterministic for a given Pillow version.
"""

import argparse
import os
import statistics
import sys

# Pillow is imported lazily (see _pil) so that --list and --missing-packages
# work with a bare python3, before the venv exists.
Image = ImageDraw = ImageFont = None


def _pil():
    global Image, ImageDraw, ImageFont
    from PIL import Image, ImageDraw, ImageFont  # noqa: F811


TARGET_HEIGHT = 64
DIGITS = "123456789"

# (slug, family / style, Debian package, font file, licence)
FONTS = [
    ("dejavu-sans", "DejaVu Sans", "fonts-dejavu-core",
     "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "Bitstream Vera / DejaVu (free)"),
    ("dejavu-sans-bold", "DejaVu Sans Bold", "fonts-dejavu-core",
     "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "Bitstream Vera / DejaVu (free)"),
    ("dejavu-serif", "DejaVu Serif", "fonts-dejavu-core",
     "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "Bitstream Vera / DejaVu (free)"),
    ("dejavu-serif-bold", "DejaVu Serif Bold", "fonts-dejavu-core",
     "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "Bitstream Vera / DejaVu (free)"),
    ("dejavu-sans-mono", "DejaVu Sans Mono", "fonts-dejavu-core",
     "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "Bitstream Vera / DejaVu (free)"),
    ("liberation-sans", "Liberation Sans", "fonts-liberation2",
     "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf", "OFL-1.1"),
    ("liberation-sans-bold", "Liberation Sans Bold", "fonts-liberation2",
     "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf", "OFL-1.1"),
    ("liberation-serif", "Liberation Serif", "fonts-liberation2",
     "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf", "OFL-1.1"),
    ("liberation-serif-bold", "Liberation Serif Bold", "fonts-liberation2",
     "/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf", "OFL-1.1"),
    ("liberation-mono", "Liberation Mono", "fonts-liberation2",
     "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf", "OFL-1.1"),
    ("noto-sans", "Noto Sans", "fonts-noto-core",
     "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "OFL-1.1"),
    ("noto-sans-bold", "Noto Sans Bold", "fonts-noto-core",
     "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf", "OFL-1.1"),
    ("noto-serif", "Noto Serif", "fonts-noto-core",
     "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", "OFL-1.1"),
    ("noto-sans-mono", "Noto Sans Mono", "fonts-noto-mono",
     "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf", "OFL-1.1"),
    ("roboto", "Roboto", "fonts-roboto-unhinted",
     "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf", "Apache-2.0"),
    ("roboto-medium", "Roboto Medium", "fonts-roboto-unhinted",
     "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Medium.ttf", "Apache-2.0"),
    ("roboto-bold", "Roboto Bold", "fonts-roboto-unhinted",
     "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf", "Apache-2.0"),
    ("roboto-slab", "Roboto Slab", "fonts-roboto-slab",
     "/usr/share/fonts/opentype/roboto/slab/RobotoSlab-Regular.otf", "Apache-2.0"),
    ("open-sans", "Open Sans", "fonts-open-sans",
     "/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf", "Apache-2.0"),
    ("open-sans-bold", "Open Sans Bold", "fonts-open-sans",
     "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf", "Apache-2.0"),
    ("lato", "Lato", "fonts-lato",
     "/usr/share/fonts/truetype/lato/Lato-Regular.ttf", "OFL-1.1"),
    ("lato-bold", "Lato Bold", "fonts-lato",
     "/usr/share/fonts/truetype/lato/Lato-Bold.ttf", "OFL-1.1"),
    ("cantarell", "Cantarell", "fonts-cantarell",
     "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf", "OFL-1.1"),
    ("cantarell-bold", "Cantarell Bold", "fonts-cantarell",
     "/usr/share/fonts/opentype/cantarell/Cantarell-Bold.otf", "OFL-1.1"),
    ("comfortaa", "Comfortaa (rounded)", "fonts-comfortaa",
     "/usr/share/fonts/truetype/comfortaa/Comfortaa-Regular.ttf", "OFL-1.1"),
    ("comfortaa-bold", "Comfortaa Bold (rounded)", "fonts-comfortaa",
     "/usr/share/fonts/truetype/comfortaa/Comfortaa-Bold.ttf", "OFL-1.1"),
    ("quicksand", "Quicksand (rounded)", "fonts-quicksand",
     "/usr/share/fonts/truetype/quicksand/Quicksand-Regular.ttf", "OFL-1.1"),
    ("quicksand-bold", "Quicksand Bold (rounded)", "fonts-quicksand",
     "/usr/share/fonts/truetype/quicksand/Quicksand-Bold.ttf", "OFL-1.1"),
    ("fira-code", "Fira Code (mono)", "fonts-firacode",
     "/usr/share/fonts/truetype/firacode/FiraCode-Regular.ttf", "OFL-1.1"),
]

# Size used for the measuring pass; large so the height ratio is precise.
PROBE_SIZE = 200


def load(path, size):
    # BASIC layout: no dependency on libraqm being present, same result everywhere.
    return ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)


def render(font, ch):
    """Render one character black-on-white and crop it tight to its ink."""
    left, top, right, bottom = font.getbbox(ch)
    margin = 8
    w = (right - left) + 2 * margin
    h = (bottom - top) + 2 * margin
    img = Image.new("L", (w, h), 255)
    ImageDraw.Draw(img).text((margin - left, margin - top), ch, font=font, fill=0)
    # Ink bounding box: every pixel that is not pure white.
    ink = img.point(lambda v: 255 - v).getbbox()
    if ink is None:
        raise RuntimeError("glyph %r rendered no ink" % ch)
    x0, y0, x1, y1 = ink
    # A margin-touching ink box would mean getbbox under-estimated: refuse.
    if x0 == 0 or y0 == 0 or x1 == w or y1 == h:
        raise RuntimeError("glyph %r touches the canvas edge" % ch)
    return img.crop(ink)


def size_for(path, target):
    """Font size whose median digit ink height (digits 1-9) is about target px."""
    probe = load(path, PROBE_SIZE)
    heights = [render(probe, d).height for d in DIGITS]
    size = max(1, round(PROBE_SIZE * target / statistics.median(heights)))
    return size


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=here, help="output directory (default: this script's directory)")
    ap.add_argument("--height", type=int, default=TARGET_HEIGHT, help="target digit height in px")
    ap.add_argument("--only", nargs="*", help="only these slugs")
    ap.add_argument("--list", action="store_true", help="print the font table (markdown) and exit")
    ap.add_argument("--missing-packages", action="store_true",
                    help="print the Debian packages whose font files are missing, and exit")
    args = ap.parse_args(argv)

    if args.missing_packages:
        missing = sorted({pkg for _s, _f, pkg, path, _l in FONTS if not os.path.isfile(path)})
        print(" ".join(missing))
        return 0

    if args.list:
        print("| slug | family / style | Debian package | licence |")
        print("| --- | --- | --- | --- |")
        for slug, family, pkg, _path, lic in FONTS:
            print("| `%s` | %s | `%s` | %s |" % (slug, family, pkg, lic))
        return 0

    _pil()
    failed = []
    for slug, family, pkg, path, _lic in FONTS:
        if args.only and slug not in args.only:
            continue
        if not os.path.isfile(path):
            print("MISSING %-22s %s (apt-get install %s)" % (slug, path, pkg), file=sys.stderr)
            failed.append(slug)
            continue
        size = size_for(path, args.height)
        font = load(path, size)
        outdir = os.path.join(args.out, slug)
        os.makedirs(outdir, exist_ok=True)
        dims = []
        for d in DIGITS:
            glyph = render(font, d)
            # optimize=True is deterministic and a little smaller; no metadata is written.
            glyph.save(os.path.join(outdir, "%s.png" % d), format="PNG", optimize=True)
            dims.append("%dx%d" % glyph.size)
        print("%-22s size %3d  %s" % (slug, size, " ".join(dims)))
    if failed:
        print("failed: %s" % ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
