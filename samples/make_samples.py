#!/usr/bin/env python3
"""Build the bundled sample sudoku screenshots (Python 3 standard library only).

For every sample this script
  1. generates a puzzle with a fixed seed (full-grid backtracking generator +
     hole digging, each puzzle checked to have exactly one solution),
  2. writes an HTML page that draws the puzzle like a sudoku app / web page,
  3. screenshots the page with headless Chromium (Debian package `chromium`),
  4. optionally converts the PNG to JPEG or WebP with ImageMagick
     (Debian package `imagemagick`, /usr/bin/convert),
  5. writes NAME.txt: line 1 = printed givens (81 chars, '.' = empty),
     line 2 = the 81-digit solution.

It also writes tests/data/no-grid.png (a page with text and numbers but no grid).

Run it through make_samples.sh, which installs the needed Debian packages.
Usage: python3 samples/make_samples.py [--only NAME[,NAME...]] [--keep-html DIR]
"""

import argparse
import html
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TESTDATA = os.path.join(REPO, "tests", "data")

BASE_SEED = 20240611

# ---------------------------------------------------------------------------
# Sudoku solver and generator
# ---------------------------------------------------------------------------

ROW = [i // 9 for i in range(81)]
COL = [i % 9 for i in range(81)]
BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]
ALL = 0x3FE  # bits 1..9


def _setup(grid):
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, v in enumerate(grid):
        if v:
            b = 1 << v
            if rows[ROW[i]] & b or cols[COL[i]] & b or boxes[BOX[i]] & b:
                return None
            rows[ROW[i]] |= b
            cols[COL[i]] |= b
            boxes[BOX[i]] |= b
    return rows, cols, boxes


def solve(grid, limit=2, rng=None):
    """Return up to `limit` solutions (lists of 81 ints) of `grid` (0 = empty).

    With `rng`, candidate digits are tried in random order (used to build
    random full grids)."""
    grid = list(grid)
    st = _setup(grid)
    if st is None:
        return []
    rows, cols, boxes = st
    empties = [i for i in range(81) if grid[i] == 0]
    sols = []

    def rec():
        if len(sols) >= limit:
            return
        # pick the empty cell with the fewest candidates (MRV)
        best, best_mask, best_n = -1, 0, 10
        for i in empties:
            if grid[i] == 0:
                m = ALL & ~(rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]])
                n = bin(m).count("1")
                if n < best_n:
                    best, best_mask, best_n = i, m, n
                    if n <= 1:
                        break
        if best < 0:
            sols.append(list(grid))
            return
        if best_n == 0:
            return
        digits = [d for d in range(1, 10) if best_mask >> d & 1]
        if rng is not None:
            rng.shuffle(digits)
        r, c, b = ROW[best], COL[best], BOX[best]
        for d in digits:
            bit = 1 << d
            grid[best] = d
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            rec()
            rows[r] &= ~bit
            cols[c] &= ~bit
            boxes[b] &= ~bit
            grid[best] = 0
            if len(sols) >= limit:
                return

    rec()
    return sols


def is_valid_solution(sol):
    for k in range(9):
        for idx in (ROW, COL, BOX):
            if sorted(sol[i] for i in range(81) if idx[i] == k) != list(range(1, 10)):
                return False
    return True


def generate(seed, target_givens):
    """Deterministic puzzle with a unique solution and 24..36 givens."""
    rng = random.Random(seed)
    for _attempt in range(50):
        full = solve([0] * 81, limit=1, rng=rng)[0]
        puzzle = list(full)
        order = list(range(81))
        rng.shuffle(order)
        givens = 81
        for i in order:
            if givens <= target_givens:
                break
            keep = puzzle[i]
            puzzle[i] = 0
            if len(solve(puzzle, limit=2)) != 1:
                puzzle[i] = keep
            else:
                givens -= 1
        if 24 <= givens <= 36:
            sols = solve(puzzle, limit=2)
            assert len(sols) == 1 and sols[0] == full and is_valid_solution(full)
            return puzzle, full
    raise RuntimeError("could not generate a puzzle for seed %d" % seed)


def candidates(grid, i):
    st = _setup(grid)
    rows, cols, boxes = st
    m = ALL & ~(rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]])
    return [d for d in range(1, 10) if m >> d & 1]


# ---------------------------------------------------------------------------
# HTML drawing
# ---------------------------------------------------------------------------

LIGHT = dict(page="#ffffff", cell="#ffffff", thin="#b4b9c2", thick="#1d2129",
             given="#111418", entry="#2f62d8", pencil="#7c828c")
DARK = dict(page="#15171c", cell="#1f2228", thin="#3d434d", thick="#aab1bd",
            given="#e9ecf1", entry="#6fa3ff", pencil="#8a919c")


def grid_html(puzzle, opt):
    """Return (html, outer_size) for a grid.

    opt keys: cell (px), thin, thick (px), font, weight, ratio (font size /
    cell), colors (dict), uniform (bool: thin lines everywhere),
    entries {idx: digit}, pencil {idx: [digits]}, highlight (selected idx),
    hl colors, radius."""
    p = opt["cell"]
    col = opt["colors"]
    thin = opt.get("thin", 1)
    thick = opt.get("thick", 3)
    uniform = opt.get("uniform", False)
    outer_w = thin if uniform else opt.get("outer", thick)
    inner = 9 * p
    size = inner + 2 * outer_w
    fs = round(p * opt.get("ratio", 0.62))
    parts = []
    parts.append(
        '<div class="sgrid" style="position:relative;width:%dpx;height:%dpx;'
        'border:%dpx solid %s;background:%s;box-sizing:content-box;%s">'
        % (inner, inner, outer_w, col["thick"] if not uniform else col["thin"],
           col["cell"], opt.get("grid_style", "")))
    # background fills (highlights)
    sel = opt.get("highlight")
    if sel is not None:
        r0, c0, b0 = ROW[sel], COL[sel], BOX[sel]
        for i in range(81):
            fill = None
            if i == sel:
                fill = opt["hl_sel"]
            elif ROW[i] == r0 or COL[i] == c0 or BOX[i] == b0:
                fill = opt["hl_area"]
            elif opt.get("hl_same") and puzzle[sel] and puzzle[i] == puzzle[sel]:
                fill = opt["hl_same"]
            if fill:
                parts.append(
                    '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;'
                    'height:%dpx;background:%s"></div>'
                    % (COL[i] * p, ROW[i] * p, p, p, fill))
    if opt.get("given_fill"):
        for i in range(81):
            if puzzle[i]:
                parts.append(
                    '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;'
                    'height:%dpx;background:%s"></div>'
                    % (COL[i] * p, ROW[i] * p, p, p, opt["given_fill"]))
    for i, extra in opt.get("fills", {}).items():
        parts.append(
            '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;'
            'height:%dpx;background:%s"></div>' % (COL[i] * p, ROW[i] * p, p, p, extra))
    # lines
    for k in range(1, 9):
        is_thick = (k % 3 == 0) and not uniform
        w = thick if is_thick else thin
        c = col["thick"] if is_thick else col["thin"]
        pos = k * p - w // 2
        parts.append(
            '<div style="position:absolute;left:%dpx;top:0;width:%dpx;height:%dpx;'
            'background:%s;z-index:%d"></div>' % (pos, w, inner, c, 2 if is_thick else 1))
        parts.append(
            '<div style="position:absolute;top:%dpx;left:0;height:%dpx;width:%dpx;'
            'background:%s;z-index:%d"></div>' % (pos, w, inner, c, 2 if is_thick else 1))
    # digits
    font = opt["font"]
    weight = opt.get("weight", 400)
    entries = opt.get("entries", {})
    pencil = opt.get("pencil", {})
    dy = opt.get("dy", 0.0)
    for i in range(81):
        x, y = COL[i] * p, ROW[i] * p
        if puzzle[i] or i in entries:
            d = puzzle[i] or entries[i]
            color = col["given"] if puzzle[i] else col["entry"]
            wgt = weight if puzzle[i] else opt.get("entry_weight", weight)
            parts.append(
                '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;'
                'height:%dpx;display:flex;align-items:center;justify-content:center;'
                'font-family:\'%s\';font-weight:%d;font-size:%dpx;line-height:1;'
                'color:%s;z-index:3"><span style="position:relative;top:%.1fpx">%d</span></div>'
                % (x, y, p, p, font, wgt, fs, color, dy * fs, d))
        elif i in pencil:
            sub = p / 3.0
            pfs = round(p * 0.24)
            for d in pencil[i]:
                sx = x + ((d - 1) % 3) * sub
                sy = y + ((d - 1) // 3) * sub
                parts.append(
                    '<div style="position:absolute;left:%.1fpx;top:%.1fpx;width:%.1fpx;'
                    'height:%.1fpx;display:flex;align-items:center;justify-content:center;'
                    'font-family:\'%s\';font-size:%dpx;line-height:1;color:%s;z-index:3">%d</div>'
                    % (sx, sy, sub, sub, font, pfs, col["pencil"], d))
    parts.append("</div>")
    return "".join(parts), size


def page(body, w, h, bg, extra_css="", font="DejaVu Sans"):
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
        "html,body{margin:0;padding:0;}"
        "body{width:%dpx;height:%dpx;background:%s;overflow:hidden;"
        "font-family:'%s';-webkit-font-smoothing:antialiased;}"
        ".center{position:absolute;left:0;top:0;width:%dpx;height:%dpx;display:flex;"
        "align-items:center;justify-content:center;}"
        "%s</style></head><body>%s</body></html>"
        % (w, h, bg, font, w, h, extra_css, body))


def centered_grid_page(puzzle, opt, w, h, bg, wrap_style="", outer_style=""):
    g, _size = grid_html(puzzle, opt)
    body = ('<div class="center" style="%s"><div style="%s">%s</div></div>'
            % (outer_style, wrap_style, g))
    return page(body, w, h, bg)


# ---------------------------------------------------------------------------
# Special pages
# ---------------------------------------------------------------------------

def phone_page(puzzle, solution, rng):
    W, H = 1170, 2532
    font = "Open Sans"
    cell = 122
    col = dict(LIGHT)
    col.update(thin="#c5cbd6", thick="#344861", given="#344861", entry="#325aaf",
               pencil="#6e7c8c")
    empties = [i for i in range(81) if not puzzle[i]]
    rng.shuffle(empties)
    entries = {i: solution[i] for i in empties[:9]}
    state = list(puzzle)
    for i, d in entries.items():
        state[i] = d
    pencil = {}
    for i in empties[9:]:
        cands = candidates(state, i)
        if 2 <= len(cands) <= 5:
            pencil[i] = cands
        if len(pencil) == 6:
            break
    sel = empties[-1]
    # selected cell: an empty cell without pencil marks
    for i in empties[20:]:
        if i not in pencil and i not in entries:
            sel = i
            break
    opt = dict(cell=cell, thin=2, thick=5, outer=5, font=font, weight=400, ratio=0.60,
               colors=col, entries=entries, pencil=pencil,
               fills={sel: "#bbdefb"})
    g, size = grid_html(puzzle, opt)
    gx = (W - size) // 2
    status = (
        '<div style="position:absolute;left:0;top:0;width:%dpx;height:140px;'
        'font-family:\'Open Sans\';font-weight:600;font-size:46px;color:#000">'
        '<div style="position:absolute;left:110px;top:50px">9:41</div>'
        '<div style="position:absolute;left:430px;top:22px;width:310px;height:96px;'
        'border-radius:48px;background:#000"></div>'
        '<div style="position:absolute;right:250px;top:62px;display:flex;gap:6px;'
        'align-items:flex-end;height:36px">'
        '<div style="width:9px;height:12px;background:#000;border-radius:2px"></div>'
        '<div style="width:9px;height:19px;background:#000;border-radius:2px"></div>'
        '<div style="width:9px;height:26px;background:#000;border-radius:2px"></div>'
        '<div style="width:9px;height:33px;background:#000;border-radius:2px"></div></div>'
        '<div style="position:absolute;right:170px;top:52px;font-size:38px">5G</div>'
        '<div style="position:absolute;right:80px;top:60px;width:66px;height:32px;'
        'border:3px solid #888;border-radius:10px;box-sizing:border-box;padding:3px">'
        '<div style="width:42px;height:100%%;background:#000;border-radius:5px"></div></div>'
        '</div>' % W)
    header = (
        '<div style="position:absolute;left:0;top:170px;width:%dpx;height:110px;'
        'font-family:\'Open Sans\';color:#344861">'
        '<div style="position:absolute;left:50px;top:10px;font-size:70px;line-height:1">&#8249;</div>'
        '<div style="position:absolute;left:0;width:100%%;top:14px;text-align:center;'
        'font-size:58px;font-weight:700">Sudoku</div>'
        '<div style="position:absolute;right:60px;top:22px;width:54px;height:54px;'
        'border:6px solid #344861;border-radius:50%%;box-sizing:border-box"></div>'
        '</div>'
        '<div style="position:absolute;left:%dpx;top:300px;width:%dpx;height:70px;'
        'font-family:\'Open Sans\';font-size:38px;color:#6e7c8c;display:flex;'
        'justify-content:space-between;align-items:center">'
        '<span>Medium</span><span>Mistakes: 1/3</span><span>Score: 2340</span>'
        '<span style="color:#344861;font-weight:600">&#9201; 04:12</span></div>'
        % (W, gx, size))
    grid = '<div style="position:absolute;left:%dpx;top:400px">%s</div>' % (gx, g)
    gy_end = 400 + size
    tools = []
    for label in ("Undo", "Erase", "Notes", "Hint"):
        tools.append(
            '<div style="display:flex;flex-direction:column;align-items:center;gap:14px">'
            '<div style="width:120px;height:120px;border-radius:50%%;background:#eaeef4;'
            'display:flex;align-items:center;justify-content:center;font-size:56px;'
            'color:#344861">%s</div>'
            '<div style="font-size:36px;color:#344861">%s</div></div>'
            % ({"Undo": "&#8630;", "Erase": "&#10005;", "Notes": "&#9998;",
                "Hint": "?"}[label], label))
    toolbar = (
        '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;display:flex;'
        'justify-content:space-around;font-family:\'Open Sans\'">%s</div>'
        % (gx, gy_end + 70, size, "".join(tools)))
    keys = []
    for d in range(1, 10):
        keys.append(
            '<div style="width:112px;height:170px;border-radius:22px;background:#f1f4f9;'
            'display:flex;align-items:center;justify-content:center;font-size:100px;'
            'color:#325aaf;font-family:\'Open Sans\'">%d</div>' % d)
    keypad = (
        '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;display:flex;'
        'justify-content:space-between">%s</div>' % (gx, gy_end + 330, size, "".join(keys)))
    newgame = (
        '<div style="position:absolute;left:%dpx;top:%dpx;width:%dpx;height:140px;'
        'border-radius:70px;background:#325aaf;color:#fff;font-family:\'Open Sans\';'
        'font-size:50px;font-weight:600;display:flex;align-items:center;'
        'justify-content:center">New Game</div>' % (gx + 150, gy_end + 580, size - 300))
    homebar = ('<div style="position:absolute;left:%dpx;top:%dpx;width:420px;height:14px;'
               'border-radius:7px;background:#000"></div>' % ((W - 420) // 2, H - 40))
    body = status + header + grid + toolbar + keypad + newgame + homebar
    info = dict(entries=len(entries), pencil=len(pencil))
    return page(body, W, H, "#ffffff", font=font), W, H, info


def webpage_page(puzzle, opt):
    W, H = 1100, 1300
    g, size = grid_html(puzzle, opt)
    g = '<div style="display:flex;justify-content:center">%s</div>' % g
    body = (
        '<div style="background:#24394f;color:#fff;height:80px;display:flex;'
        'align-items:center;padding:0 40px;font-family:\'Liberation Sans\';font-size:30px;'
        'font-weight:700">The Daily Puzzle'
        '<span style="margin-left:auto;font-size:20px;font-weight:400">Crosswords &nbsp; '
        'Sudoku &nbsp; Word Search &nbsp; Archive</span></div>'
        '<div style="width:800px;margin:0 auto;font-family:\'Noto Serif\';color:#222">'
        '<h1 style="font-size:40px;margin:34px 0 10px">Sudoku No. 4172 &mdash; Thursday, 13 June</h1>'
        '<p style="font-size:21px;line-height:1.45;margin:0 0 26px">Fill the grid so that every '
        'row, every column and every 3&times;3 box contains the digits 1 to 9 exactly once. '
        "Today's puzzle is rated <b>3 of 5 stars</b>; the average solving time is 14 minutes.</p>"
        '%s'
        '<p style="font-size:21px;line-height:1.45;margin:28px 0 8px">Stuck? Start with row 5 '
        'and column 7, then look at the box in the lower left corner. Solutions are published '
        'tomorrow at 6 a.m. Puzzle 4171 was solved by 12,845 readers.</p>'
        '<p style="font-size:17px;color:#666;margin:0">&copy; 2024 The Daily Puzzle &middot; '
        'Terms &middot; Privacy &middot; Contact</p>'
        '</div>' % g)
    return page(body, W, H, "#ffffff", font="Noto Serif"), W, H


def nogrid_page():
    W, H = 1000, 800
    body = (
        '<div style="padding:40px 60px;font-family:\'DejaVu Sans\';color:#222">'
        '<h1 style="font-size:36px;margin:0 0 16px">Quarterly report 2024 &ndash; Q2</h1>'
        '<p style="font-size:20px;line-height:1.5">Revenue grew by 12.5% to 4,381,907 EUR. '
        'The team shipped 37 releases and closed 1,204 tickets; 9 of 10 customers rated '
        'support 4 or 5 stars. Next review: 2024-09-18 at 14:30.</p>'
        '<ol style="font-size:20px;line-height:1.6">'
        '<li>Order 31415 shipped on 3 June (7 items, 2 boxes)</li>'
        '<li>Invoice 27182 paid: 865.40 EUR</li>'
        '<li>Call +49 30 1234 5678 about contract 9-4-6</li>'
        '<li>Meeting room 8, floor 2, seats 16</li></ol>'
        '<p style="font-size:20px;line-height:1.5">Numbers of the week: 3, 1, 4, 1, 5, 9, 2, 6, 5, '
        '3, 5, 8, 9, 7, 9. Lottery draw: 7 &ndash; 12 &ndash; 19 &ndash; 23 &ndash; 38 &ndash; 41.</p>'
        '<div style="display:flex;gap:30px;margin-top:30px">'
        '<div style="flex:1;background:#eef3f8;border-radius:10px;padding:20px;font-size:44px;'
        'font-weight:700;color:#24394f">98.2%<div style="font-size:18px;font-weight:400">uptime</div></div>'
        '<div style="flex:1;background:#f8f1e8;border-radius:10px;padding:20px;font-size:44px;'
        'font-weight:700;color:#7a4a12">5,678<div style="font-size:18px;font-weight:400">users</div></div>'
        '<div style="flex:1;background:#eef8ee;border-radius:10px;padding:20px;font-size:44px;'
        'font-weight:700;color:#1f6a2a">123<div style="font-size:18px;font-weight:400">orders today</div></div>'
        '</div></div>')
    return page(body, W, H, "#ffffff"), W, H


# ---------------------------------------------------------------------------
# Sample definitions
# ---------------------------------------------------------------------------

def samples():
    """List of (name, ext, target_givens, builder). builder(puzzle, solution, rng)
    returns (html, W, H, note)."""
    S = []

    def simple(name, ext, target, W, H, bg, wrap_style="", outer_style="", **opt):
        def build(puzzle, solution, rng):
            return centered_grid_page(puzzle, opt, W, H, bg, wrap_style, outer_style), W, H
        S.append((name, ext, target, build))

    # 1. classic light app, sans serif
    simple("classic-dejavu-light", "png", 28, 760, 760, LIGHT["page"],
           cell=72, thin=1, thick=3, font="DejaVu Sans", ratio=0.60, colors=LIGHT)
    # 2. serif, cream (non-white) page background and cells
    cream = dict(LIGHT, page="#f4ecd8", cell="#fbf6ea", thin="#b9ad93", thick="#3b3125",
                 given="#2b2219")
    simple("serif-cream", "png", 30, 800, 720, cream["page"],
           cell=68, thin=1, thick=4, font="Liberation Serif", ratio=0.66, colors=cream)
    # 3. dark theme, mono font
    simple("dark-firacode", "png", 26, 720, 720, DARK["page"],
           cell=66, thin=1, thick=3, font="Fira Code", ratio=0.58, colors=DARK)
    # 4. bold font, highlighted row/column/box and selected cell
    hl = dict(LIGHT, thick="#20242c")

    def build_hl(puzzle, solution, rng):
        empties = [i for i in range(81) if not puzzle[i] and 2 <= ROW[i] <= 6 and 2 <= COL[i] <= 6]
        sel = empties[len(empties) // 2]
        opt = dict(cell=70, thin=1, thick=3, font="Roboto", weight=700, ratio=0.62,
                   colors=hl, highlight=sel, hl_area="#e2ebf3", hl_sel="#bbdefb")
        return centered_grid_page(puzzle, opt, 740, 740, "#ffffff"), 740, 740
    S.append(("bold-roboto-highlight", "png", 29, build_hl))
    # 5. phone screenshot
    S.append(("phone-1170x2532", "png", 27,
              lambda p, s, rng: phone_page(p, s, rng)[:3]))
    # 6. JPEG, Lato
    simple("lato-light", "jpg", 31, 700, 700, "#ffffff",
           cell=64, thin=1, thick=3, font="Lato", ratio=0.62, colors=LIGHT)
    # 7. WebP, Comfortaa, dark navy theme
    navy = dict(DARK, page="#0f1b2d", cell="#14233a", thin="#2c4160", thick="#7f9cc4",
                given="#f1f5fb")
    simple("comfortaa-navy", "webp", 27, 680, 680, navy["page"],
           cell=62, thin=1, thick=3, font="Comfortaa", weight=700, ratio=0.56, colors=navy)
    # 8. small grid (~270 px)
    simple("small-cantarell", "png", 32, 340, 340, "#ffffff",
           cell=30, thin=1, thick=2, font="Cantarell", ratio=0.66, colors=LIGHT)
    # 9. large grid (~1500+ px)
    simple("large-noto-sans", "png", 25, 1720, 1720, "#ffffff",
           cell=172, thin=2, thick=6, font="Noto Sans", ratio=0.58, colors=LIGHT)
    # 10. uniform thin lines everywhere
    uni = dict(LIGHT, thin="#6b717b")
    simple("uniform-lines-liberation", "png", 30, 720, 720, "#ffffff",
           cell=70, thin=1, font="Liberation Sans", ratio=0.62, colors=uni, uniform=True)
    # 11. rotated ~3 degrees
    simple("rotated-roboto-slab", "png", 28, 820, 820, "#eef1f5",
           wrap_style="transform:rotate(3deg);box-shadow:0 6px 24px rgba(0,0,0,.18)",
           cell=68, thin=1, thick=3, font="Roboto Slab", ratio=0.60, colors=LIGHT)
    # 12. mild perspective (photo of a screen)
    simple("perspective-opensans", "png", 29, 900, 860,
           "radial-gradient(circle at 50% 40%, #5a5f66 0%, #2a2d31 80%)",
           outer_style="perspective:1100px",
           wrap_style=("transform:rotateX(9deg) rotateY(-5deg);padding:26px;background:#fafafa;"
                       "border-radius:8px;box-shadow:0 20px 40px rgba(0,0,0,.5)"),
           cell=70, thin=1, thick=3, font="Open Sans", ratio=0.62, colors=LIGHT)
    # 13. web page with text above and below
    def build_web(puzzle, solution, rng):
        opt = dict(cell=62, thin=1, thick=3, font="Liberation Sans", ratio=0.62,
                   colors=dict(LIGHT, thick="#000000", given="#000000", thin="#999999"))
        return webpage_page(puzzle, opt)
    S.append(("webpage-text", "png", 33, build_web))
    # 14. Noto Serif, pure black dark theme, thicker outer frame
    dark2 = dict(DARK, page="#000000", cell="#101010", thin="#444444", thick="#d0d0d0",
                 given="#f5f5f5")
    simple("dark-noto-serif", "png", 24, 700, 700, dark2["page"],
           cell=66, thin=1, thick=3, outer=5, font="Noto Serif", ratio=0.64, colors=dark2)
    # 15. mono font light, DejaVu Sans Mono with grey given cells
    simple("mono-dejavu-shaded", "png", 34, 700, 700, "#ffffff",
           cell=66, thin=1, thick=3, font="DejaVu Sans Mono", ratio=0.60, colors=LIGHT,
           given_fill="#e9ebef")
    return S


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def find_chromium():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(c)
        if p:
            return p
    sys.exit("chromium not found: run samples/make_samples.sh (apt-get install chromium)")


def find_convert():
    # /usr/bin/convert is Debian's ImageMagick; a different `convert` may come
    # first in PATH on some machines, so prefer the Debian one.
    for c in ("/usr/bin/convert", shutil.which("magick"), shutil.which("convert")):
        if c and os.path.exists(c):
            return c
    sys.exit("ImageMagick not found: apt-get install imagemagick")


def screenshot(chromium, html_text, w, h, out_png, workdir):
    html_path = os.path.join(workdir, os.path.basename(out_png) + ".html")
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(html_text)
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=workdir)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--user-data-dir=" + profile, "--hide-scrollbars",
           "--force-device-scale-factor=1", "--window-size=%d,%d" % (w, h),
           "--virtual-time-budget=3000",
           "--screenshot=" + out_png, "file://" + html_path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if r.returncode != 0 or not os.path.exists(out_png):
        sys.stderr.write(r.stderr.decode(errors="replace"))
        sys.exit("chromium failed for " + out_png)
    shutil.rmtree(profile, ignore_errors=True)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--keep-html", default="")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))

    chromium = find_chromium()
    convert = None
    workdir = tempfile.mkdtemp(prefix="sudoku-samples-")
    os.makedirs(TESTDATA, exist_ok=True)
    try:
        for idx, (name, ext, target, build) in enumerate(samples()):
            if only and name not in only:
                continue
            seed = BASE_SEED + 1000 * idx
            puzzle, solution = generate(seed, target)
            rng = random.Random(seed + 1)
            res = build(puzzle, solution, rng)
            html_text, w, h = res[:3]
            if args.keep_html:
                os.makedirs(args.keep_html, exist_ok=True)
                with open(os.path.join(args.keep_html, name + ".html"), "w") as f:
                    f.write(html_text)
            tmp_png = os.path.join(workdir, name + ".png")
            screenshot(chromium, html_text, w, h, tmp_png, workdir)
            pw, ph = png_size(tmp_png)
            if (pw, ph) != (w, h):
                sys.exit("%s: screenshot is %dx%d, expected %dx%d" % (name, pw, ph, w, h))
            out = os.path.join(HERE, name + "." + ext)
            for old_ext in ("png", "jpg", "webp"):
                old = os.path.join(HERE, name + "." + old_ext)
                if old_ext != ext and os.path.exists(old):
                    os.remove(old)
            if ext == "png":
                shutil.copyfile(tmp_png, out)
            else:
                convert = convert or find_convert()
                q = "85" if ext == "jpg" else "90"
                subprocess.run([convert, tmp_png, "-strip", "-quality", q, out], check=True)
            givens = "".join(str(v) if v else "." for v in puzzle)
            with open(os.path.join(HERE, name + ".txt"), "w", newline="\n") as f:
                f.write(givens + "\n" + "".join(map(str, solution)) + "\n")
            n = sum(1 for v in puzzle if v)
            print("%-28s %-5s %4dx%-4d givens=%d" % (name, ext, w, h, n))
        if not only or "no-grid" in only:
            html_text, w, h = nogrid_page()
            out = os.path.join(TESTDATA, "no-grid.png")
            screenshot(chromium, html_text, w, h, out, workdir)
            print("%-28s %-5s %4dx%-4d" % ("tests/data/no-grid", "png", w, h))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
