"""Invalid props raise a Python exception with the TypeScript construct's sentence: path, prop, value, rule."""

import pytest
from cdk8s import App, Chart

from virtual_exporters import ExporterSet, ExporterTemplateProps, QemuPool, VirtualTargetClass


def chart() -> Chart:
    return Chart(App(), "pools", namespace="lab")


CASES = {
    "qemu-pool-negative-max": lambda c: QemuPool(c, "Bad", labels={"board": "x"}, max_replicas=-1),
    "class-empty-provisioner": lambda c: VirtualTargetClass(c, "Bad", provisioner=""),
    "set-floor-above-ceiling": lambda c: ExporterSet(
        c,
        "Bad",
        virtual_target_class=VirtualTargetClass.from_name(c, "Cls", "some-class"),
        min_replicas=5,
        max_replicas=2,
        template=ExporterTemplateProps(labels={"board": "x"}),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_exception_carries_the_typescript_message(case: str, typescript_errors: dict[str, str]):
    expected = typescript_errors[case]
    assert expected.startswith("[pools/Bad] invalid ")
    with pytest.raises(Exception) as raised:
        CASES[case](chart())
    assert str(raised.value) == expected


def test_a_missing_required_prop_is_refused_before_the_construct_runs():
    with pytest.raises(TypeError, match="provisioner"):
        VirtualTargetClass(chart(), "NoProvisioner")  # type: ignore[call-arg]
