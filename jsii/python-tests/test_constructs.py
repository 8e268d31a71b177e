"""The facade's methods and small classes from Python: add_* mutators, operations, the installer."""

import cdk8s_plus_28 as kplus
import yaml
from cdk8s import App, Chart, Cron, Duration

from virtual_exporters import (
    ExporterOperation,
    ExporterSet,
    ExporterSetController,
    ExporterTemplateProps,
    LogLevel,
    Operation,
    OpsPack,
    TaintEffect,
    TolerationOperator,
    VirtualTargetClass,
    WarmBufferSchedule,
)


def objects(app: App) -> list[dict]:
    return list(yaml.safe_load_all(app.synth_yaml()))


def test_mutators_after_construction_reach_the_manifests():
    app = App()
    chart = Chart(app, "pools", namespace="lab")
    cls = VirtualTargetClass(chart, "Qemu", metadata={"name": "qemu"}, provisioner="qemu.jumpstarter.dev")
    # jsii passes a method's trailing struct as keyword arguments.
    cls.add_toleration(key="kvm", operator=TolerationOperator.EXISTS, effect=TaintEffect.NO_SCHEDULE)
    cls.add_node_selector("kubernetes.io/arch", "amd64")
    pool = ExporterSet(
        chart,
        "Set",
        metadata={"name": "set"},
        virtual_target_class=cls,
        template=ExporterTemplateProps(labels={"board": "x"}),
        schedules=[
            WarmBufferSchedule(
                name="office-hours",
                cron=Cron.schedule(minute="0", hour="8", week_day="1-5"),
                duration=Duration.hours(10),
                min_available_replicas=3,
            )
        ],
    )
    pool.add_driver(type="jumpstarter_driver_qemu.driver.Qemu")
    by_kind = {o["kind"]: o for o in objects(app)}
    scheduling = by_kind["VirtualTargetClass"]["spec"]["scheduling"]
    assert scheduling == {
        "nodeSelector": {"kubernetes.io/arch": "amd64"},
        "tolerations": [{"key": "kvm", "operator": "Exists", "effect": "NoSchedule"}],
    }
    spec = by_kind["ExporterSet"]["spec"]
    assert spec["template"]["spec"]["drivers"] == [{"name": "qemu", "type": "jumpstarter_driver_qemu.driver.Qemu"}]
    assert spec["schedules"] == [
        {"name": "office-hours", "cron": "0 8 * * 1-5", "duration": "10h", "minAvailableReplicas": 3}
    ]


def test_operations_are_written_by_name():
    app = App()
    chart = Chart(app, "ops", namespace="lab")
    ExporterOperation(chart, "Recycle", operation=Operation.RECYCLE, exporter_name="rpi4-virtual-7")
    ExporterOperation(
        chart,
        "Reflash",
        operation=Operation.custom("qemu.jumpstarter.dev/Reflash"),
        exporter_set_name="rpi4-virtual",
        parameters={"image": "latest"},
    )
    specs = [o["spec"] for o in objects(app)]
    assert specs == [
        {"operation": "Recycle", "exporterName": "rpi4-virtual-7"},
        {
            "operation": "qemu.jumpstarter.dev/Reflash",
            "exporterSetName": "rpi4-virtual",
            "parameters": {"image": "latest"},
        },
    ]


def test_the_installer_takes_enums_and_durations():
    app = App()
    controller = ExporterSetController(
        Chart(app, "install"),
        "Controller",
        log_level=LogLevel.DEBUG,
        ops_pack=OpsPack(service_monitor=True, scrape_interval=Duration.seconds(15)),
    )
    assert controller.namespace == "jumpstarter"
    assert len(controller.api_objects) > 5
    written = objects(app)
    deployment = next(o for o in written if o["kind"] == "Deployment")
    assert "--log-level=debug" in deployment["spec"]["template"]["spec"]["containers"][0]["args"]
    monitor = next(o for o in written if o["kind"] == "ServiceMonitor")
    assert monitor["spec"]["endpoints"][0]["interval"] == "15s"


def test_the_installer_gives_its_cdk8s_plus_objects():
    app = App()
    chart = Chart(app, "install")
    controller = ExporterSetController(chart, "Controller", watch_namespaces=["lab"])
    deployment = controller.deployment
    assert isinstance(deployment, kplus.Deployment)
    assert isinstance(controller.service_account, kplus.ServiceAccount)
    assert isinstance(controller.roles[0], kplus.Role)
    assert controller.cluster_role is None
    assert controller.leader_election_role.name == "exporter-set-controller-leader-election"
    assert controller.deployment_for("qemu.jumpstarter.dev").name == deployment.name
    # The controller keeps its token; the account does not hand it to other Pods.
    assert deployment.automount_service_account_token is True
    assert controller.service_account.automount_token is False
    deployment.containers[0].env.add_variable("HTTPS_PROXY", kplus.EnvValue.from_value("http://proxy:3128"))
    kplus.NetworkPolicy(
        chart,
        "Metrics",
        selector=deployment,
        ingress=kplus.NetworkPolicyTraffic(
            rules=[kplus.NetworkPolicyRule(peer=kplus.Pods.all(chart, "Any"), ports=[kplus.NetworkPolicyPort.tcp(8080)])]
        ),
    )
    written = objects(app)
    pod = next(o for o in written if o["kind"] == "Deployment")["spec"]["template"]
    assert pod["spec"]["containers"][0]["env"][-1] == {"name": "HTTPS_PROXY", "value": "http://proxy:3128"}
    policy = next(o for o in written if o["kind"] == "NetworkPolicy")
    address = pod["metadata"]["labels"]["cdk8s.io/metadata.addr"]
    assert policy["spec"]["podSelector"] == {"matchLabels": {"cdk8s.io/metadata.addr": address}}
    assert policy["spec"]["ingress"][0]["ports"] == [{"port": 8080, "protocol": "TCP"}]
