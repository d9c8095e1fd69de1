#!/bin/bash
# compression.type: what recompressing on produce costs the broker.
# Produces 1M x 1 KiB records per case (topic codec x client codec) with
# `tmk bench produce` against a fresh single-node broker on 127.0.0.1:19092
# and reports the broker's CPU seconds from /proc (utime+stime) per record.
# Needs a release build (cargo build --release). Stops the broker by PID.
set -e
cd "$(dirname "$0")/../.."
D=$(mktemp -d /tmp/tmbench.XXXX)
./target/release/tidemark --data-dir $D/data --kafka-addr 127.0.0.1:19092 --admin-addr 127.0.0.1:0 --node-id 1 > $D/log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; sleep 1; rm -rf $D' EXIT
sleep 2
export TMK_BROKERS=127.0.0.1:19092
T=./target/release/tmk
$T topic create tprod -p 2 >/dev/null
$T topic create tzstd -p 2 -c compression.type=zstd >/dev/null
$T topic create tlz4 -p 2 -c compression.type=lz4 >/dev/null
$T topic create tnone -p 2 -c compression.type=uncompressed >/dev/null
cpu() { awk '{print ($14+$15)/100}' /proc/$PID/stat; }
for run in "tprod none" "tzstd none" "tzstd zstd" "tzstd lz4" "tlz4 none" "tnone zstd"; do
  set -- $run
  c0=$(cpu)
  out=$(timeout 120 $T bench produce $1 -n 1000000 -z $2 --format json)
  c1=$(cpu)
  python3 - "$1" "$2" "$c0" "$c1" "$out" <<'PY'
import json, sys
t, z, c0, c1, out = sys.argv[1:]
d = json.loads(out)
cpu = float(c1) - float(c0)
print(f"topic={t:6} client={z:5} rec/s={d['records_per_sec']:>10.0f} wire_MiB={d['bytes']/2**20:8.1f} broker_cpu_s={cpu:5.2f} cpu_us_per_msg={cpu*1e6/d['records']:.2f}")
PY
done
