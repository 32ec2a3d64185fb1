#!/bin/bash
# The arm64 programs' own arithmetic has no fused multiply-add, whose one rounding where two
# operations round twice would make the engines' bits differ from ARMv6's and amd64's
# (docs/every-pi.md, "Same bits on every architecture"). Prints each function of PROGRAM that
# holds FMADD, FMSUB, FNMADD, FNMSUB, FMLA or FMLS, and fails on any but Swift's stride over
# doubles, whose addingProduct is an exact fused operation on every target (libm's fma where the
# processor has none).
#   Tests/dist/fused-arithmetic.sh ARM64-PROGRAM
set -euo pipefail
program=${1:?usage: $0 ARM64-PROGRAM}
objdump=$(dirname "$(command -v swiftc)")/llvm-objdump
functions=$("$objdump" -d --no-show-raw-insn "$program" |
    awk '/>:$/ { name = $2 } /\t(fmadd|fmsub|fnmadd|fnmsub|fmla|fmls)\t/ { print name }' | sort -u)
echo "functions with a fused multiply-add: ${functions:-none}"
unexpected=$(grep -v 'Stride\(Through\|To\)Iterator' <<<"$functions" || true)
if [ -n "$unexpected" ]; then
    echo "fused arithmetic outside Swift's stride: $unexpected"
    exit 1
fi
