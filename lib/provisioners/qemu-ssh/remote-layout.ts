/**
 * Where an instance lives on its host: one base name per instance, unique per namespace AND Exporter
 * name, and the files and units named from it. The base is `jumpstarter.<namespace>.<exporter>`: a
 * namespace is a DNS label (no dots), so the first two dots split it back unambiguously, and the
 * `jumpstarter.` prefix tells our files from anything else in the same folders.
 */

/** Folders on the host, relative to the filesystem root the lifecycle is given. */
export const REMOTE_CONFIG_DIR = '/etc/jumpstarter/exporters';
export const REMOTE_UNIT_DIR = '/etc/containers/systemd';

export const REMOTE_PREFIX = 'jumpstarter.';

/** Suffixes of the files an instance has, in the order they are written. */
export const RemoteSuffixes = {
  config: '.yaml',
  volume: '.volume',
  runtime: '-runtime.container',
  exporter: '-exporter.container',
} as const;

/** Podman labels on both containers (and the volume) of every instance. */
export const ManagedLabels = {
  managedBy: 'managed-by',
  exporter: 'jumpstarter.dev/exporter',
  namespace: 'jumpstarter.dev/namespace',
} as const;
export const MANAGED_BY_VALUE = 'jumpstarter';

/** Longest base name: unit file names must stay under the 255-byte file name limit with their suffixes. */
export const MAX_BASE_LENGTH = 230;

export interface RemoteLayout {
  /** `jumpstarter.<namespace>.<exporter>`; also the Podman volume's name. */
  readonly base: string;
  readonly configPath: string;
  readonly volumeUnitPath: string;
  readonly runtimeUnitPath: string;
  readonly exporterUnitPath: string;
  readonly runtimeService: string;
  readonly exporterService: string;
  readonly volumeService: string;
  readonly runtimeContainer: string;
  readonly exporterContainer: string;
}

export function remoteBaseName(namespace: string, name: string): string {
  return `${REMOTE_PREFIX}${namespace}.${name}`;
}

/** The layout of one instance; throws when the names cannot make a valid base. */
export function remoteLayout(namespace: string, name: string): RemoteLayout {
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(namespace)) {
    throw new Error(`namespace "${namespace}" is not a DNS label; it cannot name files on a host`);
  }
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(name)) {
    throw new Error(`Exporter name "${name}" is not a DNS subdomain; it cannot name files on a host`);
  }
  const base = remoteBaseName(namespace, name);
  if (base.length > MAX_BASE_LENGTH) {
    throw new Error(
      `instance ${namespace}/${name}: "${base}" is longer than ${MAX_BASE_LENGTH} characters, too long for unit file names; use a shorter ExporterSet name`,
    );
  }
  return {
    base,
    configPath: `${REMOTE_CONFIG_DIR}/${base}${RemoteSuffixes.config}`,
    volumeUnitPath: `${REMOTE_UNIT_DIR}/${base}${RemoteSuffixes.volume}`,
    runtimeUnitPath: `${REMOTE_UNIT_DIR}/${base}${RemoteSuffixes.runtime}`,
    exporterUnitPath: `${REMOTE_UNIT_DIR}/${base}${RemoteSuffixes.exporter}`,
    runtimeService: `${base}-runtime.service`,
    exporterService: `${base}-exporter.service`,
    volumeService: `${base}-volume.service`,
    runtimeContainer: `${base}-runtime`,
    exporterContainer: `${base}-exporter`,
  };
}

/** Every file of an instance, units first, then the config. */
export function remoteFilePaths(layout: RemoteLayout): string[] {
  return [layout.exporterUnitPath, layout.runtimeUnitPath, layout.volumeUnitPath, layout.configPath];
}

/**
 * The instance a file name in one of our folders belongs to, or undefined when the file is not one of
 * ours (no prefix, an unknown suffix, or names that do not split back).
 */
export function instanceOfRemoteFile(fileName: string): { namespace: string; name: string } | undefined {
  if (!fileName.startsWith(REMOTE_PREFIX)) return undefined;
  for (const suffix of Object.values(RemoteSuffixes)) {
    if (!fileName.endsWith(suffix)) continue;
    const rest = fileName.slice(REMOTE_PREFIX.length, fileName.length - suffix.length);
    const dot = rest.indexOf('.');
    if (dot <= 0 || dot === rest.length - 1) continue;
    const namespace = rest.slice(0, dot);
    const name = rest.slice(dot + 1);
    // A unit suffix also ends with ".container": `x-runtime.container` must not parse as the config.
    try {
      remoteLayout(namespace, name);
    } catch {
      continue;
    }
    return { namespace, name };
  }
  return undefined;
}
