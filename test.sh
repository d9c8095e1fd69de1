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

echo "== release build"
cargo build --workspace --release --locked

echo "== cargo test"
cargo test --workspace --release --locked

echo "== conformance suite"
python3 -m pytest conformance/ -q -p no:cacheprovider
