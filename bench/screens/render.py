#!/usr/bin/env python3
"""Renders the screenshot benchmark: sudoku screenshots with ground truth, by font family split.

    render.py --fonts CACHE --puzzles FILE --out DIR [--count N] [--seed S] [--jobs J]
              [--pencil-mistakes P]
    render.py --fonts CACHE --puzzles FILE --tests DIR [--only NAME...]
              (the pictures of tests/data/reading)

FILE has one puzzle a line: 81 chars of givens ('.' empty), a space, the 81-digit solution.
Each picture NAME.png|jpg gets NAME.txt beside it: line 1 the printed givens, line 2 the
solution, line 3 the player's entries as drawn ('.' where none; a wrong entry shows its wrong
digit), a line `ambiguous` when the givens have more than one solution, and a line
`pencil LAYOUT CELL:DIGITS...` (e.g. `pencil grid r1c3:1256 r4c4:37`) when pencil marks are
drawn: each marked cell with its marks as drawn. Marks normally include the cell's answer
(except free-layout marks cut to four digits, which can cut it); with --pencil-mistakes P
about that share of the marked cells leave the answer out, chosen with a random stream of
their own so the rest of every picture is as without it.
DIR/index.csv has one row per picture. Same seed, fonts and puzzles -> same pictures.
"""

import argparse
import csv
import functools
import io
import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fonts as fontlist  # noqa: E402

STYLES = ["phone", "web", "desktop", "typeset", "tablet"]
STYLE_WEIGHTS = [0.26, 0.19, 0.19, 0.18, 0.18]
CACHE = None  # font cache folder, set in main()

# ---------------------------------------------------------------- colours and themes


def hexc(s):
    s = s.lstrip("#")
    return tuple(int(s[i:i + 2], 16) for i in (0, 2, 4))


def mix(a, b, t):
    return tuple(int(round(a[i] * (1 - t) + b[i] * t)) for i in range(3))


def jitter(rng, c, amount=8):
    return tuple(max(0, min(255, v + rng.randint(-amount, amount))) for v in c)


THEMES = {
    # page, grid, thin, thick, given, entry, entry_near, wrong, hl (row/col/box), same, selected
    "light": ("#ffffff", "#ffffff", "#bfc6d0", "#344861", "#000000", "#325aaf", "#444444",
              "#e55c6c", "#e2ebf3", "#c3d7ea", "#bbdefb"),
    "light-grey": ("#f2f2f7", "#ffffff", "#c7c7cc", "#1c1c1e", "#1c1c1e", "#007aff", "#1e3a8a",
                   "#ff3b30", "#e5f0ff", "#cfe3ff", "#a9cdfd"),
    "dark": ("#1e1f22", "#2b2d31", "#4a4d55", "#9aa0aa", "#e8eaed", "#8ab4f8", "#c9d6ea",
             "#ff6b6b", "#363a45", "#3f4b63", "#4a5f86"),
    "oled": ("#000000", "#000000", "#333333", "#8a8a8a", "#ffffff", "#64b5f6", "#dde8ff",
             "#ff5252", "#141a22", "#1d2a3a", "#263c57"),
    "sepia": ("#f4ecd8", "#f8f1e0", "#c9b897", "#5b4636", "#3b2f23", "#8b5a2b", "#5a4a3a",
              "#c0392b", "#eadfc4", "#e0cfa6", "#d8c08a"),
    "blue": ("#e3f2fd", "#f5faff", "#90caf9", "#1565c0", "#0d2a5c", "#7b1fa2", "#1e4f9a",
             "#d32f2f", "#d6e9fb", "#bcdcf8", "#9ccbf5"),
    "green": ("#e8f5e9", "#f3faf3", "#a5d6a7", "#2e7d32", "#123d16", "#00796b", "#2f5a33",
              "#c62828", "#dcefdc", "#c5e4c6", "#a9d7ab"),
    "pink": ("#fce4ec", "#fff5f8", "#f4a5c0", "#ad1457", "#3c0f2c", "#1565c0", "#6b2350",
             "#d50000", "#fbd9e6", "#f6c1d5", "#f2a7c4"),
}
THEME_WEIGHTS = {"light": 30, "light-grey": 10, "dark": 18, "oled": 10, "sepia": 8,
                 "blue": 8, "green": 8, "pink": 8}


def palette(rng, theme):
    keys = ["page", "grid", "thin", "thick", "given", "entry", "entry_near", "wrong", "hl",
            "same", "selected"]
    p = {k: hexc(v) for k, v in zip(keys, THEMES[theme])}
    for k in ("page", "grid", "thin", "thick", "hl", "same", "selected"):
        p[k] = jitter(rng, p[k], 6)
    p["dark"] = theme in ("dark", "oled")
    p["name"] = theme
    return p


# ---------------------------------------------------------------- fonts


@functools.lru_cache(maxsize=256)
def font(path, size):
    return ImageFont.truetype(path, max(4, int(round(size))))


@functools.lru_cache(maxsize=512)
def digit_metrics(path, features):
    """Per-size-100 metrics: height of '8' above the baseline, and each digit's ink box."""
    f = font(path, 100)
    feats = list(features) if features else None
    boxes = {d: f.getbbox(str(d), anchor="ls", features=feats) for d in range(1, 10)}
    h8 = max(-boxes[8][1], 1)
    return h8, boxes


UI_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


class Face:
    """One family as used by one picture: givens weight, entries weight, UI text."""

    def __init__(self, row, rng, style):
        self.row = row
        self.family = row["family"]
        self.files = fontlist.family_files(row, CACHE)
        weights = sorted(self.files)
        r = rng.random()
        if style == "typeset":
            target = 400 if r < 0.7 else rng.choice([300, 500, 600, 700])
        elif r < 0.12:
            target = weights[0]  # the lightest the family has (hairline when it has one)
        elif r < 0.24:
            target = weights[-1]  # the heaviest (black when it has one)
        elif r < 0.55:
            target = 400
        elif r < 0.8:
            target = rng.choice([500, 600])
        else:
            target = rng.choice([300, 700])
        self.weight = min(weights, key=lambda w: (abs(w - target), w))
        self.path = self.files[self.weight]
        ew = rng.choice([self.weight, self.weight, min(weights, key=lambda w: abs(w - 400))])
        self.entry_weight = ew
        self.entry_path = self.files[ew]
        self.ui_path = self.files[min(weights, key=lambda w: abs(w - 400))]
        self.ui_bold = self.files[min(weights, key=lambda w: abs(w - 700))]
        figures = row["figures"]
        self.features = ()
        if figures == "oldstyle":
            self.figures = "oldstyle"
        elif figures == "lining+onum" and style in ("typeset", "web") and rng.random() < 0.5:
            self.figures = "oldstyle"
            self.features = ("onum",)
        else:
            self.figures = "lining"


# ---------------------------------------------------------------- the grid


class GridSpec:
    pass


def choose_grid(rng, style, face, pal, puzzle, solution, size):
    g = GridSpec()
    g.size = int(size)
    g.puzzle, g.solution = puzzle, solution
    g.face = face
    g.pal = pal
    r = rng.random()
    if style == "typeset":
        g.lines = "normal" if r < 0.8 else "uniform"
        g.frac = rng.uniform(0.20, 0.35)
    else:
        g.lines = ("normal" if r < 0.55 else "faint" if r < 0.72 else "shading" if r < 0.86
                   else "uniform")
        r2 = rng.random()
        g.frac = (rng.uniform(0.45, 0.70) if r2 < 0.8 else rng.uniform(0.30, 0.45) if r2 < 0.9
                  else rng.uniform(0.70, 0.80))
    cell = g.size / 9
    if style == "typeset":
        g.thin = max(1, round(cell * rng.uniform(0.01, 0.025)))
        g.thick = max(g.thin + 1, round(cell * rng.uniform(0.04, 0.07)))
    else:
        g.thin = max(1, round(cell * rng.uniform(0.008, 0.03)))
        g.thick = max(g.thin + 1, round(cell * rng.uniform(0.03, 0.08)))
    if g.lines == "uniform":
        g.thick = g.thin = max(1, round(cell * rng.uniform(0.01, 0.04)))
    g.dy = rng.uniform(-0.03, 0.04)  # digits sit a little low or high in some apps
    g.cells_empty = [i for i in range(81) if puzzle[i] == "."]
    # player's entries, a wrong one, pencil marks, highlights
    g.entries = {}
    g.wrong = None
    g.pencil = {}
    g.pencil_layout = None
    g.selected = None
    g.highlight = None
    g.entry_colour = pal["entry"]
    g.near = False
    if style != "typeset" and rng.random() < 0.6:
        k = rng.randint(2, min(28, len(g.cells_empty)))
        for i in rng.sample(g.cells_empty, k):
            g.entries[i] = solution[i]
        if rng.random() < 0.3:
            g.near = True
            g.entry_colour = pal["entry_near"]
        if rng.random() < 0.35:
            i = rng.choice(sorted(g.entries))
            g.wrong = i
            g.entries[i] = rng.choice([d for d in "123456789" if d != solution[i]])
    if style in ("phone", "tablet", "web", "desktop") and rng.random() < 0.45:
        free = [i for i in g.cells_empty if i not in g.entries]
        g.pencil_layout = "grid" if rng.random() < 0.7 else "free"
        for i in rng.sample(free, min(len(free), rng.randint(3, 25))):
            n = rng.randint(2, 5) if g.pencil_layout == "grid" else rng.randint(2, 4)
            digits = {solution[i]} | set(rng.sample("123456789", n))
            g.pencil[i] = "".join(sorted(digits))[: (9 if g.pencil_layout == "grid" else 4)]
    if style in ("phone", "tablet", "web") and rng.random() < 0.75:
        g.selected = rng.randrange(81)
        g.highlight = "heavy" if rng.random() < 0.25 else "soft"
    return g


def leave_out_answers(g, rng, share):
    """Takes the answer out of the pencil marks of about `share` of the marked cells (at least
    one when any): the player's mistake `--check` points at. A cell left with no mark gets
    another digit instead."""
    cells = sorted(g.pencil)
    if not cells:
        return
    chosen = [i for i in cells if rng.random() < share] or [rng.choice(cells)]
    for i in chosen:
        marks = g.pencil[i].replace(g.solution[i], "")
        if not marks:
            marks = rng.choice([d for d in "123456789" if d != g.solution[i]])
        g.pencil[i] = marks


def cell_value(g, i):
    if g.puzzle[i] != ".":
        return g.puzzle[i]
    return g.entries.get(i)


def draw_grid(g):
    """The grid as an RGB image of g.size x g.size (+ its outer border)."""
    pal = g.pal
    n = g.size
    img = Image.new("RGB", (n, n), pal["grid"])
    d = ImageDraw.Draw(img)
    cell = (n - 1) / 9
    pos = [round(i * cell) for i in range(10)]

    def rect(i, colour):
        r, c = divmod(i, 9)
        d.rectangle([pos[c], pos[r], pos[c + 1], pos[r + 1]], fill=colour)

    if g.lines == "shading":
        other = mix(pal["grid"], pal["thick"], 0.10 if not pal["dark"] else 0.18)
        for i in range(81):
            r, c = divmod(i, 9)
            if (r // 3 + c // 3) % 2 == 1:
                rect(i, other)
    if g.selected is not None:
        sr, sc = divmod(g.selected, 9)
        hl = pal["hl"] if g.highlight == "soft" else mix(pal["hl"], pal["selected"], 0.6)
        same = pal["same"] if g.highlight == "soft" else mix(pal["same"], pal["thick"], 0.35)
        for i in range(81):
            r, c = divmod(i, 9)
            if r == sr or c == sc or (r // 3 == sr // 3 and c // 3 == sc // 3):
                rect(i, hl)
        v = cell_value(g, g.selected)
        if v:
            for i in range(81):
                if cell_value(g, i) == v:
                    rect(i, same)
        sel = pal["selected"] if g.highlight == "soft" else mix(pal["selected"], pal["thick"], 0.45)
        rect(g.selected, sel)
    # lines
    thin_c, thick_c = pal["thin"], pal["thick"]
    if g.lines == "faint":
        thin_c = mix(pal["grid"], pal["thin"], 0.45)
        thick_c = mix(pal["grid"], pal["thick"], 0.35)
    if g.lines == "uniform":
        thick_c = thin_c = mix(pal["thin"], pal["thick"], 0.5)
    if g.lines == "whisper":  # tests only: lines a few grey levels off the cells
        thin_c = mix(pal["grid"], pal["thin"], 0.08)
        thick_c = mix(pal["grid"], pal["thick"], 0.06)
    if g.lines == "shading":
        thin_c = mix(pal["grid"], pal["thin"], 0.25)
    for k in range(10):
        if g.lines == "shading" and k % 3 == 0 and 0 < k < 9:
            continue
        heavy = k % 3 == 0 and g.lines != "shading"
        w = g.thick if heavy else g.thin
        colour = thick_c if heavy else thin_c
        if g.lines == "shading" and k in (0, 9):
            w, colour = g.thin, thin_c
        p = min(max(pos[k], (w - 1) // 2), n - 1 - w // 2)
        lo, hi = p - (w - 1) // 2, p + w // 2
        if heavy:
            continue
        d.rectangle([lo, 0, hi, n - 1], fill=colour)
        d.rectangle([0, lo, n - 1, hi], fill=colour)
    for k in range(0, 10, 3):
        if g.lines == "shading":
            break
        p = min(max(pos[k], (g.thick - 1) // 2), n - 1 - g.thick // 2)
        lo, hi = p - (g.thick - 1) // 2, p + g.thick // 2
        d.rectangle([lo, 0, hi, n - 1], fill=thick_c)
        d.rectangle([0, lo, n - 1, hi], fill=thick_c)
    # digits
    face = g.face
    h8, boxes = digit_metrics(face.path, face.features)
    size = g.frac * cell * 100 / h8
    fnt = font(face.path, size)
    eh8, eboxes = digit_metrics(face.entry_path, face.features)
    efnt = font(face.entry_path, g.frac * cell * 100 / eh8)
    feats = list(face.features) or None
    for i in range(81):
        r, c = divmod(i, 9)
        cx, cy = (pos[c] + pos[c + 1]) / 2, (pos[r] + pos[r + 1]) / 2 + g.dy * cell
        if g.puzzle[i] != ".":
            v, f, bx, colour = g.puzzle[i], fnt, boxes, pal["given"]
            scale = size / 100
        elif i in g.entries:
            v, f, bx = g.entries[i], efnt, eboxes
            colour = pal["wrong"] if i == g.wrong else g.entry_colour
            scale = (g.frac * cell * 100 / eh8) / 100
        else:
            continue
        left, _, right, _ = bx[int(v)]
        x = cx - (left + right) / 2 * scale
        y = cy + g.frac * cell / 2
        d.text((x, y), v, font=f, fill=colour, anchor="ls", features=feats)
    # pencil marks
    if g.pencil:
        pc = mix(pal["grid"], pal["given"], 0.6)
        ph = cell * (0.2 if g.pencil_layout == "grid" else 0.22)
        pfnt = font(face.ui_path, ph * 100 / digit_metrics(face.ui_path, ())[0])
        for i, digits in g.pencil.items():
            r, c = divmod(i, 9)
            if g.pencil_layout == "grid":
                for ch in digits:
                    k = int(ch) - 1
                    x = pos[c] + cell * (0.2 + 0.3 * (k % 3))
                    y = pos[r] + cell * (0.2 + 0.3 * (k // 3))
                    d.text((x, y), ch, font=pfnt, fill=pc, anchor="mm")
            else:
                x = (pos[c] + pos[c + 1]) / 2
                y = (pos[r] + pos[r + 1]) / 2
                d.text((x, y), digits, font=pfnt, fill=pc, anchor="mm")
    return img


def paste_grid(rng, canvas, g, x, y, rotate=0.0):
    gi = draw_grid(g)
    if rotate:
        rgba = gi.convert("RGBA").rotate(rotate, resample=Image.BICUBIC, expand=True)
        dx = (rgba.width - gi.width) // 2
        canvas.paste(rgba, (int(x) - dx, int(y) - dx), rgba)
    else:
        canvas.paste(gi, (int(x), int(y)))


# ---------------------------------------------------------------- text helpers

WORDS = ("the puzzle today is a classic nine by nine grid fill every row column and box with "
         "digits one to nine without repeating any number use logic not guessing each clue "
         "narrows the options our editors rate this one for players who like a steady "
         "challenge tip look for the cells with the fewest candidates first then work outward "
         "from the boxes that are almost complete").split()


def sentence(rng, n=None):
    n = n or rng.randint(8, 18)
    words = [rng.choice(WORDS) for _ in range(n)]
    for _ in range(rng.randint(0, 2)):
        words.insert(rng.randrange(len(words)), str(rng.choice([rng.randint(1, 99),
                                                                 rng.randint(100, 2025)])))
    s = " ".join(words)
    return s[0].upper() + s[1:] + "."


def paragraph(d, rng, x, y, width, fnt, colour, lines, lh):
    text = ""
    for _ in range(lines):
        line = ""
        while True:
            w = rng.choice(WORDS) if rng.random() > 0.08 else str(rng.randint(1, 500))
            if fnt.getlength(line + " " + w) > width:
                break
            line = (line + " " + w).strip()
        d.text((x, y), line, font=fnt, fill=colour)
        y += lh
        text += line
    return y


def clock(rng):
    return f"{rng.randint(6, 23)}:{rng.randint(0, 59):02d}"


def timer(rng):
    return f"{rng.randint(0, 39):02d}:{rng.randint(0, 59):02d}"


# ---------------------------------------------------------------- styles


def style_phone(rng, face, pal, puzzle, solution, damage):
    w, h = rng.choice([(1080, 2340), (1170, 2532), (1080, 2400), (1284, 2778), (1080, 1920),
                       (720, 1600), (1242, 2688)])
    img = Image.new("RGB", (w, h), pal["page"])
    d = ImageDraw.Draw(img)
    u = w / 1080
    ink = pal["given"]
    soft = mix(pal["page"], ink, 0.55)
    # status bar
    sb = font(UI_FONT, 34 * u)
    d.text((60 * u, 40 * u), clock(rng), font=sb, fill=ink)
    bx = w - 150 * u
    d.rounded_rectangle([bx, 42 * u, bx + 70 * u, 76 * u], radius=8 * u, outline=ink, width=3)
    d.rectangle([bx + 5 * u, 47 * u, bx + 5 * u + 60 * u * rng.uniform(0.2, 1), 71 * u],
                fill=ink)
    d.text((bx - 20 * u, 40 * u), f"{rng.randint(5, 100)}%", font=font(UI_FONT, 28 * u),
           fill=ink, anchor="ra")
    # title and info row
    y = 150 * u
    d.text((w / 2, y), rng.choice(["Sudoku", "Sudoku Classic", "Daily Sudoku", "Killer-free"]),
           font=font(face.ui_bold, 64 * u), fill=ink, anchor="mt")
    y += 140 * u
    info = font(face.ui_path, 38 * u)
    d.text((60 * u, y), rng.choice(["Easy", "Medium", "Hard", "Expert", "Evil"]), font=info,
           fill=soft)
    d.text((w / 2, y), f"Mistakes: {rng.randint(0, 2)}/3", font=info, fill=soft, anchor="ma")
    d.text((w - 60 * u, y), timer(rng), font=info, fill=soft, anchor="ra")
    y += 90 * u
    margin = rng.uniform(8, 45) * u
    size = w - 2 * margin
    g = choose_grid(rng, "phone", face, pal, puzzle, solution, size)
    paste_grid(rng, img, g, margin, y, damage.get("grid_rotate", 0))
    y += size + 70 * u
    # toolbar
    tools = ["Undo", "Erase", "Notes", "Hint"]
    tf = font(face.ui_path, 30 * u)
    for k, t in enumerate(tools):
        cx = w * (k + 0.5) / len(tools)
        d.ellipse([cx - 45 * u, y, cx + 45 * u, y + 90 * u], outline=soft, width=max(2, int(4 * u)))
        d.text((cx, y + 110 * u), t, font=tf, fill=soft, anchor="mt")
    y += 200 * u
    # keypad of big digits
    kf = font(face.ui_path if rng.random() < 0.6 else face.path, rng.uniform(80, 120) * u)
    accent = g.entry_colour if rng.random() < 0.6 else ink
    for k in range(9):
        cx = w * (k + 0.5) / 9
        d.text((cx, y), str(k + 1), font=kf, fill=accent, anchor="mt")
        if rng.random() < 0.5:
            d.text((cx, y + 140 * u), str(rng.randint(0, 9)), font=font(UI_FONT, 26 * u),
                   fill=soft, anchor="mt")
    return img, g


def style_tablet(rng, face, pal, puzzle, solution, damage):
    w, h = rng.choice([(2048, 1536), (2388, 1668), (1280, 800), (2560, 1600), (2732, 2048),
                       (1920, 1200)])
    img = Image.new("RGB", (w, h), pal["page"])
    d = ImageDraw.Draw(img)
    u = h / 1536
    ink = pal["given"]
    soft = mix(pal["page"], ink, 0.55)
    d.text((40 * u, 24 * u), clock(rng), font=font(UI_FONT, 30 * u), fill=ink)
    d.text((w - 40 * u, 24 * u), f"{rng.randint(10, 100)}%", font=font(UI_FONT, 30 * u),
           fill=ink, anchor="ra")
    size = min(1600, h * rng.uniform(0.72, 0.86))
    x0 = rng.uniform(40, 120) * u
    y0 = (h - size) / 2 + 30 * u
    g = choose_grid(rng, "tablet", face, pal, puzzle, solution, size)
    paste_grid(rng, img, g, x0, y0, damage.get("grid_rotate", 0))
    # side panel
    px = x0 + size + rng.uniform(60, 140) * u
    pw = w - px - 50 * u
    panel = mix(pal["page"], pal["grid"], 0.5) if not pal["dark"] else mix(pal["page"], (80, 80, 80), 0.3)
    d.rounded_rectangle([px, y0, px + pw, y0 + size], radius=24 * u, fill=panel)
    sf = font(face.ui_path, 40 * u)
    y = y0 + 40 * u
    for label in [f"Level: {rng.choice(['Easy', 'Medium', 'Hard', 'Expert'])}",
                  f"Time {timer(rng)}", f"Mistakes {rng.randint(0, 3)}/3",
                  f"Score {rng.randint(100, 99999)}"]:
        d.text((px + 40 * u, y), label, font=sf, fill=soft)
        y += 70 * u
    y += 30 * u
    kw = min(pw - 80 * u, (y0 + size - y - 40 * u))
    ks = kw / 3
    kf = font(face.ui_path if rng.random() < 0.5 else face.path, ks * 0.45)
    key_bg = pal["grid"]
    accent = g.entry_colour if rng.random() < 0.6 else ink
    for k in range(9):
        r, c = divmod(k, 3)
        kx, ky = px + 40 * u + c * ks, y + r * ks
        d.rounded_rectangle([kx + 6, ky + 6, kx + ks - 6, ky + ks - 6], radius=14 * u,
                            fill=key_bg, outline=mix(key_bg, ink, 0.2))
        d.text((kx + ks / 2, ky + ks / 2), str(k + 1), font=kf, fill=accent, anchor="mm")
    return img, g


def style_web(rng, face, pal, puzzle, solution, damage):
    w = rng.choice([1280, 1366, 1440, 1536, 1920])
    size = rng.uniform(320, min(720, w * 0.5))
    h = int(size + rng.uniform(600, 1100))
    img = Image.new("RGB", (w, h), pal["page"])
    d = ImageDraw.Draw(img)
    ink = pal["given"]
    soft = mix(pal["page"], ink, 0.6)
    nav = pal["thick"] if rng.random() < 0.5 else mix(pal["page"], ink, 0.08)
    nav_ink = (255, 255, 255) if sum(nav) < 380 else ink
    d.rectangle([0, 0, w, 64], fill=nav)
    nf = font(face.ui_path, 20)
    d.text((30, 32), rng.choice(["PuzzleDaily", "sudoku.example", "The Morning Grid", "Brainy"]),
           font=font(face.ui_bold, 26), fill=nav_ink, anchor="lm")
    x = w - 40
    for t in reversed(["Home", "Puzzles", "Archive", f"Top {rng.randint(5, 100)}", "Login"]):
        x -= nf.getlength(t)
        d.text((x, 32), t, font=nf, fill=nav_ink, anchor="lm")
        x -= 34
    col = max(40, (w - max(size, 760)) / 2)
    y = 100
    d.text((col, y), f"Daily Sudoku #{rng.randint(1, 3000)} - {rng.choice(['Easy', 'Medium', 'Hard'])}",
           font=font(face.ui_bold, 40), fill=ink)
    y += 70
    bf = font(face.ui_path, 19)
    y = paragraph(d, rng, col, y, max(size, 700), bf, soft, rng.randint(2, 4), 30) + 24
    gx = col if rng.random() < 0.6 else (w - size) / 2
    g = choose_grid(rng, "web", face, pal, puzzle, solution, size)
    paste_grid(rng, img, g, gx, y, damage.get("grid_rotate", 0))
    y += size + 30
    d.text((col, y), f"Solved by {rng.randint(10, 99999)} players today. Average time {timer(rng)}.",
           font=bf, fill=soft)
    y += 44
    paragraph(d, rng, col, y, max(size, 700), bf, soft, rng.randint(2, 5), 30)
    return img, g


def noise_background(rng, w, h, dark):
    nr = np.random.default_rng(rng.randrange(1 << 30))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c1 = np.array([rng.randint(10, 60) for _ in range(3)], np.float32)
    c2 = np.array([rng.randint(40, 140) for _ in range(3)], np.float32)
    if not dark:
        c2 = np.array([rng.randint(90, 200) for _ in range(3)], np.float32)
    t = (xx / w * rng.uniform(0.3, 1) + yy / h * rng.uniform(0.3, 1))
    t = (t - t.min()) / max(t.max() - t.min(), 1e-6)
    arr = c1 + (c2 - c1) * t[..., None]
    if rng.random() < 0.6:  # photo-like blotches
        small = nr.normal(0, 40, (h // 64 + 2, w // 64 + 2, 3)).astype(np.float32)
        blot = np.array(Image.fromarray(np.clip(small + 128, 0, 255).astype(np.uint8)).resize(
            (w, h), Image.BICUBIC), np.float32) - 128
        arr += blot
    arr += nr.normal(0, rng.uniform(2, 9), (h, w, 1)).astype(np.float32)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))


def style_desktop(rng, face, pal, puzzle, solution, damage):
    w, h = rng.choice([(1920, 1080), (2560, 1440)])
    u = h / 1080
    img = noise_background(rng, w, h, True)
    d = ImageDraw.Draw(img)
    # dark window chrome
    chrome = (rng.randint(25, 45),) * 3
    d.rectangle([0, 0, w, 44 * u], fill=chrome)
    for k, c in enumerate([(255, 95, 86), (255, 189, 46), (39, 201, 63)]):
        d.ellipse([16 * u + k * 26 * u, 14 * u, 30 * u + k * 26 * u, 28 * u], fill=c)
    d.rounded_rectangle([300 * u, 9 * u, w - 300 * u, 35 * u], radius=12 * u,
                        fill=mix(chrome, (255, 255, 255), 0.08))
    d.text((320 * u, 22 * u), f"https://puzzles.example/sudoku/{rng.randint(1, 999)}",
           font=font(UI_FONT, 16 * u), fill=(200, 200, 200), anchor="lm")
    side = rng.uniform(200, 320) * u
    if rng.random() < 0.8:
        d.rectangle([0, 44 * u, side, h], fill=mix(chrome, (0, 0, 0), 0.3))
        sf = font(UI_FONT, 18 * u)
        for k in range(12):
            d.text((24 * u, 80 * u + k * 44 * u), rng.choice(
                ["Home", "Library", "Daily", "Stats", "Friends", "Settings", "Archive 2024",
                 f"Level {rng.randint(1, 80)}", "Help"]), font=sf, fill=(170, 170, 180))
    else:
        side = 0
    # the card
    light_card = pal.get("light_card", rng.random() < 0.75)
    if light_card and pal["dark"]:
        pal = palette(rng, rng.choice(["light", "light-grey", "sepia", "blue", "green", "pink"]))
    if not light_card and not pal["dark"]:
        pal = palette(rng, rng.choice(["dark", "oled"]))
    padf = rng.uniform(0.06, 0.2)
    room = (h - 44 * u - 60 * u - 230 * u) / (1 + 2 * padf)  # the whole card on the screen
    size = rng.uniform(min(400, room * 0.6), min(900, room))
    pad = padf * size
    cw = size + 2 * pad + rng.uniform(0, 0.4) * size
    ch = size + 2 * pad + 140 * u + 90 * u
    cx = side + (w - side - cw) / 2 + rng.uniform(-0.1, 0.1) * (w - side - cw)
    cy = 44 * u + (h - 44 * u - ch) / 2
    card = pal["page"]
    d.rounded_rectangle([cx, cy, cx + cw, cy + ch], radius=rng.uniform(4, 24) * u, fill=card)
    ink = pal["given"]
    d.text((cx + pad, cy + 40 * u), rng.choice(["Sudoku", "Today's puzzle", "Sudoku Pro"]),
           font=font(face.ui_bold, 40 * u), fill=ink)
    d.text((cx + cw - pad, cy + 52 * u), timer(rng), font=font(face.ui_path, 28 * u),
           fill=mix(card, ink, 0.6), anchor="ra")
    gx = cx + (cw - size) / 2
    gy = cy + 130 * u
    g = choose_grid(rng, "desktop", face, pal, puzzle, solution, size)
    paste_grid(rng, img, g, gx, gy, damage.get("grid_rotate", 0))
    by = gy + size + 30 * u
    bf = font(face.ui_path, 22 * u)
    bx = cx + pad
    for t in ["New game", "Check", "Hint", "Restart"]:
        tw = bf.getlength(t) + 40 * u
        d.rounded_rectangle([bx, by, bx + tw, by + 50 * u], radius=10 * u,
                            fill=mix(card, pal["thick"], 0.85), outline=None)
        d.text((bx + tw / 2, by + 25 * u), t, font=bf, fill=(255, 255, 255) if not pal["dark"]
               else (0, 0, 0), anchor="mm")
        bx += tw + 20 * u
    return img, g


def style_typeset(rng, face, pal, puzzle, solution, damage):
    w = rng.choice([1240, 1654, 1700, 2480])
    h = int(w * 1.414)
    u = w / 1240
    img = Image.new("RGB", (w, h), (255, 255, 255) if rng.random() < 0.85 else (250, 248, 240))
    d = ImageDraw.Draw(img)
    pal = dict(pal)
    pal.update(page=img.getpixel((0, 0)), grid=img.getpixel((0, 0)), given=(0, 0, 0),
               thin=(rng.choice([0, 60, 120]),) * 3, thick=(0, 0, 0), dark=False,
               name="paper")
    m = 110 * u
    tf = font(face.ui_bold, 34 * u)
    y = 90 * u
    d.text((m, y), f"Puzzle {rng.randint(1, 400)}", font=tf, fill=(0, 0, 0))
    d.text((w - m, y + 8 * u), f"Page {rng.randint(2, 240)}", font=font(face.ui_path, 22 * u),
           fill=(0, 0, 0), anchor="ra")
    y += 70 * u
    bf = font(face.ui_path, 24 * u)
    y = paragraph(d, rng, m, y, w - 2 * m, bf, (20, 20, 20), rng.randint(3, 7), 36 * u) + 30 * u
    size = rng.uniform(0.45, 0.8) * (w - 2 * m)
    size = min(size, h - y - 260 * u)
    gx = (w - size) / 2 if rng.random() < 0.7 else m
    g = choose_grid(rng, "typeset", face, pal, puzzle, solution, size)
    paste_grid(rng, img, g, gx, y, damage.get("grid_rotate", 0))
    y += size + 40 * u
    d.text((m, y), f"Difficulty: {rng.choice(['*', '**', '***', '****'])}   Solution on page "
           f"{rng.randint(100, 300)}.", font=bf, fill=(0, 0, 0))
    y += 60 * u
    paragraph(d, rng, m, y, w - 2 * m, bf, (20, 20, 20), rng.randint(2, 5), 36 * u)
    return img, g


STYLE_FUNCS = {"phone": style_phone, "web": style_web, "desktop": style_desktop,
               "typeset": style_typeset, "tablet": style_tablet}

# ---------------------------------------------------------------- damage


def choose_damage(rng, style):
    dmg = {}
    if rng.random() >= 0.4:
        return dmg
    kinds = rng.sample(["jpeg", "downscale", "blur", "rotate", "perspective"], rng.randint(1, 2))
    for k in kinds:
        if k == "jpeg":
            dmg["jpeg"] = rng.randint(30, 90)
        elif k == "downscale":
            dmg["downscale"] = round(rng.uniform(0.5, 0.8), 2)
            if rng.random() < 0.5:
                dmg["jpeg"] = rng.randint(50, 90)
        elif k == "blur":
            dmg["blur"] = round(rng.uniform(0.5, 1.2), 2)
        elif k == "rotate":
            a = round(rng.uniform(1, 4) * rng.choice([-1, 1]), 1)
            if rng.random() < 0.35:
                dmg["grid_rotate"] = a
            else:
                dmg["rotate"] = a
        elif k == "perspective":
            dmg["perspective"] = round(rng.uniform(0.02, 0.06), 3)
    return dmg


def perspective(rng, img, amount, fill):
    w, h = img.size
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = [(x + rng.uniform(-amount, amount) * w, y + rng.uniform(-amount, amount) * h)
           for x, y in src]
    # coefficients mapping output (dst) to input (src)
    a = []
    b = []
    for (x, y), (X, Y) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -X * x, -X * y])
        a.append([0, 0, 0, x, y, 1, -Y * x, -Y * y])
        b += [X, Y]
    coeffs = np.linalg.solve(np.array(a, float), np.array(b, float))
    return img.transform((w, h), Image.PERSPECTIVE, tuple(coeffs), Image.BICUBIC, fillcolor=fill)


def apply_damage(rng, img, dmg, fill):
    if "perspective" in dmg:
        img = perspective(rng, img, dmg["perspective"], (rng.randint(0, 40),) * 3)
    if "rotate" in dmg:
        img = img.rotate(dmg["rotate"], resample=Image.BICUBIC, expand=True, fillcolor=fill)
    if "blur" in dmg:
        img = img.filter(ImageFilter.GaussianBlur(dmg["blur"]))
    if "downscale" in dmg:
        s = dmg["downscale"]
        img = img.resize((round(img.width * s), round(img.height * s)), Image.BILINEAR)
    return img


def damage_text(dmg):
    parts = []
    for k in ("perspective", "rotate", "grid_rotate", "blur", "downscale", "jpeg"):
        if k in dmg:
            parts.append(f"{k}{dmg[k]}")
    return "+".join(parts) or "none"


# ---------------------------------------------------------------- one picture


def render_one(job):
    (name, out_dir, style, row, puzzle, solution, seed, overrides) = job
    rng = random.Random(seed)
    face = Face(row, rng, style)
    if overrides.get("hairline"):  # tests only: the family's lightest weight, entries too
        face.weight = min(face.files)
        face.path = face.entry_path = face.files[face.weight]
        face.entry_weight = face.weight
    if overrides.get("weights"):  # tests only: the givens' and the entries' weights
        face.weight, face.entry_weight = overrides["weights"]
        face.path, face.entry_path = face.files[face.weight], face.files[face.entry_weight]
    theme = overrides.get("theme") or rng.choices(list(THEME_WEIGHTS),
                                                  list(THEME_WEIGHTS.values()))[0]
    pal = palette(rng, theme)
    if "light_card" in overrides:
        pal["light_card"] = overrides["light_card"]
    dmg = overrides.get("damage")
    if dmg is None:
        dmg = choose_damage(rng, style)
    grid_override = overrides.get("grid")
    mistakes = overrides.get("pencil_mistakes", 0)
    if grid_override or mistakes:
        global choose_grid
        base = choose_grid

        def patched(*a, **k):
            g = base(*a, **k)
            if grid_override:
                grid_override(g, rng)
            if mistakes:
                # A stream of its own: the picture's other random choices stay as they were.
                leave_out_answers(g, random.Random(seed ^ 0x9E3779B9), mistakes)
            return g
        choose_grid = patched
        try:
            img, g = STYLE_FUNCS[style](rng, face, pal, puzzle, solution, dmg)
        finally:
            choose_grid = base
    else:
        img, g = STYLE_FUNCS[style](rng, face, pal, puzzle, solution, dmg)
    if "downscale" in dmg and g.size * dmg["downscale"] < 250:  # grids stay >= 250 px
        dmg = dict(dmg, downscale=round(min(1.0, 250 / g.size + 0.01), 2))
        if dmg["downscale"] >= 1:
            del dmg["downscale"]
    if "final_scale" in overrides:
        s = overrides["final_scale"]
        img = img.resize((round(img.width * s), round(img.height * s)), Image.LANCZOS)
    img = apply_damage(rng, img, dmg, img.getpixel((2, img.height - 2)))
    if overrides.get("grey"):
        img = img.convert("L")
    os.makedirs(out_dir, exist_ok=True)
    if "jpeg" in dmg:
        path = os.path.join(out_dir, name + ".jpg")
        img.save(path, quality=dmg["jpeg"])
    else:
        path = os.path.join(out_dir, name + ".png")
        img.save(path, compress_level=overrides.get("compress", 3), optimize=bool(overrides.get("compress")))
    entries = "".join(g.entries.get(i, ".") for i in range(81))
    lines = [puzzle, solution, entries]
    if overrides.get("ambiguous"):
        lines.append("ambiguous")
    if g.pencil:
        marks = " ".join(f"r{i // 9 + 1}c{i % 9 + 1}:{g.pencil[i]}" for i in sorted(g.pencil))
        lines.append(f"pencil {g.pencil_layout} {marks}")
    with open(os.path.join(out_dir, name + ".txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    scale = dmg.get("downscale", 1) * overrides.get("final_scale", 1)
    return {
        "name": os.path.relpath(path, overrides.get("root", out_dir)),
        "split": row["split"], "style": style, "family": row["family"],
        "font_file": os.path.basename(face.path), "weight": face.weight,
        "figures": face.figures, "theme": g.pal["name"], "lines": g.lines,
        "digit_frac": round(g.frac, 3), "grid_px": round(g.size * scale),
        "entries": len(g.entries), "wrong_entry": int(g.wrong is not None),
        "entries_near_colour": int(g.near and bool(g.entries)),
        "pencil": g.pencil_layout or "none", "highlight": g.highlight or "none",
        "damage": damage_text(dmg), "width": img.width, "height": img.height,
    }


def load_puzzles(path):
    out = []
    for line in open(path):
        parts = line.split()
        if len(parts) >= 2 and len(parts[0]) == 81 and len(parts[1]) == 81:
            out.append((parts[0], parts[1]))
    return out


def benchmark_jobs(rows, puzzles, count, seed, out, pencil_mistakes=0.0):
    rng = random.Random(seed)
    jobs = []
    counters = {}
    # Typeset pages are mostly set in serif and slab faces, where the round has any.
    bookish = [r for r in rows if r["category"] in ("serif", "slab")]
    for i in range(count):
        row = rng.choice(rows)
        style = rng.choices(STYLES, STYLE_WEIGHTS)[0]
        if (style == "typeset" and bookish and row["category"] not in ("serif", "slab")
                and rng.random() < 0.6):
            row = rng.choice(bookish)
        puzzle, solution = puzzles[i % len(puzzles)]
        key = (row["split"], style)
        counters[key] = counters.get(key, 0) + 1
        slug = "".join(ch if ch.isalnum() else "-" for ch in row["family"].lower())
        name = f"{i:04d}-{slug}"
        jobs.append((name, os.path.join(out, row["split"], style), style, row, puzzle, solution,
                     rng.randrange(1 << 31), {"root": out, "pencil_mistakes": pencil_mistakes}))
    return jobs


# ---------------------------------------------------------------- tests/data/reading


def count_solutions(grid, limit=2):
    cells = [0 if ch == "." else int(ch) for ch in grid]
    n = [0]

    def ok(i, v):
        r, c = divmod(i, 9)
        for k in range(9):
            if cells[r * 9 + k] == v or cells[k * 9 + c] == v:
                return False
        br, bc = r // 3 * 3, c // 3 * 3
        return all(cells[(br + a) * 9 + bc + b] != v for a in range(3) for b in range(3))

    def go():
        best, opts = None, None
        for i in range(81):
            if cells[i] == 0:
                o = [v for v in range(1, 10) if ok(i, v)]
                if best is None or len(o) < len(opts):
                    best, opts = i, o
                    if len(o) <= 1:
                        break
        if best is None:
            n[0] += 1
            return n[0] >= limit
        for v in opts:
            cells[best] = v
            if go():
                cells[best] = 0
                return True
        cells[best] = 0
        return False

    go()
    return n[0]


def ambiguous_puzzle(puzzle, solution, rng):
    """The puzzle with givens taken away until it has more than one solution."""
    p = list(puzzle)
    for i in rng.sample([i for i in range(81) if p[i] != "."], 81 - p.count(".")):
        keep = p[i]
        p[i] = "."
        if count_solutions("".join(p)) >= 2:
            return "".join(p)
        p[i] = keep if rng.random() < 0.5 else "."
    return "".join(p)


def test_jobs(rows, puzzles, out):
    by = {r["family"]: r for r in rows}
    rng = random.Random(20261123)

    def fam(name):
        r = by[name]
        return r

    def set_(**kw):
        def f(g, _rng):
            for k, v in kw.items():
                setattr(g, k, v)
        return f

    def entries_near(colour):
        def f(g, r):
            set_(highlight=None, selected=None, pencil={}, lines="normal")(g, r)
            free = [i for i in range(81) if g.puzzle[i] == "."]
            g.entries = {i: g.solution[i] for i in r.sample(free, 12)}
            g.wrong = None
            g.near = True
            g.entry_colour = colour
            g.pal = dict(g.pal, given=(0, 0, 0))
        return f

    def entries_near_blurred(colour, given):
        def f(g, r):
            entries_near(colour)(g, r)
            g.pal = dict(g.pal, given=given)
            g.entries = {i: g.solution[i] for i in r.sample(sorted(g.entries), 12)}
            free = [i for i in range(81) if g.puzzle[i] == "." and i not in g.entries]
            g.entries.update({i: g.solution[i] for i in r.sample(free, 10)})
        return f

    def entries_wrong(g, r):
        free = [i for i in range(81) if g.puzzle[i] == "."]
        g.entries = {i: g.solution[i] for i in r.sample(free, 10)}
        g.wrong = sorted(g.entries)[4]
        g.entries[g.wrong] = next(d for d in "987654321" if d != g.solution[g.wrong])
        g.pencil, g.selected, g.lines = {}, None, "normal"

    def pencil(layout, count, **kw):
        """Marks in `layout` in `count` free cells, each including the answer (2-5 more digits
        in the 3x3 layout, 1-3 in a row, so a row never has more than four)."""
        def f(g, r):
            set_(**kw)(g, r)
            free = [i for i in g.cells_empty if i not in g.entries]
            g.pencil_layout = layout
            g.pencil = {}
            for i in r.sample(free, min(len(free), count)):
                n = r.randint(2, 5) if layout == "grid" else r.randint(1, 3)
                digits = {g.solution[i]} | set(r.sample("123456789", n))
                g.pencil[i] = "".join(sorted(digits))
        return f

    none = {}
    cases = [
        # name, family, style, theme, overrides
        ("typeset-small-digits", "Source Serif 4", "typeset", "light",
         {"grid": set_(frac=0.22, lines="normal"), "final_scale": 0.62, "grey": True}),
        ("oldstyle-figures", "Vollkorn", "web", "light",
         {"grid": set_(frac=0.55, lines="normal", entries={}, wrong=None, pencil={},
                       selected=None, highlight=None)}),
        ("entries-near-colour", "Montserrat", "phone", "light",
         {"grid": entries_near((0x44, 0x44, 0x44)), "final_scale": 0.5}),
        ("entries-wrong-red", "Red Hat Text", "phone", "light",
         {"grid": entries_wrong, "final_scale": 0.5}),
        ("desktop-light-card", "Merriweather Sans", "desktop", "dark",
         {"grid": set_(entries={}, wrong=None, lines="normal"), "final_scale": 0.75,
          "light_card": True,
          "damage": {"jpeg": 80}}),
        ("faint-lines-dark", "Work Sans", "phone", "dark",
         {"grid": set_(lines="faint", entries={}, wrong=None, pencil={}), "final_scale": 0.5}),
        ("shading-only-boxes", "Lexend", "tablet", "light",
         {"grid": set_(lines="shading", entries={}, wrong=None, pencil={}, selected=None),
          "final_scale": 0.5}),
        ("ambiguous-givens", "Golos Text", "web", "light",
         {"grid": set_(entries={}, wrong=None, pencil={}, selected=None, highlight=None),
          "ambiguous": True}),
        ("entries-near-blue-blurred", "PT Sans Narrow", "phone", "oled",
         {"grid": entries_near_blurred((0xdd, 0xe8, 0xff), (0xff, 0xff, 0xff)),
          "final_scale": 0.5, "damage": {"blur": 1.1}}),
        ("bold-condensed-display", "Staatliches", "tablet", "light",
         {"grid": set_(entries={}, wrong=None, pencil={}, selected=None, highlight=None,
                       lines="normal"), "final_scale": 0.5}),
        ("digits-on-whisper-lines", "Go", "desktop", "light",
         {"grid": set_(lines="whisper", entries={}, wrong=None, selected=None, highlight=None),
          "final_scale": 0.5, "damage": {"jpeg": 85}}),
        ("pencil-grid-mistakes", "Karla", "phone", "light",
         {"grid": pencil("grid", 16, wrong=None, lines="normal"), "final_scale": 0.5,
          "pencil_mistakes": 0.2}),
        ("pencil-row-mistakes", "Archivo", "tablet", "sepia",
         {"grid": pencil("free", 14, wrong=None, lines="normal"), "final_scale": 0.5,
          "pencil_mistakes": 0.2}),
        ("pencil-grid-right", "Exo 2", "phone", "dark",
         {"grid": pencil("grid", 18, wrong=None), "final_scale": 0.5}),
        ("hairline-large-tablet", "Hepta Slab", "tablet", "light",
         {"grid": set_(entries={}, wrong=None, pencil={}, selected=None, highlight=None,
                       lines="normal"), "hairline": True}),
        ("entries-other-weight", "Heebo", "phone", "light",
         {"grid": entries_near((0, 0, 0)), "weights": (700, 300), "final_scale": 0.5}),
    ]
    jobs = []
    for k, (name, family, style, theme, ov) in enumerate(cases):
        puzzle, solution = puzzles[k]
        if ov.get("ambiguous"):
            puzzle = ambiguous_puzzle(puzzle, solution, random.Random(7))
        ov = dict(ov, theme=theme, damage=ov.get("damage", none), compress=9, root=out)
        jobs.append((name, out, style, fam(family), puzzle, solution, 1000 + k, ov))
    return jobs


def main():
    global CACHE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--fonts", required=True, help="font cache folder (fonts.py fetch)")
    ap.add_argument("--puzzles", required=True)
    ap.add_argument("--out")
    ap.add_argument("--tests", help="write the pictures of tests/data/reading to this folder")
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pencil-mistakes", type=float, default=0.0, metavar="P",
                    help="share of marked cells whose marks leave out the answer (default 0)")
    ap.add_argument("--round", type=int, default=1,
                    help="draw the pictures' families from this round of fonts.csv (default 1)")
    ap.add_argument("--only", nargs="+", metavar="NAME",
                    help="with --tests: render only these pictures")
    args = ap.parse_args()
    CACHE = args.fonts
    rows = fontlist.read_rows(None if args.tests else args.round)
    puzzles = load_puzzles(args.puzzles)
    if args.tests:
        for job in test_jobs(rows, puzzles, args.tests):
            if args.only and job[0] not in args.only:
                continue
            row = render_one(job)
            size = os.path.getsize(os.path.join(args.tests, row["name"]))
            print(f"{row['name']}: {row['family']} ({row['split']}) {row['width']}x{row['height']}, "
                  f"grid {row['grid_px']} px, digits {row['digit_frac']}, {size // 1000} KB")
        return
    jobs = benchmark_jobs(rows, puzzles, args.count, args.seed, args.out, args.pencil_mistakes)
    os.makedirs(args.out, exist_ok=True)
    if args.jobs > 1:
        import multiprocessing as mp
        with mp.Pool(args.jobs, initializer=_init, initargs=(CACHE,)) as pool:
            results = []
            for k, r in enumerate(pool.imap(render_one, jobs, chunksize=4)):
                results.append(r)
                if (k + 1) % 100 == 0:
                    print(f"  {k + 1}/{len(jobs)}", flush=True)
    else:
        results = [render_one(j) for j in jobs]
    with open(os.path.join(args.out, "index.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(results[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(results)
    print(f"{len(results)} pictures in {args.out}")


def _init(cache):
    global CACHE
    CACHE = cache


if __name__ == "__main__":
    main()
