import { describe, expect, it } from '@jest/globals';
import { Pod as KubePod } from 'kubernetes-models/v1/Pod';
import { Secret as KubeSecret } from 'kubernetes-models/v1/Secret';
import { parse } from 'yaml';
import type {
  DriverConfig,
  ExporterSetSpec,
  JsonObject,
  VirtualTargetClass,
  VirtualTargetClassSpec,
} from '../../lib/api';
import { formatIssue, ValidationError } from '../../lib/core/issue';
import {
  AndroidRuleMessages,
  androidProvisioner,
  buildQemuPod,
  validateAndroidParameters,
  type InstanceInput,
  type RenderedContainer,
  type RenderedPod,
  type RenderedSecret,
} from '../../lib/provisioners';
import { baselineViolations, restrictedViolations } from '../security/pod-security';
import { exporter, qemuSet } from './fixtures';

function androidClass(spec: Partial<VirtualTargetClassSpec> = {}): VirtualTargetClass {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'android-pixel7', namespace: 'lab' },
    spec: {
      provisioner: 'android.jumpstarter.dev',
      parameters: {
        apiLevel: 34,
        device: 'pixel_7',
        abi: 'x86_64',
        resources: { cpu: 4, memory: '4Gi', storage: '8Gi' },
        kvm: true,
      },
      ...spec,
    },
  };
}

const JEP_DRIVERS: DriverConfig[] = [
  { type: 'jumpstarter_driver_android.driver.AdbDriver' },
  { type: 'jumpstarter_driver_power.driver.EmulatorPower' },
];

function androidSet(spec: Partial<ExporterSetSpec> = {}, drivers: DriverConfig[] = JEP_DRIVERS) {
  return qemuSet({ virtualTargetClassName: 'android-pixel7', ...spec }, drivers);
}

function instance(overrides: Partial<InstanceInput> = {}): InstanceInput {
  const virtualTargetClass = overrides.virtualTargetClass ?? androidClass();
  return {
    virtualTargetClass,
    exporterSet: androidSet(),
    parameters: (virtualTargetClass.spec.parameters ?? {}) as JsonObject,
    exporter: exporter(),
    token: 'jwt-token',
    ...overrides,
  };
}

function render(overrides: Partial<InstanceInput> = {}) {
  const [secret, pod] = androidProvisioner.render(instance(overrides)).objects;
  return { secret: secret as unknown as RenderedSecret, pod: pod as unknown as RenderedPod };
}

const config = (overrides: Partial<InstanceInput> = {}): any =>
  parse(Buffer.from(render(overrides).secret.data['config.yaml'], 'base64').toString('utf8'));

function container(pod: RenderedPod, name: string): RenderedContainer {
  const found = [...pod.spec.initContainers, ...pod.spec.containers].find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name}`);
  return found;
}

const runtimeEnv = (pod: RenderedPod) =>
  Object.fromEntries(
    (container(pod, 'target-runtime').env ?? []).map((e) => [e.name, 'value' in e ? e.value : e.valueFrom]),
  );

describe('android provisioner › Pod shape', () => {
  it('renders the config Secret, then the Pod, both accepted by the Kubernetes schemas', () => {
    const { objects } = androidProvisioner.render(instance());
    expect(objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`)).toEqual([
      'Secret/exporter-config-rpi4-virtual-7',
      'Pod/rpi4-virtual-7',
    ]);
    expect(() => new KubeSecret(objects[0] as never).validate()).not.toThrow();
    expect(() => new KubePod(objects[1] as never).validate()).not.toThrow();
  });

  it('has the QEMU layout: launcher init, runtime sidecar, exporter, shared volume and config Secret', () => {
    const { pod } = render();
    expect(pod.spec.initContainers.map((c) => c.name)).toEqual(['copy-jumpstarter-exec', 'target-runtime']);
    expect(pod.spec.containers.map((c) => c.name)).toEqual(['exporter']);
    expect(container(pod, 'target-runtime').restartPolicy).toBe('Always');
    expect(pod.spec.volumes.map((v) => v.name)).toEqual(['shared', 'exporter-config']);
    expect(container(pod, 'exporter').env).toEqual([
      { name: 'JUMPSTARTER_LAUNCHER_SOCKET', value: '/shared/launcher.sock' },
    ]);
  });

  it('differs from the QEMU Pod only in the runtime image and what the runtime is told', () => {
    const { pod } = render();
    const qemu = buildQemuPod(instance());
    const strip = (p: RenderedPod) => {
      const copy = JSON.parse(JSON.stringify(p));
      const runtime = copy.spec.initContainers[1];
      delete runtime.image;
      runtime.env = runtime.env.slice(0, 1);
      return copy;
    };
    expect(strip(pod)).toEqual(strip(qemu));
  });

  it('runs the emulator runtime image unless the class or the set names another', () => {
    expect(container(render().pod, 'target-runtime').image).toBe(
      'quay.io/jumpstarter-dev/virtual/android-emulator-runtime:latest',
    );
    const custom = render({
      virtualTargetClass: androidClass({ images: { runtime: { image: 'registry.lab/emulator:35' } } }),
    });
    expect(container(custom.pod, 'target-runtime').image).toBe('registry.lab/emulator:35');
    const setImage = render({
      exporterSet: androidSet({
        images: { runtime: { image: 'registry.lab/emulator:36', imagePullPolicy: 'Always' } },
      }),
    });
    expect(container(setImage.pod, 'target-runtime')).toMatchObject({
      image: 'registry.lab/emulator:36',
      imagePullPolicy: 'Always',
    });
  });

  it('tells the runtime which AVD to prepare, with the resources it is given', () => {
    expect(runtimeEnv(render().pod)).toEqual({
      JUMPSTARTER_EXEC_LOG_FIELDS: 'component=exporter,exporter=rpi4-virtual-7,namespace=lab',
      ANDROID_API_LEVEL: '34',
      ANDROID_DEVICE: 'pixel_7',
      ANDROID_ABI: 'x86_64',
      ANDROID_AVD_NAME: 'pixel_7-api34-x86_64',
      ANDROID_CPU_CORES: '4',
      ANDROID_RAM_SIZE: '4096',
      ANDROID_DATA_PARTITION_SIZE: '8G',
    });
  });

  it('uses the defaults (API 34, pixel_6, x86_64) and no resource variables when the parameters are empty', () => {
    expect(runtimeEnv(render({ parameters: {} }).pod)).toEqual({
      JUMPSTARTER_EXEC_LOG_FIELDS: 'component=exporter,exporter=rpi4-virtual-7,namespace=lab',
      ANDROID_API_LEVEL: '34',
      ANDROID_DEVICE: 'pixel_6',
      ANDROID_ABI: 'x86_64',
      ANDROID_AVD_NAME: 'pixel_6-api34-x86_64',
    });
  });

  it('sizes the shared volume from resources.storage, with the QEMU headroom', () => {
    expect(render().pod.spec.volumes[0]).toEqual({ name: 'shared', emptyDir: { sizeLimit: '8292Mi' } });
    expect(render({ parameters: {} }).pod.spec.volumes[0]).toEqual({
      name: 'shared',
      emptyDir: { sizeLimit: '10340Mi' },
    });
  });

  it('requests the KVM device for the runtime with kvm: true, and removes the class grant with kvm: false', () => {
    expect(container(render().pod, 'target-runtime').resources).toEqual({
      limits: { 'devices.kubevirt.io/kvm': '1' },
    });
    const granted = androidClass({
      scheduling: { resources: { limits: { 'devices.kubevirt.io/kvm': '1', memory: '6Gi' } } },
    });
    const tcg = render({ virtualTargetClass: granted, parameters: { kvm: false } });
    expect(container(tcg.pod, 'target-runtime').resources).toEqual({ limits: { memory: '6Gi' } });
    expect(container(tcg.pod, 'exporter')).not.toHaveProperty('resources');
  });

  it('gives the class credentials to the exporter alone, and meets "baseline" with only the runtime short of "restricted"', () => {
    const { pod } = render({
      virtualTargetClass: androidClass({ credentialsSecretRef: { name: 'lab-creds' } }),
    });
    const holders = [...pod.spec.initContainers, ...pod.spec.containers].filter((c) =>
      JSON.stringify(c).includes('lab-creds'),
    );
    expect(holders.map((c) => c.name)).toEqual(['exporter']);
    expect(baselineViolations(pod)).toEqual([]);
    expect(restrictedViolations(pod).every((v) => v.startsWith('spec.initContainers[target-runtime]'))).toBe(
      true,
    );
  });
});

describe('android provisioner › exporter config', () => {
  it("keeps the JEP's drivers and adds an emulator driver for the AVD the runtime prepares", () => {
    expect(config().export).toEqual({
      android: { type: 'jumpstarter_driver_android.driver.AdbDriver' },
      power: { type: 'jumpstarter_driver_power.driver.EmulatorPower' },
      emulator: {
        type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator',
        config: { avd_name: 'pixel_7-api34-x86_64', headless: true },
      },
    });
  });

  it("fills the template's own emulator driver where its config is silent, adding no other", () => {
    const set = androidSet({}, [
      {
        name: 'pixel',
        type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator',
        config: { headless: false, console_port: 5554 },
      },
    ]);
    expect(config({ exporterSet: set }).export).toEqual({
      pixel: {
        type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator',
        config: { headless: false, console_port: 5554, avd_name: 'pixel_7-api34-x86_64' },
      },
    });
  });

  it('reports a template driver that would take the name of the added emulator driver', () => {
    const set = androidSet({}, [{ name: 'emulator', type: 'jumpstarter_driver_power.driver.EmulatorPower' }]);
    let error: unknown;
    try {
      androidProvisioner.render(instance({ exporterSet: set }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map(formatIssue)).toEqual([
      'spec.template.spec.drivers[0].name: driver "emulator" (type jumpstarter_driver_power.driver.EmulatorPower) ' +
        'takes the name of the driver android.jumpstarter.dev adds to power the emulator when the template ' +
        'has no jumpstarter_driver_androidemulator.driver.AndroidEmulator driver; rename this driver, or add ' +
        'your own jumpstarter_driver_androidemulator.driver.AndroidEmulator driver so none is added (got "emulator")',
    ]);
  });

  it('refuses invalid merged parameters, with paths under parameters', () => {
    expect(() =>
      androidProvisioner.render(instance({ parameters: { apiLevel: 99, abi: 'armeabi-v7a' } })),
    ).toThrow(
      /parameters\.apiLevel: must be a whole number from 21 to 40[^\n]*\(got 99\)\n {2}- parameters\.abi: /,
    );
  });
});

describe('android parameters › validation messages', () => {
  const lines = (parameters: unknown) => validateAndroidParameters(parameters).map(formatIssue);

  it('accepts the example class, an empty object, nulls and unknown keys', () => {
    expect(lines(androidClass().spec.parameters)).toEqual([]);
    expect(lines({})).toEqual([]);
    expect(
      lines({ apiLevel: null, device: null, abi: null, resources: null, kvm: null, gpu: 'swiftshader' }),
    ).toEqual([]);
  });

  it.each([
    [{ apiLevel: 20 }, `apiLevel: ${AndroidRuleMessages.apiLevel} (got 20)`],
    [{ apiLevel: 41 }, `apiLevel: ${AndroidRuleMessages.apiLevel} (got 41)`],
    [{ apiLevel: 34.5 }, `apiLevel: ${AndroidRuleMessages.apiLevel} (got 34.5)`],
    [
      { apiLevel: 'android-34' },
      'apiLevel: must be a whole number from 21 to 40: the Android API level of the system image, such as 34 for Android 14 (write it as a number, not "android-34") (got "android-34")',
    ],
    [
      { device: 'Pixel 6' },
      'device: must be an AVD hardware profile id of at most 64 characters (letters, digits, ".", "_", "-"), such as "pixel_6" (avdmanager list device shows them) (got "Pixel 6")',
    ],
    [
      { abi: 'x86' },
      'abi: must be one of "x86_64", "arm64-v8a" (the system image ABI; match the node\'s architecture) (got "x86")',
    ],
    [{ kvm: 'yes' }, 'kvm: must be true or false (got "yes")'],
    [
      { resources: { cpu: '1.5' } },
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got "1.5")',
    ],
    [
      { resources: { memory: 4096 } },
      'resources.memory: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got 4096)',
    ],
    [
      { resources: { storage: '2Pi' } },
      'resources.storage: must be at most 1Pi (1125899906842624 bytes) (got "2Pi")',
    ],
  ])('%j', (parameters, line) => {
    expect(lines(parameters)).toEqual([line]);
  });

  it('reports the emulator driver name collision at synth time only when the template has no emulator driver', () => {
    const clash = [{ name: 'emulator', type: 'jumpstarter_driver_power.driver.EmulatorPower' }];
    expect(validateAndroidParameters({}, { drivers: clash }).map((i) => i.path)).toEqual([
      'spec.template.spec.drivers[0].name',
    ]);
    expect(
      validateAndroidParameters(
        {},
        {
          drivers: [...clash, { type: 'jumpstarter_driver_androidemulator.driver.AndroidEmulator' }],
        },
      ),
    ).toEqual([]);
  });
});
