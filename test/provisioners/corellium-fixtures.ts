import type {
  DriverConfig,
  ExporterSet,
  ExporterSetSpec,
  JsonObject,
  VirtualTargetClass,
  VirtualTargetClassSpec,
} from '../../lib/api';
import type { InstanceInput } from '../../lib/provisioners';
import { exporter } from './fixtures';

export const PROJECT_ID = '778f00af-5e9b-40e6-8e7f-c4f14b632e9c';

/** The JEP's Corellium class: kronos devices in one project, the API token in Secret corellium-creds. */
export function corelliumClass(spec: Partial<VirtualTargetClassSpec> = {}): VirtualTargetClass {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'VirtualTargetClass',
    metadata: { name: 'corellium-kronos', namespace: 'lab' },
    spec: {
      provisioner: 'corellium.jumpstarter.dev',
      credentialsSecretRef: { name: 'corellium-creds' },
      bindingMode: 'WaitForFirstConsumer',
      parameters: {
        api: { host: 'app.corellium.com', projectId: PROJECT_ID },
        device: { flavor: 'kronos', os: '1.1.1', build: 'Critical Application Monitor (Baremetal)' },
      },
      ...spec,
    },
  };
}

export function corelliumSet(spec: Partial<ExporterSetSpec> = {}, drivers: DriverConfig[] = []): ExporterSet {
  return {
    apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
    kind: 'ExporterSet',
    metadata: { name: 'kronos-cloud', namespace: 'lab', uid: 'set-uid' },
    spec: {
      virtualTargetClassName: 'corellium-kronos',
      selector: { matchLabels: { board: 'kronos' } },
      template: { metadata: { labels: { board: 'kronos', virtual: 'true' } }, spec: { drivers } },
      ...spec,
    },
  };
}

/** One instance of the Corellium set (the Exporter is the shared fixture's `rpi4-virtual-7`). */
export function corelliumInstance(overrides: Partial<InstanceInput> = {}): InstanceInput {
  const virtualTargetClass = overrides.virtualTargetClass ?? corelliumClass();
  return {
    virtualTargetClass,
    exporterSet: corelliumSet(),
    parameters: (virtualTargetClass.spec.parameters ?? {}) as JsonObject,
    exporter: exporter(),
    token: 'jwt-token',
    ...overrides,
  };
}
