"""A small QR code reader for the tests: from the dashboard's inline SVG back to text.

It reads the module grid from the SVG path (dark runs drawn as ``h`` strokes),
then decodes like any reader: format information (error level and mask),
function patterns skipped, the zigzag codeword order, block de-interleaving,
and numeric, alphanumeric and byte segments. Error correction is not needed
(the image is exact) so it is not done; ``decode`` raises on any inconsistency
instead. Versions 1-10, every error level; checked against segno in the tests.
"""

from __future__ import annotations

import re

# Per error level (L, M, Q, H), versions 1-10: error-correction codewords per block
# and number of blocks (ISO/IEC 18004 table 9).
ECC_PER_BLOCK = {
    "L": (7, 10, 15, 20, 26, 18, 20, 24, 30, 18),
    "M": (10, 16, 26, 18, 24, 16, 18, 22, 22, 26),
    "Q": (13, 22, 18, 26, 18, 24, 18, 22, 20, 24),
    "H": (17, 28, 22, 16, 22, 28, 26, 26, 24, 28),
}
BLOCKS = {
    "L": (1, 1, 1, 1, 1, 2, 2, 2, 2, 4),
    "M": (1, 1, 1, 2, 2, 4, 4, 4, 5, 5),
    "Q": (1, 1, 2, 2, 4, 4, 6, 6, 8, 8),
    "H": (1, 1, 2, 4, 4, 4, 5, 6, 8, 8),
}
_LEVEL_BITS = {1: "L", 0: "M", 3: "Q", 2: "H"}
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_MASKS = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)


class QrError(ValueError):
    """The SVG is not a QR code this reader can read."""


def matrix_from_svg(svg: str) -> list[list[bool]]:
    """The dark modules of a segno inline SVG (``matrix[row][col]``), quiet zone removed."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    path = re.search(r'<path[^>]*class="[^"]*qr-line[^"]*"[^>]*d="([^"]+)"', svg) or re.search(
        r'<path[^>]*stroke="#000"[^>]*d="([^"]+)"', svg
    )
    if not box or not path:
        raise QrError("no QR path in the SVG")
    full = int(box.group(1))
    dark = [[False] * full for _ in range(full)]
    x = y = 0.0
    for op, a, b in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            end = float(a) if op == "H" else x + float(a)
            for col in range(round(x), round(end)):
                dark[int(y)][col] = True
            x = end
    rows = [r for r in range(full) if any(dark[r])]
    cols = [c for c in range(full) if any(dark[r][c] for r in range(full))]
    top, left = rows[0], cols[0]
    size = rows[-1] - top + 1
    return [[dark[top + r][left + c] for c in range(size)] for r in range(size)]


def _alignment_positions(version: int) -> list[int]:
    if version == 1:
        return []
    count = version // 7 + 2
    step = (version * 4 + count * 2 + 1) // (count * 2 - 2) * 2
    positions = [version * 4 + 10 - i * step for i in range(count - 1)]
    return [6, *reversed(positions)]


def _function_modules(version: int) -> list[list[bool]]:
    size = version * 4 + 17
    used = [[False] * size for _ in range(size)]

    def mark(r0: int, r1: int, c0: int, c1: int) -> None:
        for r in range(max(r0, 0), min(r1, size)):
            for c in range(max(c0, 0), min(c1, size)):
                used[r][c] = True

    mark(6, 7, 0, size)  # timing
    mark(0, size, 6, 7)
    mark(0, 9, 0, 9)  # finders, separators and format information
    mark(0, 9, size - 8, size)
    mark(size - 8, size, 0, 9)
    positions = _alignment_positions(version)
    last = len(positions) - 1
    for i, row in enumerate(positions):
        for j, col in enumerate(positions):
            if (i, j) in ((0, 0), (0, last), (last, 0)):
                continue
            mark(row - 2, row + 3, col - 2, col + 3)
    if version >= 7:
        mark(size - 11, size - 8, 0, 6)
        mark(0, 6, size - 11, size - 8)
    return used


def _format(matrix: list[list[bool]]) -> tuple[str, int]:
    # First copy around the top-left finder: bit i at (col 8, row i) etc.
    spots = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
    spots += [(8, 14 - i) for i in range(9, 15)]
    bits = 0
    for i, (row, col) in enumerate(spots):
        bits |= int(matrix[row][col]) << i
    bits ^= 0x5412
    data = bits >> 10
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    if ((data << 10) | remainder) != bits:
        raise QrError("the format information does not check")
    return _LEVEL_BITS[data >> 3], data & 7


def _codewords(matrix: list[list[bool]], version: int, mask: int) -> list[int]:
    size = len(matrix)
    used = _function_modules(version)
    bits = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            row = size - 1 - vert if upward else vert
            for col in (right, right - 1):
                if not used[row][col]:
                    bits.append(int(matrix[row][col] != _MASKS[mask](col, row)))
        right -= 2
    return [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - 7, 8)]


def _data_codewords(raw: list[int], version: int, level: str) -> list[int]:
    blocks = BLOCKS[level][version - 1]
    ecc = ECC_PER_BLOCK[level][version - 1]
    short_count = blocks - len(raw) % blocks
    short_len = len(raw) // blocks
    lengths = [short_len - ecc + (0 if i < short_count else 1) for i in range(blocks)]
    data: list[list[int]] = [[] for _ in range(blocks)]
    at = 0
    for i in range(max(lengths)):
        for j in range(blocks):
            if i < lengths[j]:
                data[j].append(raw[at])
                at += 1
    return [byte for block in data for byte in block]


def _segments(data: list[int], version: int) -> str:
    bits = "".join(f"{b:08b}" for b in data)
    at = 0

    def take(n: int) -> int:
        nonlocal at
        if at + n > len(bits):
            raise QrError("the data ran out in the middle of a segment")
        value = int(bits[at : at + n], 2)
        at += n
        return value

    band = 0 if version <= 9 else 1
    text = []
    raw_bytes = bytearray()
    while len(bits) - at >= 4:
        mode = take(4)
        if mode == 0:
            break
        if mode == 4:
            for _ in range(take((8, 16)[band])):
                raw_bytes.append(take(8))
            continue
        if raw_bytes:
            text.append(_text_of(raw_bytes))
            raw_bytes = bytearray()
        if mode == 1:
            count = take((10, 12)[band])
            while count >= 3:
                text.append(f"{take(10):03d}")
                count -= 3
            if count:
                text.append(f"{take(4 if count == 1 else 7):0{count}d}")
        elif mode == 2:
            count = take((9, 11)[band])
            while count >= 2:
                pair = take(11)
                text.append(_ALNUM[pair // 45] + _ALNUM[pair % 45])
                count -= 2
            if count:
                text.append(_ALNUM[take(6)])
        else:
            raise QrError(f"segment mode {mode} is not read here")
    if raw_bytes:
        text.append(_text_of(raw_bytes))
    return "".join(text)


def _text_of(raw: bytearray) -> str:
    # Byte segments are ISO-8859-1 by the standard; writers (segno too) use UTF-8 for
    # text Latin-1 cannot hold, so try that first as readers do.
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def decode_matrix(matrix: list[list[bool]]) -> str:
    """The text a QR module grid encodes."""
    size = len(matrix)
    version = (size - 17) // 4
    if size != version * 4 + 17 or not 1 <= version <= 10:
        raise QrError(f"a {size}x{size} grid is not a QR code of version 1-10")
    level, mask = _format(matrix)
    raw = _codewords(matrix, version, mask)
    return _segments(_data_codewords(raw, version, level), version)


def decode_svg(svg: str) -> str:
    """The text a QR code drawn as SVG encodes."""
    return decode_matrix(matrix_from_svg(svg))
