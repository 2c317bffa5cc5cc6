#!/usr/bin/env bash
# nudge send vs notify-send on the same bench: whole-process wall time, alternating,
# median of N runs each; then the client CPU cost per Notify (nudge-bench).
# Run with: make bench   (release build, inside scripts/testbench)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nudge="$root/.build/release/nudge"
runs=${RUNS:-30}
[ -n "${NUDGE_BENCH_DIR:-}" ] || { echo "run inside the bench: scripts/testbench run $0" >&2; exit 64; }

now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m/1e6}'; }

: > "$NUDGE_BENCH_DIR/t-nudge"; : > "$NUDGE_BENCH_DIR/t-notify"
for i in $(seq "$runs"); do
    t0=$(now); "$nudge" send "Bench $i" "nudge send"; t1=$(now)
    echo $((t1 - t0)) >> "$NUDGE_BENCH_DIR/t-nudge"
    dunstctl close-all
    t0=$(now); notify-send "Bench $i" "notify-send"; t1=$(now)
    echo $((t1 - t0)) >> "$NUDGE_BENCH_DIR/t-notify"
    dunstctl close-all
done
n=$(median < "$NUDGE_BENCH_DIR/t-nudge")
s=$(median < "$NUDGE_BENCH_DIR/t-notify")
echo "whole-process wall time, median of $runs alternating runs:"
echo "  nudge send:  $n ms"
echo "  notify-send: $s ms"
awk -v n="$n" -v s="$s" 'BEGIN { printf "  ratio nudge/notify-send: %.2fx (goal <= 1.0x)\n", n/s }'
echo
"$root/.build/release/nudge-bench" 1000
