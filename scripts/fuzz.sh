#!/bin/bash
# Fuzzes every target under Fuzz/ (the configuration loader, replay rows, control lines, JSON,
# serve's request path, …) with libFuzzer + AddressSanitizer, each for SECONDS (default 30),
# starting from its corpus, Fuzz/corpus/NAME-IN-KEBAB-CASE (Fuzz/ReplayRows: replay-rows).
# A crash leaves its input in .build/fuzz/crash-*; it becomes a regression test.
set -euo pipefail
SECONDS_EACH=${1:-30}
cd "$(dirname "$0")/.."
export AMBIENCE_FUZZ=1 SWIFT_BACKTRACE=enable=no
SCRATCH=.build/fuzz
names=()
for dir in Fuzz/*/; do
    name=$(basename "$dir")
    [ "$name" != corpus ] && names+=("$name")
done
# Address first: swiftc keeps coverage instrumentation only when fuzzer is the last -sanitize.
for name in "${names[@]}"; do
    swift build --scratch-path "$SCRATCH" -c debug --sanitize=address --sanitize=fuzzer \
        --product "Fuzz$name" 2>&1 | tail -1
done
for name in "${names[@]}"; do
    corpus=$(echo "$name" | sed -E 's/([a-z])([A-Z])/\1-\2/g' | tr '[:upper:]' '[:lower:]')
    [ -d "Fuzz/corpus/$corpus" ] || { echo "fuzz: no corpus Fuzz/corpus/$corpus for Fuzz$name"; exit 1; }
    work=$(mktemp -d)
    cp Fuzz/corpus/"$corpus"/* "$work"/
    echo "== Fuzz$name for ${SECONDS_EACH}s"
    [ -x "$SCRATCH/debug/Fuzz$name" ] || { echo "fuzz: Fuzz$name was not built"; exit 1; }
    "$SCRATCH"/debug/Fuzz"$name" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=5 \
        -artifact_prefix="$SCRATCH/crash-$name-" -print_final_stats=1 "$work" 2>&1 |
        grep -E 'INITED|stat::number_of_executed_units|ERROR|SUMMARY|Done' || true
    rm -rf "$work"
    if ls "$SCRATCH"/crash-"$name"-* >/dev/null 2>&1; then echo "fuzz: Fuzz$name crashed"; exit 1; fi
done
echo "fuzz: no crashes"
