import { Labels, type Exporter, type ExporterConfig } from '../../api';
import { CONFIG_KEY } from './constants';
import { renderExporterConfigYaml } from './exporter-config';
import type { RenderedSecret } from './kube';
import { exporterOwnerReference } from './owner';

/** One config Secret per instance, named after its Exporter. */
export function configSecretName(exporterName: string): string {
  return `exporter-config-${exporterName}`;
}

export interface ConfigSecretInput {
  readonly exporter: Exporter;
  readonly exporterSetName: string;
  readonly config: ExporterConfig;
}

/**
 * The exporter config Secret: key `config.yaml`, owned by the Exporter, labelled with the set. Written
 * as base64 `data` rather than `stringData`: that is the form the API server stores and returns, so
 * the controller can compare it with the live object (to re-sync a rotated token) and GitOps diffs
 * stay empty.
 */
export function buildConfigSecret(input: ConfigSecretInput): RenderedSecret {
  const exporterName = input.exporter.metadata?.name ?? input.config.metadata.name;
  const namespace = input.exporter.metadata?.namespace ?? input.config.metadata.namespace;
  const owner = exporterOwnerReference(input.exporter);
  const yaml = renderExporterConfigYaml(input.config);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: configSecretName(exporterName),
      ...(namespace ? { namespace } : {}),
      labels: { [Labels.exporterSetName]: input.exporterSetName },
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    type: 'Opaque',
    data: { [CONFIG_KEY]: Buffer.from(yaml, 'utf8').toString('base64') },
  };
}
