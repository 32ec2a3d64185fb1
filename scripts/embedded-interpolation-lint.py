#!/usr/bin/env python3
"""Finds string interpolations that Embedded Swift prints as "(cannot print value in embedded
Swift)": the compiler says nothing of them, so this reads what it made.

Embedded Swift's DefaultStringInterpolation prints a String, a number, a Bool, a Character or a
CustomStringConvertible; anything else (an enum, a struct, an Optional, an array) goes to the
unconstrained appendInterpolation<A>(A), which prints only that placeholder. Built at -Onone with
-g, each interpolation of such a value is a call to a specialization of that function, named by
its type, beside the source line it came from.

Input: `llvm-objdump -d -l -r` of the modules, through swift-demangle. Prints FILE:LINE: the type
for each such call and exits 1 when there is any.
"""
import re
import sys

UNPRINTABLE = re.compile(
    r"generic specialization <(.+)> of Swift\.DefaultStringInterpolation\.appendInterpolation<A>\(A\) -> \(\)"
)
LINE = re.compile(r"^; (/\S+:\d+)")


def main() -> int:
    found: dict[str, str] = {}
    where = "?"
    for text in sys.stdin:
        line = LINE.match(text)
        if line:
            where = line.group(1)
            continue
        if "R_X86_64_PLT32" not in text:
            continue
        call = UNPRINTABLE.search(text)
        if call:
            found.setdefault(where, call.group(1))
    for where, type_name in sorted(found.items()):
        print(f"{where}: interpolates a {type_name}, which Embedded Swift prints as "
              "'(cannot print value in embedded Swift)'")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
