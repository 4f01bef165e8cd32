#!/usr/bin/env python3
"""Renders one section of a terminal transcript (docs/editors/*.txt, made
by nvim-session.sh from a real tmux capture) as an SVG picture of the
terminal, for the docs. Convert it with `rsvg-convert -w 1100 in.svg -o
out.png` (Debian: librsvg2-bin).

Usage: render_transcript.py TRANSCRIPT "SECTION TITLE PREFIX" > out.svg
"""
import sys
from xml.sax.saxutils import escape

def section(lines, prefix):
    out, on = [], False
    for line in lines:
        if line.startswith("# "):
            if on:
                break
            on = line[2:].startswith(prefix)
            if on:
                out.append(line)
            continue
        if on:
            out.append(line)
    return out

def main():
    path, prefix = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    body = [l for l in section(lines, prefix) if l.strip() != "~"]
    width = max(len(l) for l in body) if body else 80
    ch, lh, pad = 8.4, 17, 12
    w, h = int(width * ch + 2 * pad), int(len(body) * lh + 2 * pad)
    print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">')
    print(f'<rect width="{w}" height="{h}" fill="#1e1e1e"/>')
    for i, l in enumerate(body):
        color = "#d4d4d4"
        if l.startswith("# "):
            color = "#9cdcfe"
        elif l.startswith("I  ") or "■" in l:
            color = "#dcdcaa"
        elif l[:1].isdigit() and ": " in l:
            color = "#b5cea8"
        y = pad + (i + 1) * lh - 4
        print(f'<text x="{pad}" y="{y}" font-family="DejaVu Sans Mono, monospace" font-size="14" '
              f'fill="{color}" xml:space="preserve">{escape(l)}</text>')
    print('</svg>')

main()
