#!/usr/bin/env bash
# Runs every test: the Rust unit, property, golden, fuzz-corpus and crash
# tests, then the conformance suite (the release binary driven by kcat,
# confluent-kafka, kafka-python and kafkajs). On a fresh machine it first
# installs what the conformance suite needs (conformance/install.sh);
# set TIDEMARK_SKIP_INSTALL=1 to skip that step.
set -euo pipefail
cd "$(dirname "$0")"

if [ "${TIDEMARK_SKIP_INSTALL:-0}" != "1" ]; then
    bash conformance/install.sh
fi

# One build for the binaries and the test binaries: `cargo test` resolves
# the dependencies' features with the dev-dependencies, so building the
# binaries alone first compiled every crate whose features differ (the
# broker among them) twice. `cargo test` then only runs what is built.
echo "== release build (binaries and tests)"
cargo build --workspace --release --locked --lib --bins --tests

echo "== cargo test"
cargo test --workspace --release --locked

echo "== conformance suite"
# Tests marked `waits` mostly wait (the broker's clock for offset
# retention, share-group acquisition locks) with little CPU: they run
# alongside the others, in a second pytest whose report follows the main
# one. Both report their slowest tests (the whole CI run must stay under
# 30 minutes on 2 cores).
waits_log="$(mktemp)"
python3 -m pytest conformance/ -q -p no:cacheprovider --durations=15 -m waits >"$waits_log" 2>&1 &
waits_pid=$!
main_rc=0
# The main lane runs in two pytest-xdist workers, a test file each at a
# time (module fixtures stay in one process): most tests wait on clients
# and brokers far more than they compute.
python3 -m pytest conformance/ -q -p no:cacheprovider --durations=25 -m "not waits" \
    -n 2 --dist loadfile || main_rc=$?
waits_rc=0
wait "$waits_pid" || waits_rc=$?
echo "== conformance tests that wait (run alongside the above)"
cat "$waits_log"
rm -f "$waits_log"
if [ "$main_rc" != 0 ] || [ "$waits_rc" != 0 ]; then
    echo "conformance suite failed (main: $main_rc, waits: $waits_rc)" >&2
    exit 1
fi
