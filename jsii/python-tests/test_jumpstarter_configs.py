"""The exporter configs our provisioners render, read by Jumpstarter's own packages (0.9.0, from PyPI).

Each config (scripts/python-fixtures.ts: every set of the GitOps example, and a set with every option for
each provisioner) is loaded by Jumpstarter's exporter-config model, as `jmp run --exporter-config` loads
it, and each driver entry is instantiated the way the exporter does it, which imports the class from the
real driver package and passes it the arguments we wrote. No VM, emulator or cloud device is started:
the drivers only start one when a client asks. A driver whose constructor needs a program that is not on
this machine has its parameters checked against its dataclass fields instead, and must fail only for
that program.
"""

import base64
import dataclasses
import json

import pytest
import yaml
from jumpstarter.common.exceptions import ConfigurationError
from jumpstarter.common.importlib import import_class
from jumpstarter.config.exporter import (
    ExporterConfigV1Alpha1,
    ExporterConfigV1Alpha1DriverInstanceBase,
    ExporterConfigV1Alpha1DriverInstanceProxy,
)

from conftest import FIXTURES

CONFIGS = FIXTURES / "exporter-configs"
INDEX = json.loads((CONFIGS / "index.json").read_text())
CA_PEM = "-----BEGIN CERTIFICATE-----\nMIIBfixture\n-----END CERTIFICATE-----\n"

# Driver classes whose constructor needs a program this machine does not have, and the error it gives.
NEEDS_A_PROGRAM = {
    "jumpstarter_driver_androidemulator.driver.AndroidEmulator": "Android emulator executable not found in PATH",
}


def entries():
    for item in INDEX:
        config = ExporterConfigV1Alpha1.load_path(CONFIGS / item["file"])
        for name, driver in config.export.items():
            yield pytest.param(item, name, driver, id=f"{item['file']}:{name}")


def test_every_provisioner_and_both_sources_are_covered():
    provisioners = {item["provisioner"] for item in INDEX}
    assert provisioners >= {
        "qemu.jumpstarter.dev",
        "qemu-ssh.jumpstarter.dev",
        "qemu-baremetal.jumpstarter.dev",
        "corellium.jumpstarter.dev",
        "android.jumpstarter.dev",
    }
    assert {item["source"] for item in INDEX} == {"gitops", "every-option"}


@pytest.mark.parametrize("item", INDEX, ids=[item["file"] for item in INDEX])
def test_the_exporter_config_model_loads_it(item):
    config = ExporterConfigV1Alpha1.load_path(CONFIGS / item["file"])
    exporter = item["exporterSet"] + "-0"
    assert config.metadata.name == exporter
    assert config.endpoint == "grpc.jumpstarter.example:443"
    assert config.token == "header.payload.signature"
    # Jumpstarter base64-decodes tls.ca into the PEM bundle it trusts.
    assert base64.b64decode(config.tls.ca).decode() == CA_PEM
    assert config.export, "no driver exported"


@pytest.mark.parametrize("item", INDEX, ids=[item["file"] for item in INDEX])
def test_every_key_we_write_is_read_but_exit_on_lease_end(item):
    raw = yaml.safe_load((CONFIGS / item["file"]).read_text())
    known = set(ExporterConfigV1Alpha1.model_fields) | {
        f.alias for f in ExporterConfigV1Alpha1.model_fields.values() if f.alias
    }
    # exitOnLeaseEnd (INTEROP §3) is no field of jumpstarter 0.9.0's model: it loads and is ignored.
    assert set(raw) - known == {"exitOnLeaseEnd"}


@pytest.mark.parametrize("item,name,driver", list(entries()))
def test_each_driver_is_built_by_the_real_package_from_our_arguments(item, name, driver, monkeypatch):
    # What the Corellium Pod's environment holds (its provisioner sets both from the class).
    monkeypatch.setenv("CORELLIUM_API_HOST", "app.corellium.com")
    monkeypatch.setenv("CORELLIUM_API_TOKEN", "token-from-the-class-secret")
    root = driver.root
    if isinstance(root, ExporterConfigV1Alpha1DriverInstanceProxy):
        config = ExporterConfigV1Alpha1.load_path(CONFIGS / item["file"])
        assert root.ref in config.export, f"{name} refers to {root.ref}, which the config does not export"
        return
    assert isinstance(root, ExporterConfigV1Alpha1DriverInstanceBase)
    cls = import_class(root.type, [], True)  # as the exporter imports it; raises if the package lacks it
    if root.type in NEEDS_A_PROGRAM:
        check_parameters(cls, root.config)
        with pytest.raises(ConfigurationError, match=NEEDS_A_PROGRAM[root.type]):
            driver.instantiate()
        return
    instance = driver.instantiate()
    assert isinstance(instance, cls)
    for key, value in root.config.items():
        assert getattr(instance, key) is not None, key


def check_parameters(cls, config: dict):
    """Our arguments against the driver's dataclass: every key a field it takes, every required one given."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = set(config) - set(fields)
    assert not unknown, f"{cls.__name__} takes no {sorted(unknown)}"
    required = {
        n for n, f in fields.items() if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    missing = required - set(config)
    assert not missing, f"{cls.__name__} needs {sorted(missing)}"
    for key, value in config.items():
        annotation = str(fields[key].type)
        if annotation in ("int", "bool", "str"):
            assert type(value).__name__ == annotation, f"{cls.__name__}.{key}: {value!r} is not {annotation}"
