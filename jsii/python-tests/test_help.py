"""help() on the constructs shows their documented props, with their defaults."""

import pydoc

from virtual_exporters import ExporterSet, QemuArch, QemuPool


def render(thing) -> str:
    return pydoc.render_doc(thing, renderer=pydoc.plaintext)


def test_help_on_qemu_pool_shows_the_documented_props():
    text = render(QemuPool)
    assert "The common case in one construct" in text
    for prop, doc in [
        ("min_available_replicas", "Warm buffer: ready, unleased instances kept waiting"),
        ("scale_down_cooldown", "How long surplus must last before scale-down"),
        ("memory", "Guest memory"),
        ("drivers", "one QEMU driver named ``qemu``"),
        ("binding_mode", "WAIT_FOR_FIRST_CONSUMER"),
    ]:
        assert f":param {prop}:" in text, prop
        assert doc in text, doc
    assert "Default: 0" in text


def test_help_on_exporter_set_and_enums():
    text = render(ExporterSet)
    assert ":param virtual_target_class:" in text
    assert ":param schedules:" in text
    assert "Guest architectures the QEMU runtime image emulates" in render(QemuArch)
