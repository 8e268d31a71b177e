"""Shared fixtures: what the TypeScript library wrote for the same inputs (scripts/python-fixtures.ts)."""

import json
import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")


def _required_dir(variable: str) -> Path:
    value = os.environ.get(variable)
    if not value:
        raise RuntimeError(f"{variable} is not set: run these tests with `npm run test:python`")
    return Path(value)


FIXTURES = _required_dir("VIRTUAL_EXPORTERS_FIXTURES")
ROOT = _required_dir("VIRTUAL_EXPORTERS_ROOT")
GITOPS_PYTHON = ROOT / "examples" / "gitops-python"
sys.path.insert(0, str(GITOPS_PYTHON))


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def typescript_errors() -> dict[str, str]:
    return json.loads((FIXTURES / "errors.json").read_text())
