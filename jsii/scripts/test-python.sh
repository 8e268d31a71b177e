#!/usr/bin/env bash
# npm run test:python: builds the Python wheel of the jsii facade, installs it in a fresh virtual
# environment with the pinned packages of requirements-test.txt (cdk8s, constructs, jsii, pytest and
# Jumpstarter's own packages, from PyPI), writes what the TypeScript library produces for the same
# inputs (scripts/python-fixtures.ts) and runs pytest (python-tests/). Work files: jsii/.work/.
set -euo pipefail
cd "$(dirname "$0")/.."
JSII_DIR=$PWD
ROOT=$(cd .. && pwd)
WORK=$JSII_DIR/.work
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20 # Node 20 is the project's runtime (TOOLCHAIN.md)
export CDK8S_CHECK_UPGRADE=false

echo "== build: the library, the jsii assembly, the wheel"
(cd "$ROOT" && npx tsc -p tsconfig.build.json)
npx jsii --silence-warnings=reserved-word --fail-on-warnings
rm -rf dist
npx jsii-pacmak --targets python --pack-command "node $JSII_DIR/scripts/pack.mjs"
WHEEL=$(ls dist/python/*.whl)

echo "== a fresh virtual environment: $WORK/venv"
rm -rf "$WORK"
mkdir -p "$WORK"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "$WHEEL" -r requirements-test.txt

echo "== what the TypeScript library writes for the same inputs"
(cd "$ROOT" && npx ts-node --transpile-only jsii/scripts/python-fixtures.ts "$WORK/fixtures")

echo "== pytest"
export VIRTUAL_EXPORTERS_FIXTURES=$WORK/fixtures
export VIRTUAL_EXPORTERS_ROOT=$ROOT
export PATH="$WORK/venv/bin:$PATH" # `cdk8s synth` runs `python3 main.py` with the wheel installed
"$WORK/venv/bin/python" -m pytest -p no:cacheprovider -q python-tests "$@"
