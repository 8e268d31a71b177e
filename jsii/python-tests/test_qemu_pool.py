"""A QemuPool with every option set, from Python: each value arrives in the manifests, which are the ones
the TypeScript construct writes for the same options (scripts/python-fixtures.ts, fullQemuPool)."""

import datetime

import yaml
from cdk8s import App, Chart, Duration, Size

from conftest import FIXTURES
from virtual_exporters import (
    BindingMode,
    DriverConfig,
    ForecastMode,
    ForecastSpec,
    ImagePullPolicy,
    Images,
    ImageSpec,
    IntOrPercent,
    LabelSelector,
    LabelSelectorOperator,
    LabelSelectorRequirement,
    QemuArch,
    QemuFirmware,
    QemuPool,
    ReclaimPolicy,
    RecycleStrategy,
    ResourceRequirements,
    ScaleInBasePolicy,
    ScaleInStrategy,
    Scheduling,
    TaintEffect,
    Toleration,
    TolerationOperator,
    UpdateStrategy,
    UpdateStrategyType,
)

DIGEST = "sha256:" + "a" * 64


def full_pool_app() -> App:
    app = App()
    chart = Chart(app, "pools", namespace="lab")
    QemuPool(
        chart,
        "Full",
        metadata={"name": "full", "labels": {"team": "os"}},
        class_name="full-class",
        arch=QemuArch.AARCH64,
        machine_type="virt",
        cpu=4,
        memory=Size.gibibytes(8),
        storage=Size.gibibytes(32),
        firmware=QemuFirmware(url="registry.example.com/fw:1", digest=DIGEST),
        kvm=True,
        extra_parameters={"bios": "uefi", "extra": {"nested": [1, "two", True]}},
        labels={"board": "full", "virtual": "true"},
        annotations={"note": "all options"},
        drivers=[DriverConfig(name="vm", type="jumpstarter_driver_qemu.driver.Qemu", config={"hostname": "full"})],
        min_replicas=1,
        max_replicas=9,
        min_available_replicas=2,
        scale_down_cooldown=Duration.seconds(90),
        recycle_strategy=RecycleStrategy.IN_PLACE_REUSE,
        paused=True,
        scale_in_strategy=ScaleInStrategy(
            base_policy=ScaleInBasePolicy.OLDEST,
            selectors=[
                LabelSelector(
                    match_expressions=[
                        LabelSelectorRequirement(key="tier", operator=LabelSelectorOperator.IN, values=["spare"])
                    ]
                )
            ],
        ),
        update_strategy=UpdateStrategy(
            type=UpdateStrategyType.PROACTIVE,
            max_surge=IntOrPercent.percent(50),
            max_unavailable=IntOrPercent.count(0),
        ),
        recycle_requested_at=datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc),
        revision_history_limit=3,
        pinned_revision="full-5d8f7c",
        forecast=ForecastSpec(mode=ForecastMode.FORECAST_ONLY, max_extra=2),
        selector=LabelSelector(match_labels={"board": "full"}),
        binding_mode=BindingMode.WAIT_FOR_FIRST_CONSUMER,
        reclaim_policy=ReclaimPolicy.RETAIN,
        scheduling=Scheduling(
            node_selector={"kubernetes.io/arch": "arm64"},
            tolerations=[Toleration(key="kvm", operator=TolerationOperator.EXISTS, effect=TaintEffect.NO_SCHEDULE)],
            resources=ResourceRequirements(limits={"devices.kubevirt.io/kvm": "1"}, requests={"cpu": "2"}),
            affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": []}},
            priority_class_name="lab",
            runtime_class_name="kata",
        ),
        images=Images(
            exporter=ImageSpec(image="quay.example.com/jumpstarter:1", image_pull_policy=ImagePullPolicy.IF_NOT_PRESENT),
            runtime=ImageSpec(image="quay.example.com/qemu:1", image_pull_policy=ImagePullPolicy.ALWAYS),
        ),
    )
    return app


def test_every_option_reaches_the_manifests():
    objects = list(yaml.safe_load_all(full_pool_app().synth_yaml()))
    cls = next(o for o in objects if o["kind"] == "VirtualTargetClass")
    pool = next(o for o in objects if o["kind"] == "ExporterSet")
    assert cls["metadata"] == {"name": "full-class", "namespace": "lab"}
    assert cls["spec"]["bindingMode"] == "WaitForFirstConsumer"
    assert cls["spec"]["reclaimPolicy"] == "Retain"
    assert cls["spec"]["parameters"] == {
        "bios": "uefi",
        "extra": {"nested": [1, "two", True]},
        "arch": "aarch64",
        "machineType": "virt",
        "resources": {"cpu": 4, "memory": "8Gi", "storage": "32Gi"},
        "firmware": {"url": "registry.example.com/fw:1", "digest": DIGEST},
        "kvm": True,
    }
    assert cls["spec"]["scheduling"]["tolerations"] == [{"key": "kvm", "operator": "Exists", "effect": "NoSchedule"}]
    assert cls["spec"]["scheduling"]["runtimeClassName"] == "kata"
    assert cls["spec"]["images"]["runtime"] == {"image": "quay.example.com/qemu:1", "imagePullPolicy": "Always"}
    spec = pool["spec"]
    assert pool["metadata"] == {"name": "full", "namespace": "lab", "labels": {"team": "os"}}
    assert (spec["minReplicas"], spec["maxReplicas"], spec["minAvailableReplicas"]) == (1, 9, 2)
    assert spec["scaleDownCooldown"] == "1m30s"
    assert spec["recycleStrategy"] == "InPlaceReuse"
    assert spec["paused"] is True
    assert spec["scaleInStrategy"] == {
        "basePolicy": "Oldest",
        "selectors": [{"matchExpressions": [{"key": "tier", "operator": "In", "values": ["spare"]}]}],
    }
    assert spec["updateStrategy"] == {"type": "Proactive", "maxSurge": "50%", "maxUnavailable": 0}
    assert spec["recycleRequestedAt"] == "2026-11-01T08:00:00.000Z"
    assert (spec["revisionHistoryLimit"], spec["pinnedRevision"]) == (3, "full-5d8f7c")
    assert spec["forecast"] == {"mode": "ForecastOnly", "maxExtra": 2}
    assert spec["selector"] == {"matchLabels": {"board": "full"}}
    assert spec["virtualTargetClassName"] == "full-class"
    assert spec["template"]["metadata"] == {
        "labels": {"board": "full", "virtual": "true"},
        "annotations": {"note": "all options"},
    }
    assert spec["template"]["spec"]["drivers"] == [
        {"name": "vm", "type": "jumpstarter_driver_qemu.driver.Qemu", "config": {"hostname": "full"}}
    ]


def test_the_manifests_are_the_typescript_constructs_for_the_same_options():
    assert full_pool_app().synth_yaml() == (FIXTURES / "qemu-pool-full.yaml").read_text()


def test_the_pool_exposes_its_class_for_other_sets():
    app = App()
    chart = Chart(app, "pools", namespace="lab")
    pool = QemuPool(chart, "Ci", metadata={"name": "ci"}, labels={"board": "ci"})
    assert pool.virtual_target_class.name == "ci"
    assert pool.exporter_set_name == "ci"
