"""The GitOps example (examples/gitops) as a Python cdk8s app, over the jsii build of the constructs.

`cdk8s synth` here writes dist/controller.k8s.yaml and dist/pools.k8s.yaml, the same bytes as
`npm run synth` writes from the TypeScript app (npm run test:python checks it):
- controller.k8s.yaml: the CRDs and the controller, one Deployment per provisioner in PROVISIONERS;
- pools.k8s.yaml: the pools of JEP-0014, every one served by one of those controllers.
"""

from cdk8s import App, Chart, Duration, Size
from constructs import Construct

from virtual_exporters import (
    BindingMode,
    DriverConfig,
    ExporterSet,
    ExporterSetController,
    ExporterTemplateProps,
    QemuArch,
    QemuPool,
    ReclaimPolicy,
    RecycleStrategy,
    ResourceRequirements,
    Scheduling,
    TaintEffect,
    Toleration,
    TolerationOperator,
    VirtualTargetClass,
)

NAMESPACE = "jumpstarter"

# The provisioners the installed controller runs: one Deployment each.
PROVISIONERS = [
    "qemu.jumpstarter.dev",
    "corellium.jumpstarter.dev",
    "android.jumpstarter.dev",
    "qemu-baremetal.jumpstarter.dev",
]

# Jumpstarter's QEMU driver brings power, console and flasher; the network driver reaches the guest's
# SSH through the driver's port forward (127.0.0.1:2222 -> 22).
QEMU_DRIVERS = [
    DriverConfig(type="jumpstarter_driver_qemu.driver.Qemu"),
    DriverConfig(
        type="jumpstarter_driver_network.driver.TcpNetwork",
        config={"host": "127.0.0.1", "port": 2222},
    ),
]


class ControllerChart(Chart):
    """The controller for the pools of PoolsChart, installed once per cluster."""

    def __init__(self, scope: Construct, id: str) -> None:
        super().__init__(scope, id)
        ExporterSetController(
            self,
            "ExporterSetController",
            namespace=NAMESPACE,
            provisioners=PROVISIONERS,
            watch_namespaces=[NAMESPACE],
        )


class PoolsChart(Chart):
    """The pools of JEP-0014 (QEMU, Corellium, Android, SA8295 over SSH), plus one QemuPool."""

    def __init__(self, scope: Construct, id: str) -> None:
        super().__init__(scope, id, namespace=NAMESPACE)

        # Raspberry Pi 4 on QEMU: a warm pool of 2, up to 20; the set doubles the class's memory.
        rpi4 = VirtualTargetClass(
            self,
            "QemuRpi4",
            metadata={"name": "qemu-rpi4"},
            provisioner="qemu.jumpstarter.dev",
            binding_mode=BindingMode.IMMEDIATE,
            reclaim_policy=ReclaimPolicy.DELETE,
            scheduling=Scheduling(
                node_selector={"kubernetes.io/arch": "arm64"},
                tolerations=[
                    Toleration(
                        key="jumpstarter.dev/kvm",
                        operator=TolerationOperator.EXISTS,
                        effect=TaintEffect.NO_SCHEDULE,
                    )
                ],
                resources=ResourceRequirements(limits={"devices.kubevirt.io/kvm": "1"}),
            ),
            parameters={
                "arch": "aarch64",
                "machineType": "virt",
                "firmware": {
                    "url": "registry.example.com/firmware/rpi4:latest",
                    "digest": "sha256:5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef",
                },
                "resources": {"cpu": 4, "memory": "4Gi", "storage": "16Gi"},
            },
        )
        ExporterSet(
            self,
            "Rpi4Virtual",
            metadata={"name": "rpi4-virtual"},
            virtual_target_class=rpi4,
            min_replicas=0,
            max_replicas=20,
            min_available_replicas=2,
            scale_down_cooldown=Duration.minutes(5),
            recycle_strategy=RecycleStrategy.EXIT_AND_REPLACE,
            parameters={"resources": {"memory": "8Gi"}},
            template=ExporterTemplateProps(
                labels={"board": "rpi4", "arch": "aarch64", "virtual": "true"},
                drivers=QEMU_DRIVERS,
            ),
        )

        # The short form: an x86_64 CI pool as one construct (a class and a set named x86-64-ci).
        QemuPool(
            self,
            "X8664Ci",
            metadata={"name": "x86-64-ci"},
            arch=QemuArch.X86_64,
            machine_type="q35",
            cpu=2,
            memory=Size.gibibytes(2),
            storage=Size.gibibytes(20),
            labels={"board": "x86-64-virtual", "arch": "x86_64", "virtual": "true"},
            min_available_replicas=3,
            max_replicas=10,
            scale_down_cooldown=Duration.minutes(10),
        )

        # Corellium cloud devices: a class only, its credentials (Secret corellium-creds, key "token")
        # on the class; a set naming it gets cloud devices on demand.
        VirtualTargetClass(
            self,
            "CorelliumKronos",
            metadata={"name": "corellium-kronos"},
            provisioner="corellium.jumpstarter.dev",
            credentials_secret_name="corellium-creds",
            binding_mode=BindingMode.WAIT_FOR_FIRST_CONSUMER,
            reclaim_policy=ReclaimPolicy.DELETE,
            parameters={
                "api": {"host": "app.corellium.com", "projectId": "778f00af-5e9b-40e6-8e7f-c4f14b632e9c"},
                "device": {
                    "flavor": "kronos",
                    "os": "1.1.1",
                    "build": "Critical Application Monitor (Baremetal)",
                },
            },
        )

        # Android emulators, fully on demand; the provisioner fills in the emulator driver's AVD.
        pixel7 = VirtualTargetClass(
            self,
            "AndroidPixel7",
            metadata={"name": "android-pixel7"},
            provisioner="android.jumpstarter.dev",
        )
        ExporterSet(
            self,
            "Pixel7Emulator",
            metadata={"name": "pixel7-emulator"},
            virtual_target_class=pixel7,
            min_replicas=0,
            max_replicas=10,
            min_available_replicas=0,
            template=ExporterTemplateProps(
                labels={"device": "pixel7", "os": "android", "api-level": "34", "virtual": "true"},
                drivers=[DriverConfig(type="jumpstarter_driver_androidemulator.driver.AndroidEmulator")],
            ),
        )

        # SA8295 boards emulated on bare-metal lab hosts over SSH (the JEP's qemu-baremetal; upstream's
        # qemu-ssh). The Secret automotive-lab-ssh holds the key (ssh-privatekey).
        sa8295 = VirtualTargetClass(
            self,
            "QcomSa8295Baremetal",
            metadata={"name": "qcom-sa8295-baremetal"},
            provisioner="qemu-baremetal.jumpstarter.dev",
            credentials_secret_name="automotive-lab-ssh",
            binding_mode=BindingMode.IMMEDIATE,
            parameters={
                "hosts": [
                    {"name": "bench-01.automotive.example.com", "arch": "aarch64", "slots": 2},
                    {"name": "bench-02.automotive.example.com", "arch": "aarch64", "slots": 2},
                ],
                "runtime": {"binary": "/usr/bin/qemu-system-aarch64", "kvm": True},
                "board": {"soc": "sa8295"},
            },
        )
        ExporterSet(
            self,
            "QcomSa8295Hifi",
            metadata={"name": "qcom-sa8295-hifi"},
            virtual_target_class=sa8295,
            min_replicas=0,
            max_replicas=4,
            min_available_replicas=1,
            parameters={"board": {"fidelity": "high"}},
            template=ExporterTemplateProps(
                labels={"board": "sa8295", "fidelity": "high", "virtual": "true"},
                drivers=QEMU_DRIVERS,
            ),
        )


def build_gitops_app(app: App) -> App:
    """The whole app; tests build it in memory, `cdk8s synth` runs this file."""
    ControllerChart(app, "controller")
    PoolsChart(app, "pools")
    return app


if __name__ == "__main__":
    build_gitops_app(App()).synth()
