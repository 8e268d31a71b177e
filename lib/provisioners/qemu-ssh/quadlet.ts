/**
 * Podman quadlet units of one instance: `<base>-runtime.container` (the QEMU runtime,
 * serving `/shared/launcher.sock`; `/dev/kvm` and `runtime.devices` passed in), `<base>-exporter.container`
 * (`jmp run`, in the runtime's network namespace so the `tcp` driver reaches the guest's SSH forward on
 * 127.0.0.1:2222, as in the Pod), and `<base>.volume`, the shared volume both mount at `/shared`.
 * Every container and the volume carry `managed-by=jumpstarter` and the instance's namespace and name.
 */
import type { ResolvedImage } from '../qemu/images';
import {
  CONFIG_KEY,
  CONFIG_MOUNT_PATH,
  EXPORTER_UID,
  LAUNCHER_SOCKET_PATH,
  QemuEnvNames,
  SHARED_MOUNT_PATH,
} from '../qemu/constants';
import { MANAGED_BY_VALUE, ManagedLabels, type RemoteLayout } from './remote-layout';

export interface QuadletInput {
  readonly layout: RemoteLayout;
  readonly namespace: string;
  readonly name: string;
  readonly runtimeImage: ResolvedImage;
  readonly exporterImage: ResolvedImage;
  /** Device paths for the runtime container (`/dev/kvm` first when KVM is on). */
  readonly devices: readonly string[];
}

/** Kubernetes pull policies as quadlet's `Pull=`. */
const PULL: Readonly<Record<string, string>> = { Always: 'always', Never: 'never', IfNotPresent: 'missing' };

/**
 * A value for a unit file line. Systemd expands `%` specifiers, so `%` is doubled; a line break or other
 * control character would start a new directive, so it is refused (callers validate images first).
 */
export function unitValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new Error(`${JSON.stringify(value)} cannot go into a unit file: it holds a control character`);
  }
  return value.replace(/%/g, '%%');
}

function labels(input: QuadletInput): string[] {
  return [
    `Label=${ManagedLabels.managedBy}=${MANAGED_BY_VALUE}`,
    `Label=${ManagedLabels.namespace}=${unitValue(input.namespace)}`,
    `Label=${ManagedLabels.exporter}=${unitValue(input.name)}`,
  ];
}

function header(input: QuadletInput, what: string): string[] {
  return [
    `# ${what} of Jumpstarter virtual exporter ${input.namespace}/${input.name}.`,
    '# Written by the exporter-set controller (qemu-ssh.jumpstarter.dev); it removes this file on teardown.',
  ];
}

function image(i: ResolvedImage): string[] {
  return [`Image=${unitValue(i.image)}`, `Pull=${PULL[i.imagePullPolicy] ?? 'missing'}`];
}

export function renderVolumeUnit(input: QuadletInput): string {
  return lines([
    ...header(input, 'Shared volume (sockets, launcher, guest disk)'),
    '[Volume]',
    `VolumeName=${input.layout.base}`,
    ...labels(input),
  ]);
}

export function renderRuntimeUnit(input: QuadletInput): string {
  const { layout } = input;
  return lines([
    ...header(input, 'QEMU runtime'),
    '[Unit]',
    `Description=Jumpstarter QEMU runtime of ${input.namespace}/${input.name}`,
    '',
    '[Container]',
    `ContainerName=${layout.runtimeContainer}`,
    ...image(input.runtimeImage),
    `Volume=${layout.base}.volume:${SHARED_MOUNT_PATH}`,
    `Environment=${QemuEnvNames.execLogFields}=component=exporter,exporter=${input.name},namespace=${input.namespace}`,
    ...input.devices.map((d) => `AddDevice=${unitValue(d)}`),
    ...labels(input),
    '',
    '[Service]',
    'Restart=no',
  ]);
}

export function renderExporterUnit(input: QuadletInput): string {
  const { layout } = input;
  return lines([
    ...header(input, 'Exporter'),
    '[Unit]',
    `Description=Jumpstarter exporter ${input.namespace}/${input.name}`,
    `Requires=${layout.runtimeService}`,
    `After=${layout.runtimeService}`,
    '',
    '[Container]',
    `ContainerName=${layout.exporterContainer}`,
    ...image(input.exporterImage),
    `Exec=jmp run --exporter-config ${CONFIG_MOUNT_PATH}/${CONFIG_KEY}`,
    `User=${EXPORTER_UID}`,
    `Network=container:${layout.runtimeContainer}`,
    `Volume=${layout.base}.volume:${SHARED_MOUNT_PATH}`,
    `Volume=${layout.configPath}:${CONFIG_MOUNT_PATH}/${CONFIG_KEY}:ro`,
    `Environment=${QemuEnvNames.launcherSocket}=${LAUNCHER_SOCKET_PATH}`,
    ...labels(input),
    '',
    '[Service]',
    // The exporter exits when its lease ends (ExitAndReplace): that exit is the signal to recycle.
    'Restart=no',
  ]);
}

function lines(all: readonly string[]): string {
  return `${all.join('\n')}\n`;
}
