#!/usr/bin/env python3
"""Writes the decoder bombs of issue 57 into DIR: pictures small on disk whose decoding takes
far more memory than their pixels suggest, one per decoder path.

    python3 benches/bombs.py DIR

webp-lossless.webp  a 16383 x 6100 lossless WebP of 38 bytes (one-symbol prefix codes)
jpeg-progressive.jpg, jpeg-baseline.jpg  9999 x 9999 (Pillow)
gif.gif             9999 x 9999, one colour (Pillow)
bmp-rle8.bmp        10000 x 10000 RLE8, about 1 KB (its data ends at once)
png-iccp.png, png-ztxt.png, png-itxt.png  a 64 x 64 PNG whose iCCP / zTXt / compressed iTXt
                    chunk inflates to 2 GB
png-interlaced.png  9999 x 9999 16-bit RGBA, Adam7
Needs Pillow and numpy for the JPEG and GIF.
"""
import struct
import sys
import zlib

import numpy as np
from PIL import Image


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def ihdr(width, height, depth, colour, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))


def zeros_deflated(total, step=1 << 24):
    z = zlib.compressobj(9)
    block = bytes(step)
    out = [z.compress(block) for _ in range(total // step)]
    return b"".join(out) + z.flush()


def small_png(extra):
    side = 64
    rows = b"".join(b"\0" + b"\xff" * side for _ in range(side))
    return (b"\x89PNG\r\n\x1a\n" + ihdr(side, side, 8, 0) + extra
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def bits_lsb(fields):
    """(value, width) fields packed least significant bit first, as VP8L reads them."""
    acc, n = 0, 0
    for value, width in fields:
        acc |= value << n
        n += width
    return acc.to_bytes((n + 7) // 8, "little")


def webp_lossless(width, height):
    # Five simple prefix codes of one symbol each: every pixel costs zero bits.
    one_symbol = lambda s: [(1, 1), (0, 1), (1, 1), (s, 8)]
    fields = [(0x2F, 8), (width - 1, 14), (height - 1, 14), (1, 1), (0, 3), (0, 1), (0, 1), (0, 1)]
    for symbol in (0, 0, 0, 255, 0):  # green, red, blue, alpha, distance
        fields += one_symbol(symbol)
    vp8l = bits_lsb(fields)
    vp8l += b"\0" * (len(vp8l) % 2)
    body = b"WEBP" + b"VP8L" + struct.pack("<I", len(vp8l)) + vp8l
    return b"RIFF" + struct.pack("<I", len(body)) + body


def bmp_rle8(width, height):
    palette = b"".join(bytes([i, i, i, 0]) for i in range(256))
    data = b"\x00\x01"  # end of bitmap at once: the rest is left as the decoder fills it
    offset = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(data), 2835, 2835, 256, 0)
    head = b"BM" + struct.pack("<IHHI", offset + len(data), 0, 0, offset)
    return head + info + palette + data


def png_interlaced(side):
    z = zlib.compressobj(9)
    row = b"\0" + b"\x80" * (side * 8)
    # Adam7's seven passes of a 16-bit RGBA picture: each pass's rows, filter byte first.
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    data = []
    for x0, y0, dx, dy in passes:
        w = (side - x0 + dx - 1) // dx
        h = (side - y0 + dy - 1) // dy
        if w and h:
            line = row[: 1 + w * 8]
            data += [z.compress(line) for _ in range(h)]
    data = b"".join(data) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + ihdr(side, side, 16, 6, 1)
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def main(out):
    open(f"{out}/webp-lossless.webp", "wb").write(webp_lossless(16383, 6100))
    open(f"{out}/bmp-rle8.bmp", "wb").write(bmp_rle8(10000, 10000))
    bomb = zeros_deflated(2 << 30)
    open(f"{out}/png-iccp.png", "wb").write(small_png(chunk(b"iCCP", b"icc\0\0" + bomb)))
    open(f"{out}/png-ztxt.png", "wb").write(small_png(chunk(b"zTXt", b"Comment\0\0" + bomb)))
    open(f"{out}/png-itxt.png", "wb").write(small_png(chunk(b"iTXt", b"Comment\0\1\0\0\0" + bomb)))
    open(f"{out}/png-interlaced.png", "wb").write(png_interlaced(9999))
    side = 9999
    # Noise in blocks: JPEG's coefficients are not all zero, as in a photo.
    rng = np.random.default_rng(57)
    tile = rng.integers(0, 256, (512, 512, 3), dtype=np.uint8)
    pixels = np.tile(tile, (side // 512 + 1, side // 512 + 1, 1))[:side, :side]
    picture = Image.fromarray(pixels)
    # 4:4:4, the most coefficients a progressive decoder keeps.
    picture.save(f"{out}/jpeg-progressive.jpg", quality=5, progressive=True, subsampling=0)
    picture.save(f"{out}/jpeg-baseline.jpg", quality=5)
    Image.new("P", (side, side)).save(f"{out}/gif.gif")


if __name__ == "__main__":
    main(sys.argv[1])
