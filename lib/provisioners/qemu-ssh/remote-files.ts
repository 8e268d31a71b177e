import { ValidationError, prefixIssues, type ValidationIssue } from '../../core/issue';
import type { InstanceInput } from '../provisioner';
import { buildExporterConfig, renderExporterConfigYaml } from '../qemu/exporter-config';
import { resolveImages } from '../qemu/images';
import { isPlainObject } from '../../core/plain-object';
import { runtimeDevices } from './parameters';
import { renderExporterUnit, renderRuntimeUnit, renderVolumeUnit, type QuadletInput } from './quadlet';
import { REMOTE_CONFIG_DIR, REMOTE_UNIT_DIR, remoteLayout, type RemoteLayout } from './remote-layout';
import { validateQemuSshParameters } from './validate';

/** A file to write on the host. */
export interface RemoteFile {
  readonly path: string;
  readonly content: string;
  /**
   * Permission bits. The config holds the exporter's token but is read by the exporter's non-root user
   * through a bind mount, so it is 0644 inside a folder only root may enter ({@link REMOTE_DIR_MODES}).
   */
  readonly mode: number;
}

export interface RenderedRemoteInstance {
  readonly layout: RemoteLayout;
  /** Written in this order: the config first, the units last (a unit never points at a missing file). */
  readonly files: readonly RemoteFile[];
}

/** The folders files go into, with the mode each is created with (an existing folder is left as it is). */
export const REMOTE_DIR_MODES: readonly { readonly path: string; readonly mode: number }[] = [
  { path: REMOTE_CONFIG_DIR, mode: 0o700 },
  { path: REMOTE_UNIT_DIR, mode: 0o755 },
];

/**
 * The parameters the shared exporter-config renderer reads: `storage.size` becomes the QEMU driver's
 * `disk_size` (qemu-ssh keeps the guest disk size there, not under `resources`).
 */
export function exporterConfigParameters(parameters: unknown): unknown {
  if (!isPlainObject(parameters)) return parameters;
  const resources = isPlainObject(parameters.resources) ? parameters.resources : {};
  const storage = isPlainObject(parameters.storage) ? parameters.storage : {};
  if (resources.storage !== undefined || storage.size === undefined || storage.size === null)
    return parameters;
  return { ...parameters, resources: { ...resources, storage: storage.size } };
}

/**
 * The files of one instance on its host: the exporter config (the QEMU provisioner's renderer, so the
 * QEMU driver defaults and the injected `tcp` driver on port 2222 are the same as in-cluster) and the
 * quadlet units. Pure. Throws a ValidationError naming every problem: invalid parameters, driver
 * conflicts, an Exporter without endpoint or token, an image that cannot go into a unit file.
 */
export function renderRemoteFiles(instance: InstanceInput): RenderedRemoteInstance {
  const { exporterSet, exporter, virtualTargetClass } = instance;
  const name = exporter.metadata?.name ?? '';
  const namespace = exporter.metadata?.namespace ?? exporterSet.metadata?.namespace ?? '';
  const subject = `instance ${namespace}/${name} of ExporterSet ${exporterSet.metadata?.name}`;
  const issues: ValidationIssue[] = prefixIssues(
    'parameters',
    validateQemuSshParameters(instance.parameters),
  );
  let layout: RemoteLayout | undefined;
  try {
    layout = remoteLayout(namespace, name);
  } catch (error) {
    issues.push({ path: 'exporter.metadata.name', value: name, message: (error as Error).message });
  }
  const endpoint = exporter.status?.endpoint;
  if (!endpoint) {
    issues.push({
      path: 'exporter.status.endpoint',
      message: 'the Exporter has no endpoint yet; Jumpstarter sets it, realise again once it is there',
    });
  }
  if (!instance.token) {
    issues.push({
      path: 'token',
      message:
        "the Exporter's credential Secret has no token yet; Jumpstarter creates it, realise again then",
    });
  }
  const { config, issues: configIssues } = buildExporterConfig({
    name,
    namespace,
    endpoint: endpoint ?? '',
    token: instance.token,
    caBundle: instance.caBundle,
    drivers: exporterSet.spec?.template?.spec?.drivers,
    parameters: exporterConfigParameters(instance.parameters),
    recycleStrategy: exporterSet.spec?.recycleStrategy,
  });
  issues.push(...configIssues);
  const images = resolveImages(virtualTargetClass.spec?.images, exporterSet.spec?.images);
  for (const [which, image] of Object.entries(images)) {
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (/[\s\u0000-\u001f\u007f]/.test(image.image)) {
      issues.push({
        path: `images.${which}.image`,
        value: image.image,
        message: 'must be an image reference without spaces or control characters',
      });
    }
  }
  if (issues.length > 0 || layout === undefined) throw new ValidationError(subject, issues);

  const quadlet: QuadletInput = {
    layout,
    namespace,
    name,
    runtimeImage: images.runtime,
    exporterImage: images.exporter,
    devices: runtimeDevices(instance.parameters),
  };
  return {
    layout,
    files: [
      { path: layout.configPath, content: renderExporterConfigYaml(config), mode: 0o644 },
      { path: layout.volumeUnitPath, content: renderVolumeUnit(quadlet), mode: 0o644 },
      { path: layout.runtimeUnitPath, content: renderRuntimeUnit(quadlet), mode: 0o644 },
      { path: layout.exporterUnitPath, content: renderExporterUnit(quadlet), mode: 0o644 },
    ],
  };
}
