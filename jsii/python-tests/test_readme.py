"""The README's "From Python" example runs as printed."""

import re
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import ROOT


def readme_example() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the section has one Python example"
    return blocks[0]


def test_the_readme_example_synthesizes_a_controller_and_a_pool(tmp_path: Path):
    code = readme_example()
    assert len(code.splitlines()) <= 20
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True)
    written = sorted(p.name for p in (tmp_path / "dist").iterdir())
    assert written == ["controller.k8s.yaml", "pools.k8s.yaml"]
    pools = list(yaml.safe_load_all((tmp_path / "dist" / "pools.k8s.yaml").read_text()))
    assert [(o["kind"], o["metadata"]["name"]) for o in pools] == [
        ("VirtualTargetClass", "x86-64-ci"),
        ("ExporterSet", "x86-64-ci"),
    ]
    controller = list(yaml.safe_load_all((tmp_path / "dist" / "controller.k8s.yaml").read_text()))
    assert ("Deployment", "exporter-set-controller-qemu") in [(o["kind"], o["metadata"]["name"]) for o in controller]
