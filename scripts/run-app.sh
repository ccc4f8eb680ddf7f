#!/usr/bin/env bash
# Sets up, builds and opens the app on the bundled attention example (or on
# the file given). Pass --screenshot OUT.png to render a PNG instead.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh
exec "$BUILD_DIR/bin/stagecraft" "$@"
