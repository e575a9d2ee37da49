#!/usr/bin/env python3
"""Font list of the screenshot benchmark: fetch, probe and split.

    fonts.py fetch CACHE          npm packages of fonts.csv -> CACHE/<id>/ (latin .woff files only)
    fonts.py probe CACHE          re-measure figures/weights/files of every family in fonts.csv
    fonts.py check CACHE          fail unless every family has a usable font (digits 1-9 drawn)

fonts.csv columns: family, source (apt:<package> or npm:@fontsource/<id>), category, width,
figures (lining | oldstyle = default digits are old-style | lining+onum = lining, old-style
with the OpenType feature onum), weights (space-separated usWeightClass values available),
split (tune | validate), files (apt only: weight=path under /usr/share/fonts, space-separated),
round (1: the first 280 families; 2: 146 families added later, so that the reader could be
scored on families nobody had looked at when they were added; 3: 27 handwriting families added
in the twenty-ninth session, when unseen handwriting was most of what validate still misread;
4: 42 more handwriting and script families added in the thirtieth session, when round 3's tune
families no longer showed new misreadings; render.py draws from one round).

The split is by family: sha1("sudoku-snap:" + family) mod 3 == 0 -> validate, else tune, except
that the families the bundled templates come from are always tune.
"""

import csv
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = os.path.join(HERE, "fonts.csv")
COLUMNS = ["family", "source", "category", "width", "figures", "weights", "split", "files", "round"]

# Families of templates/ (see templates/README.md): never validate.
TEMPLATE_FAMILIES = {
    "DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono",
    "Liberation Sans", "Liberation Serif", "Liberation Mono",
    "Noto Sans", "Noto Serif", "Noto Sans Mono",
    "Roboto", "Roboto Slab", "Open Sans", "Lato", "Cantarell",
    "Comfortaa", "Quicksand", "Fira Code",
}


def split_of(family):
    if family in TEMPLATE_FAMILIES:
        return "tune"
    h = int(hashlib.sha1(("sudoku-snap:" + family).encode()).hexdigest(), 16)
    return "validate" if h % 3 == 0 else "tune"


def read_rows(round_=None):
    """The rows of fonts.csv, only those of one round when `round_` is given."""
    with open(CSV, newline="") as f:
        rows = list(csv.DictReader(f))
    return [r for r in rows if round_ is None or r["round"] == str(round_)]


def write_rows(rows):
    with open(CSV, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in COLUMNS})


def npm_id(source):
    """'npm:@fontsource/x' or '@fontsource/x@1.2.3' -> 'x' (the cache folder)."""
    return source.split("/", 1)[1].split("@", 1)[0]


def fetch_one(cache, pkg, force=False):
    """npm pack `pkg` and keep its licence, package.json and latin .woff files in
    cache/<id>/; skipped when already done unless `force`. Returns (id, what happened)."""
    ident = npm_id(pkg)
    dest = os.path.join(cache, ident)
    if os.path.exists(os.path.join(dest, ".done")) and not force:
        return ident, "cached"
    tmp = tempfile.mkdtemp(prefix="npm-", dir=cache)
    try:
        out = subprocess.run(["npm", "pack", "--silent", pkg], cwd=tmp, capture_output=True,
                             text=True, timeout=600)
        if out.returncode != 0:
            return ident, "FAILED: " + out.stderr.strip()[-300:]
        tgz = glob.glob(os.path.join(tmp, "*.tgz"))[0]
        os.makedirs(os.path.join(dest, "files"), exist_ok=True)
        with tarfile.open(tgz) as t:
            for m in t.getmembers():
                name = m.name
                keep = (name in ("package/LICENSE", "package/package.json")
                        or (name.startswith("package/files/") and "-latin-" in name
                            and "-latin-ext-" not in name and name.endswith("-normal.woff")))
                if keep and m.isfile():
                    data = t.extractfile(m).read()
                    with open(os.path.join(dest, name[len("package/"):]), "wb") as f:
                        f.write(data)
        open(os.path.join(dest, ".done"), "w").close()
        return ident, "fetched"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fetch(cache):
    os.makedirs(cache, exist_ok=True)
    pkgs = sorted({r["source"][4:] for r in read_rows() if r["source"].startswith("npm:")})
    failed = []
    with ThreadPoolExecutor(4) as ex:
        for ident, what in ex.map(lambda p: fetch_one(cache, p), pkgs):
            if what.startswith("FAILED"):
                failed.append(ident)
                print(f"  {ident}: {what}", file=sys.stderr)
    print(f"fonts: {len(pkgs) - len(failed)}/{len(pkgs)} npm font packages in {cache}")
    return failed


def family_files(row, cache):
    """{weight: absolute path} of upright, normal-width faces of a family."""
    src = row["source"]
    if src.startswith("npm:"):
        ident = npm_id(src)
        out = {}
        for p in glob.glob(os.path.join(cache, ident, "files", f"{ident}-latin-*-normal.woff")):
            w = os.path.basename(p)[len(ident) + len("-latin-"):].split("-")[0]
            if w.isdigit():
                out[int(w)] = p
        return out
    out = {}
    for item in row.get("files", "").split():
        w, path = item.split("=", 1)
        out[int(w)] = os.path.join("/usr/share/fonts", path)
    return out


def apt_faces(package, family):
    from fontTools.ttLib import TTFont

    listing = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True).stdout
    faces = {}
    for path in sorted(listing.split()):
        if not path.lower().endswith((".ttf", ".otf")) or not os.path.isfile(path):
            continue
        try:
            f = TTFont(path, lazy=True)
            name = f["name"]
            fam = (name.getDebugName(16) or name.getDebugName(1) or "").strip()
            sub = (name.getDebugName(17) or name.getDebugName(2) or "").lower()
            os2 = f["OS/2"]
        except Exception:
            continue
        if fam.lower() != family.lower():
            continue
        if os2.fsSelection & 1 or "italic" in sub or "oblique" in sub:
            continue
        if os2.usWidthClass != 5 and "narrow" not in family.lower():
            continue
        if any(k in sub for k in ("display", "caption", "subhead", "small", "slanted", "math")):
            continue
        w = int(os2.usWeightClass)
        if w < 100:  # old fonts report 1-9
            w *= 100
        rel = os.path.relpath(path, "/usr/share/fonts")
        if w not in faces or path.endswith(".ttf"):
            faces[w] = rel
    return faces


def digit_figures(path):
    """('lining' | 'oldstyle' | 'lining+onum', ok) where ok = digits 1-9 drawn and distinct."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(path, 64)

    def glyph(ch, features=None):
        im = Image.new("L", (160, 160), 0)
        ImageDraw.Draw(im).text((40, 120), ch, font=font, fill=255, anchor="ls",
                                features=features)
        return im

    bitmaps = [glyph(str(d)).tobytes() for d in range(1, 10)]
    boxes = [glyph(str(d)).getbbox() for d in range(1, 10)]
    ok = all(b is not None for b in boxes) and len(set(bitmaps)) == 9
    if not ok:
        return "lining", False
    tops = {d: 120 - boxes[d - 1][1] for d in range(1, 10)}  # height above the baseline
    bottoms = {d: boxes[d - 1][3] - 120 for d in range(1, 10)}  # depth below it
    oldstyle = tops[1] < 0.85 * tops[8] or bottoms[4] > 0.12 * tops[8]
    if oldstyle:
        return "oldstyle", True
    try:
        onum = [glyph(str(d), ["onum"]).tobytes() for d in (1, 3, 4, 7)]
        if any(a != bitmaps[d - 1] for a, d in zip(onum, (1, 3, 4, 7))):
            return "lining+onum", True
    except Exception:
        pass
    return "lining", True


def probe(cache):
    rows = read_rows()
    keep = []
    for r in rows:
        if r["source"].startswith("apt:"):
            faces = apt_faces(r["source"][4:], r["family"])
            r["files"] = " ".join(f"{w}={p}" for w, p in sorted(faces.items()))
        files = family_files(r, cache)
        usable = {}
        figures = None
        for w, p in sorted(files.items()):
            try:
                fig, ok = digit_figures(p)
            except Exception as e:
                print(f"  {r['family']} {w}: {e}", file=sys.stderr)
                continue
            if ok:
                usable[w] = p
                if figures is None or abs(w - 400) < abs(figures[0] - 400):
                    figures = (w, fig)
        if not usable:
            print(f"  dropped {r['family']}: no usable face", file=sys.stderr)
            continue
        if r["source"].startswith("apt:"):
            r["files"] = " ".join(
                f"{w}={os.path.relpath(p, '/usr/share/fonts')}" for w, p in sorted(usable.items()))
        r["weights"] = " ".join(str(w) for w in sorted(usable))
        r["figures"] = figures[1]
        r["split"] = split_of(r["family"])
        keep.append(r)
    write_rows(keep)
    n_val = sum(r["split"] == "validate" for r in keep)
    print(f"fonts.csv: {len(keep)} families, {n_val} validate, {len(keep) - n_val} tune")


def check(cache):
    rows = read_rows()
    missing = [r["family"] for r in rows if not family_files(r, cache)
               or not all(os.path.exists(p) for p in family_files(r, cache).values())]
    if missing:
        print("fonts missing: " + ", ".join(missing), file=sys.stderr)
    return missing


if __name__ == "__main__":
    cmd, cache = sys.argv[1], sys.argv[2]
    if cmd == "fetch":
        sys.exit(1 if fetch(cache) else 0)
    elif cmd == "probe":
        probe(cache)
    elif cmd == "check":
        sys.exit(1 if check(cache) else 0)
    else:
        sys.exit(__doc__)
