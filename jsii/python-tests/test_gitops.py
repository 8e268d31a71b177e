"""examples/gitops-python synthesizes what the TypeScript app (examples/gitops) does, byte for byte."""

import os
import subprocess
from pathlib import Path

from cdk8s import App

from conftest import FIXTURES, GITOPS_PYTHON, ROOT
from main import build_gitops_app


def test_the_python_app_synthesizes_the_yaml_of_the_typescript_app():
    python_yaml = build_gitops_app(App()).synth_yaml()
    typescript_yaml = (FIXTURES / "gitops.yaml").read_text()
    assert len(typescript_yaml) > 10_000
    assert python_yaml == typescript_yaml


def test_cdk8s_synth_of_the_example_writes_the_typescript_apps_files(tmp_path: Path):
    cli = ROOT / "node_modules" / ".bin" / "cdk8s"
    subprocess.run(
        [str(cli), "synth", "--check-upgrade=false", "--output", str(tmp_path)],
        cwd=GITOPS_PYTHON,
        check=True,
        env={**os.environ, "CDK8S_CHECK_UPGRADE": "false"},
    )
    written = sorted(p.name for p in tmp_path.glob("*.k8s.yaml"))
    expected = sorted(p.name for p in (FIXTURES / "gitops").glob("*.k8s.yaml"))
    assert written == expected == ["controller.k8s.yaml", "pools.k8s.yaml"]
    for name in written:
        assert (tmp_path / name).read_bytes() == (FIXTURES / "gitops" / name).read_bytes(), name
