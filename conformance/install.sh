#!/usr/bin/env bash
# Install everything the conformance suite needs (idempotent), on Debian:
#   kcat, node + npm, prometheus, chromium (apt, only if missing); the Python clients and pytest
#   (pip, pinned in requirements.txt); kafkajs and its codecs (npm ci, pinned
#   by js/package-lock.json).
# Usage: bash conformance/install.sh        (from anywhere; as root or with sudo)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PYTHON="${PYTHON:-python3}"

missing=()
command -v kcat >/dev/null 2>&1 || missing+=(kcat)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)  # test_tls.py makes its certificates
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)  # test_metrics.py scrapes a cluster
command -v chromium >/dev/null 2>&1 || missing+=(chromium)  # test_status_page.py loads the status page
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
"$PYTHON" -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "== apt-get install ${missing[*]}"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

echo "== pip install -r conformance/requirements.txt"
pip_args=(--disable-pip-version-check --no-input -q -r "$here/requirements.txt")
if ! "$PYTHON" -m pip install "${pip_args[@]}" 2>/tmp/tidemark-pip-err.$$; then
    if grep -q externally-managed-environment /tmp/tidemark-pip-err.$$; then
        # Debian's own python3 (PEP 668): install for this machine anyway
        "$PYTHON" -m pip install --break-system-packages "${pip_args[@]}"
    else
        cat /tmp/tidemark-pip-err.$$ >&2
        rm -f /tmp/tidemark-pip-err.$$
        exit 1
    fi
fi
rm -f /tmp/tidemark-pip-err.$$

echo "== npm ci (conformance/js)"
(cd "$here/js" && npm ci --no-audit --no-fund --loglevel=error)

echo "== versions"
kcat -V 2>&1 | grep -i version || true
node --version
"$PYTHON" -c 'import confluent_kafka, kafka; print("confluent-kafka", confluent_kafka.__version__, "librdkafka", confluent_kafka.libversion()[0], "kafka-python", kafka.__version__)'
