#!/bin/bash
# Resident memory of one broker (2 shards) while 3 x 1 GB pass through it,
# after 15 s idle, and with memory trimming off and on (issue 20's
# "memory under a stated bound", issue 14's memory after load).
#
#   benches/load/memtrim.sh [BROKER_BINARY] [TMK_BINARY]
#
# Prints, per mode (memory.trim.interval.ms=0, then 1000), the RSS after
# each GB, after 15 s idle and, for comparison, after one malloc_trim(0)
# forced from gdb (if installed). Every process it starts is stopped by
# its PID; every load step is bounded (timeout 120 s per GB).
set -u
BIN=${1:-target/release/tidemark}
TMK=${2:-target/release/tmk}
PORT=${PORT:-19392}
ROOT=${WORK_DIR:-/work/bench-tmp}
mkdir -p "$ROOT"
rss() { awk '/VmRSS/{printf "%.0f MiB", $2/1024}' /proc/$1/status; }
for interval in 0 1000; do
  D=$(mktemp -d "$ROOT/memtrim.XXXX")
  "$BIN" --data-dir "$D" --kafka-addr 127.0.0.1:$PORT --admin-addr 127.0.0.1:$((PORT + 1)) \
      --cores 2 --set memory.trim.interval.ms=$interval > "$D/log" 2>&1 &
  PID=$!
  trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$D"' EXIT
  for _ in $(seq 50); do
    "$TMK" --brokers 127.0.0.1:$PORT cluster info >/dev/null 2>&1 && break
    sleep 0.2
  done
  echo "== memory.trim.interval.ms=$interval: start RSS $(rss $PID)"
  "$TMK" --brokers 127.0.0.1:$PORT topic create memtrim -p 6 \
      -c retention.bytes=268435456 -c segment.bytes=67108864 >/dev/null
  for gb in 1 2 3; do
    rate=$(timeout 120 "$TMK" --brokers 127.0.0.1:$PORT bench produce memtrim -n 1000000 -s 1024 2>&1 \
        | grep -o "[0-9.]* MiB/s over" | head -1)
    echo "after GB $gb ($rate): RSS $(rss $PID)"
  done
  sleep 15
  echo "after 15 s idle: RSS $(rss $PID)"
  if command -v gdb >/dev/null; then
    gdb -p $PID -batch -ex 'call (int)malloc_trim(0)' >/dev/null 2>&1
    sleep 1
    echo "after a forced malloc_trim(0): RSS $(rss $PID)"
  fi
  curl -s "http://127.0.0.1:$((PORT + 1))/metrics" | grep -E "^tidemark_memory_trim" || true
  kill $PID; wait $PID 2>/dev/null
  rm -rf "$D"
  trap - EXIT
done
