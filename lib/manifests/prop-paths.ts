/**
 * Wire path → prop path, per construct: validation speaks in wire paths (`spec.parameters.resources.cpu`),
 * users write props (`cpu`). Shared by the cdk8s and Pulumi front ends, whose props have the same names.
 */
import type { PropPathMapper } from './messages';

export const virtualTargetClassProp: PropPathMapper = (wirePath) => {
  if (wirePath === 'spec.credentialsSecretRef.name') return 'credentialsSecretName';
  if (wirePath.startsWith('spec.caBundleConfigMapRef'))
    return wirePath.replace('spec.caBundleConfigMapRef', 'caBundle');
  return wirePath.replace(/^spec\./, '');
};

export const exporterSetProp: PropPathMapper = (wirePath) =>
  wirePath
    .replace(/^spec\.template\.metadata\./, 'template.')
    .replace(/^spec\.template\.spec\.drivers/, 'template.drivers')
    .replace(/^spec\.virtualTargetClassName/, 'virtualTargetClass')
    .replace(/^spec\./, '');

/** Class parameters written by the pool's typed QEMU props, by parameter path. */
const QEMU_PARAMETER_PROPS: Record<string, string> = {
  'resources.cpu': 'cpu',
  'resources.memory': 'memory',
  'resources.storage': 'storage',
  arch: 'arch',
  machineType: 'machineType',
  kvm: 'kvm',
};

/** Wire paths of a QEMU pool's class and set → the pool's props. */
export const qemuPoolProp: PropPathMapper = (wirePath) => {
  const param = /^spec\.parameters(?:\.(.*))?$/.exec(wirePath);
  if (param) {
    const rest = param[1] ?? '';
    for (const [key, prop] of Object.entries(QEMU_PARAMETER_PROPS)) {
      if (rest === key || rest.startsWith(`${key}.`)) return prop + rest.slice(key.length);
    }
    if (rest === 'firmware' || rest.startsWith('firmware.')) return rest;
    return rest ? `extraParameters.${rest}` : 'extraParameters';
  }
  if (wirePath.startsWith('spec.template.metadata.labels'))
    return wirePath.replace('spec.template.metadata.', '');
  if (wirePath.startsWith('spec.template.spec.drivers')) return wirePath.replace('spec.template.spec.', '');
  return exporterSetProp(wirePath);
};

/** The installer's rules are written against its input, whose paths already are the props. */
export const installerProp: PropPathMapper = (path) => path;

/** ExporterOperation props are the spec's fields; a rule on the whole spec is about the target props. */
export const exporterOperationProp: PropPathMapper = (wirePath) =>
  wirePath === 'spec' ? 'exporterName/exporterSetName' : wirePath.replace(/^spec\./, '');
