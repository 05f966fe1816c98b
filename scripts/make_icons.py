"""Draw the app icons (a red die showing five) as PNG files beside the web pages' icon.svg.

Run from the repository root: ``python scripts/make_icons.py``. Pure standard library: the icons are a
rounded square and five discs, drawn with 4x4 supersampling for smooth edges, written as RGBA PNG.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "src" / "kniffel" / "apps" / "web" / "static"
RED = (179, 38, 30)
WHITE = (255, 255, 255)
PIPS = ((0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7))
"""Centres of the five pips, as fractions of the icon's side (the SVG uses the same)."""
PIP_RADIUS = 0.085
CORNER = 0.18
SAMPLES = 4


def inside_rounded_square(x: float, y: float, corner: float) -> bool:
    cx = min(max(x, corner), 1 - corner)
    cy = min(max(y, corner), 1 - corner)
    return (x - cx) ** 2 + (y - cy) ** 2 <= corner**2


def colour_at(x: float, y: float, corner: float) -> tuple[int, int, int, int]:
    if not inside_rounded_square(x, y, corner):
        return (0, 0, 0, 0)
    for px, py in PIPS:
        if (x - px) ** 2 + (y - py) ** 2 <= PIP_RADIUS**2:
            return (*WHITE, 255)
    return (*RED, 255)


def draw(size: int, corner: float) -> bytes:
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # PNG filter: none
        for column in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (column + (sx + 0.5) / SAMPLES) / size
                    y = (row + (sy + 0.5) / SAMPLES) / size
                    r, g, b, a = colour_at(x, y, corner)
                    total = [total[0] + r * a, total[1] + g * a, total[2] + b * a, total[3] + a]
            alpha = total[3]
            pixel = [round(c / alpha) for c in total[:3]] if alpha else [0, 0, 0]
            rows += bytes([*pixel, round(alpha / SAMPLES**2)])
    return bytes(rows)


def png(size: int, pixels: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size, draw(size, CORNER)))
    # A maskable icon fills its whole square: the launcher cuts its own shape out of it.
    (STATIC / "icon-maskable-512.png").write_bytes(png(512, draw(512, 0.0)))


if __name__ == "__main__":
    main()
