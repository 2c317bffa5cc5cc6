#!/usr/bin/python3
"""One benchmark figure beside its anchor, as BenchSupport's figure() writes it: a line a
person reads on stdout, and, when BENCH_FIGURES names a file, a tab-separated line
appended to it (name, value, anchor, anchor's value, unit, ratio) for make bench-check.
Lower is better for every figure.

  bench/figure.py NAME VALUE UNIT ANCHOR ANCHOR-VALUE     (from a shell script)
  from figure import figure                                (from a Python benchmark)
"""
import os
import sys


def figure(name, value, unit, anchor, anchor_value):
    value, anchor_value = float(value), float(anchor_value)
    ratio = value / anchor_value if anchor_value > 0 else value
    shown = lambda v: f"{v:.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"
    print(f"  figure: {name}: {shown(value)} {unit} (anchor {anchor}: {shown(anchor_value)} {unit}; ratio {ratio:.3f})",
          flush=True)
    path = os.environ.get("BENCH_FIGURES")
    if path:
        with open(path, "a") as f:
            f.write("\t".join([name, str(value), anchor, str(anchor_value), unit, str(ratio)]) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print("usage: bench/figure.py NAME VALUE UNIT ANCHOR ANCHOR-VALUE", file=sys.stderr)
        sys.exit(64)
    figure(*sys.argv[1:])
