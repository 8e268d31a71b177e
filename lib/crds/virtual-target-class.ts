/**
 * The VirtualTargetClass CRD: an admin-owned backend profile naming a provisioner and its settings
 * (JEP-0014). A superset of upstream's schema; the additions are descriptions, short name and
 * category, the Age column, an object type on `parameters`, and `affinity`, `priorityClassName` and
 * `runtimeClassName` under `scheduling`.
 */
import { CATEGORY, Defaults, GROUP, Kinds, Plurals, ShortNames } from '../api/constants';
import {
  array,
  freeformObject,
  imagesSchema,
  int64,
  localObjectReferenceSchema,
  object,
  namespacedCrd,
  str,
  stringMap,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from './schema';

/** A Kubernetes quantity such as `500m`, `4Gi` or `1`, written as a string or an integer. */
const quantitySchema: JSONSchemaProps = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern:
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};

const resourcesSchema: JSONSchemaProps = object(
  'Compute resources of the rendered Pods (for qemu.jumpstarter.dev: of the QEMU runtime container).',
  {
    claims: array(
      'Dynamic resource claims (from the Pod spec resourceClaims) the container uses.',
      object(
        'One resource claim used by the container.',
        {
          name: str('Name of an entry of the Pod spec resourceClaims.'),
          request: str('A request of that claim to use; empty means the whole claim.'),
        },
        { required: ['name'] },
      ),
      { 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-list-type': 'map' },
    ),
    limits: {
      type: 'object',
      description:
        'The most of each resource the container may use, for example devices.kubevirt.io/kvm: "1".',
      additionalProperties: quantitySchema,
    },
    requests: {
      type: 'object',
      description:
        'The resources the scheduler reserves for the container; defaults to the limits when omitted.',
      additionalProperties: quantitySchema,
    },
  },
);

const tolerationSchema: JSONSchemaProps = object(
  'Lets the rendered Pods run on nodes with a matching taint.',
  {
    effect: str(
      'Taint effect to match (NoSchedule, PreferNoSchedule or NoExecute); empty matches every effect.',
    ),
    key: str('Taint key to match; empty (with operator Exists) matches every taint.'),
    operator: str('Exists or Equal (the default): whether the value must match too.'),
    tolerationSeconds: int64('For NoExecute taints: how long the Pod stays bound after the taint appears.'),
    value: str('Taint value to match with operator Equal; empty with Exists.'),
  },
);

const schedulingSchema: JSONSchemaProps = object('Where and with what the rendered instance Pods run.', {
  affinity: freeformObject(
    'Node and Pod (anti-)affinity of the rendered Pods: a Kubernetes core/v1 Affinity.',
  ),
  nodeSelector: stringMap('Node labels the rendered Pods require, for example kubernetes.io/arch: arm64.'),
  priorityClassName: str('PriorityClass of the rendered Pods.'),
  resources: resourcesSchema,
  runtimeClassName: str('RuntimeClass of the rendered Pods (for example a sandboxed runtime).'),
  tolerations: array(
    'Taints the rendered Pods tolerate, for example that of dedicated KVM nodes.',
    tolerationSchema,
  ),
});

const specSchema: JSONSchemaProps = object(
  'The backend profile: which provisioner makes instances, and with what settings.',
  {
    bindingMode: str(
      'When instances get their backend: Immediate keeps a warm pool; WaitForFirstConsumer provisions when a lease waits.',
      { default: Defaults.bindingMode, enum: ['Immediate', 'WaitForFirstConsumer'] },
    ),
    caBundleConfigMapRef: object(
      'A ConfigMap, in the same namespace, holding the CA bundle instances use to trust private TLS endpoints.',
      {
        key: str('Key of the bundle in the ConfigMap.', { default: Defaults.caBundleKey }),
        name: str('Name of the ConfigMap.', { minLength: 1 }),
      },
      { required: ['name'] },
    ),
    credentialsSecretRef: localObjectReferenceSchema(
      'A Secret, in the same namespace, with credentials for API-backed provisioners; only the exporter sees it.',
      'Name of the Secret.',
    ),
    images: imagesSchema('Container images for the instances; an ExporterSet may replace them.'),
    parameters: freeformObject(
      'Provisioner-specific settings as a nested object; the provisioner validates them after the set overrides are merged in.',
    ),
    provisioner: str('The provisioner that handles this class, for example qemu.jumpstarter.dev.', {
      minLength: 1,
    }),
    reclaimPolicy: str(
      'What happens to a virtual target after its lease: Delete destroys it; Retain keeps it for debugging.',
      { default: Defaults.reclaimPolicy, enum: ['Delete', 'Retain'] },
    ),
    scheduling: schedulingSchema,
  },
  { required: ['provisioner'] },
);

export const virtualTargetClassCrd: CustomResourceDefinition = namespacedCrd({
  group: GROUP,
  kind: Kinds.VirtualTargetClass,
  plural: Plurals.VirtualTargetClass,
  shortNames: [ShortNames.VirtualTargetClass],
  categories: [CATEGORY],
  description:
    'A namespaced backend profile for virtual targets: the provisioner, its parameters, credentials and Pod placement that ExporterSets build on.',
  spec: specSchema,
  subresources: {},
  printerColumns: [
    { name: 'Provisioner', type: 'string', jsonPath: '.spec.provisioner' },
    { name: 'Binding', type: 'string', jsonPath: '.spec.bindingMode' },
  ],
});
