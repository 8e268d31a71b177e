import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { RuleMessages } from '../../lib/api';
import type { ValidationIssue } from '../../lib/core/issue';
import { isPlainObject } from '../../lib/core/plain-object';
import { validateVirtualTargetClass } from '../../lib/core/validate-virtual-target-class';
import { allPaths, jepClass, loose, MALFORMED, replaceAt, type Loose } from './fixtures';

/** A rule: its name, a change that breaks it, the issues expected. */
type Rule = [string, (c: Loose) => void, ValidationIssue[]];

/** Validates the JEP class after `change`. */
function validateChanged(change: (cls: Loose) => void): ValidationIssue[] {
  const cls = loose(jepClass());
  change(cls);
  return validateVirtualTargetClass(cls);
}

describe('VirtualTargetClass validation', () => {
  it('accepts the JEP classes', () => {
    expect(validateVirtualTargetClass(jepClass())).toEqual([]);
    expect(
      validateVirtualTargetClass({
        apiVersion: 'virtualtarget.jumpstarter.dev/v1alpha1',
        kind: 'VirtualTargetClass',
        metadata: { name: 'corellium-rd1ae', namespace: 'jumpstarter' },
        spec: {
          provisioner: 'corellium.jumpstarter.dev',
          credentialsSecretRef: { name: 'corellium-creds' },
          bindingMode: 'WaitForFirstConsumer',
          reclaimPolicy: 'Delete',
          parameters: { api: { host: 'app.corellium.com' }, device: { flavor: 'kronos', os: '1.1.1' } },
        },
      }),
    ).toEqual([]);
  });

  it('accepts every optional field we add, filled in', () => {
    expect(
      validateChanged((c) => {
        c.metadata.labels = { team: 'lab' };
        c.metadata.annotations = { note: 'free text' };
        c.spec.caBundleConfigMapRef = { name: 'corp-ca', key: 'ca.pem' };
        c.spec.images = {
          exporter: { image: 'quay.io/x/exporter:v1', imagePullPolicy: 'Always' },
          runtime: { image: 'quay.io/x/runtime:v1', imagePullPolicy: 'Never' },
        };
        c.spec.scheduling.affinity = { nodeAffinity: {} };
        c.spec.scheduling.priorityClassName = 'lab-high';
        c.spec.scheduling.runtimeClassName = 'kata';
        c.spec.scheduling.tolerations.push({
          key: 'k',
          operator: 'Equal',
          value: 'v',
          effect: 'NoExecute',
          tolerationSeconds: 30,
        });
        c.spec.scheduling.resources.requests = { cpu: '500m', memory: 1073741824 };
        c.spec.scheduling.resources.claims = [{ name: 'gpu', request: 'one' }];
        c.spec.credentialsSecretRef = { name: '' }; // upstream defaults it to "" and accepts it
      }),
    ).toEqual([]);
  });

  it('accepts the toleration forms Pods accept', () => {
    expect(
      validateChanged(
        (c) =>
          (c.spec.scheduling.tolerations = [
            { operator: 'Exists' },
            { key: 'k', operator: 'Equal', value: 'v' },
            { key: 'k', value: '' },
            { key: 'example.com/k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 },
            { key: 'k', effect: 'PreferNoSchedule' },
          ]),
      ),
    ).toEqual([]);
  });

  it('treats null optional fields as absent, as the API server prunes them', () => {
    expect(
      validateChanged((c) => {
        c.spec.parameters = null;
        c.spec.bindingMode = null;
        c.spec.scheduling.nodeSelector = null;
      }),
    ).toEqual([]);
  });

  it.each([
    [
      'provisioner is required',
      (c) => delete c.spec.provisioner,
      [
        {
          path: 'spec.provisioner',
          message: 'is required: the provisioner that realises instances, e.g. qemu.jumpstarter.dev',
        },
      ],
    ],
    [
      'provisioner is not empty',
      (c) => (c.spec.provisioner = ''),
      [{ path: 'spec.provisioner', value: '', message: 'must not be empty' }],
    ],
    [
      'provisioner is a string',
      (c) => (c.spec.provisioner = 7),
      [{ path: 'spec.provisioner', value: 7, message: 'must be a string' }],
    ],
    [
      'bindingMode is one of the enum',
      (c) => (c.spec.bindingMode = 'Lazy'),
      [
        {
          path: 'spec.bindingMode',
          value: 'Lazy',
          message: 'must be one of Immediate, WaitForFirstConsumer',
        },
      ],
    ],
    [
      'reclaimPolicy is one of the enum',
      (c) => (c.spec.reclaimPolicy = 'delete'),
      [{ path: 'spec.reclaimPolicy', value: 'delete', message: 'must be one of Delete, Retain' }],
    ],
    [
      'parameters are an object',
      (c) => (c.spec.parameters = ['cpu', 4]),
      [{ path: 'spec.parameters', value: ['cpu', 4], message: RuleMessages.parametersObject }],
    ],
    [
      'parameters are not a scalar',
      (c) => (c.spec.parameters = 'cpu=4'),
      [{ path: 'spec.parameters', value: 'cpu=4', message: RuleMessages.parametersObject }],
    ],
    [
      'credentialsSecretRef is an object',
      (c) => (c.spec.credentialsSecretRef = 'creds'),
      [{ path: 'spec.credentialsSecretRef', value: 'creds', message: 'must be an object' }],
    ],
    [
      'credentialsSecretRef.name is a string',
      (c) => (c.spec.credentialsSecretRef = { name: 5 }),
      [{ path: 'spec.credentialsSecretRef.name', value: 5, message: 'must be a string' }],
    ],
    [
      'caBundleConfigMapRef.name is required',
      (c) => (c.spec.caBundleConfigMapRef = { key: 'ca.crt' }),
      [
        {
          path: 'spec.caBundleConfigMapRef.name',
          message: 'is required: the ConfigMap that holds the CA bundle',
        },
      ],
    ],
    [
      'caBundleConfigMapRef.name is not empty',
      (c) => (c.spec.caBundleConfigMapRef = { name: '' }),
      [{ path: 'spec.caBundleConfigMapRef.name', value: '', message: 'must not be empty' }],
    ],
    [
      'caBundleConfigMapRef.key is a string',
      (c) => (c.spec.caBundleConfigMapRef = { name: 'ca', key: 1 }),
      [{ path: 'spec.caBundleConfigMapRef.key', value: 1, message: 'must be a string' }],
    ],
    [
      'image pull policy is one of the enum',
      (c) => (c.spec.images = { runtime: { imagePullPolicy: 'Sometimes' } }),
      [
        {
          path: 'spec.images.runtime.imagePullPolicy',
          value: 'Sometimes',
          message: 'must be one of Always, Never, IfNotPresent',
        },
      ],
    ],
    [
      'image is a string',
      (c) => (c.spec.images = { exporter: { image: ['x'] } }),
      [{ path: 'spec.images.exporter.image', value: ['x'], message: 'must be a string' }],
    ],
    [
      'nodeSelector values are strings',
      (c) => (c.spec.scheduling.nodeSelector = { 'kubernetes.io/arch': true }),
      [
        {
          path: 'spec.scheduling.nodeSelector[kubernetes.io/arch]',
          value: true,
          message: 'must be a string',
        },
      ],
    ],
    [
      'tolerations are a list',
      (c) => (c.spec.scheduling.tolerations = { key: 'x' }),
      [{ path: 'spec.scheduling.tolerations', value: { key: 'x' }, message: 'must be a list' }],
    ],
    [
      'tolerations are objects',
      (c) => (c.spec.scheduling.tolerations = ['NoSchedule']),
      [{ path: 'spec.scheduling.tolerations[0]', value: 'NoSchedule', message: 'must be an object' }],
    ],
    [
      'toleration fields are strings',
      (c) => (c.spec.scheduling.tolerations[0].effect = 1),
      [{ path: 'spec.scheduling.tolerations[0].effect', value: 1, message: 'must be a string' }],
    ],
    [
      'nodeSelector keys are label keys',
      (c) => (c.spec.scheduling.nodeSelector = { 'bad key!': 'x' }),
      [
        {
          path: 'spec.scheduling.nodeSelector[bad key!]',
          value: 'bad key!',
          message: expect.stringMatching(/^label key must have a name part/),
        },
      ],
    ],
    [
      'nodeSelector values are label values',
      (c) => (c.spec.scheduling.nodeSelector = { arch: 'arm 64' }),
      [
        {
          path: 'spec.scheduling.nodeSelector[arch]',
          value: 'arm 64',
          message: expect.stringMatching(/^label value must be empty or/),
        },
      ],
    ],
    [
      'toleration keys are label keys',
      (c) => (c.spec.scheduling.tolerations[0].key = 'kvm device'),
      [
        {
          path: 'spec.scheduling.tolerations[0].key',
          value: 'kvm device',
          message: expect.stringMatching(/^toleration key must have a name part/),
        },
      ],
    ],
    [
      'toleration operators are Equal or Exists',
      (c) => (c.spec.scheduling.tolerations[0].operator = 'In'),
      [
        {
          path: 'spec.scheduling.tolerations[0].operator',
          value: 'In',
          message: 'must be one of Equal, Exists (empty means Equal)',
        },
      ],
    ],
    [
      'a toleration without a key uses Exists',
      (c) => (c.spec.scheduling.tolerations = [{ operator: 'Equal', value: 'x' }]),
      [
        {
          path: 'spec.scheduling.tolerations[0].operator',
          value: 'Equal',
          message: 'must be Exists when the key is empty (that tolerates every taint)',
        },
      ],
    ],
    [
      'an Exists toleration has no value',
      (c) => (c.spec.scheduling.tolerations[0].value = 'yes'),
      [
        {
          path: 'spec.scheduling.tolerations[0].value',
          value: 'yes',
          message: 'must be empty when the operator is Exists',
        },
      ],
    ],
    [
      'an Equal toleration value is a label value',
      (c) => (c.spec.scheduling.tolerations = [{ key: 'k', value: 'not ok' }]),
      [
        {
          path: 'spec.scheduling.tolerations[0].value',
          value: 'not ok',
          message: expect.stringMatching(/^toleration value must be empty or/),
        },
      ],
    ],
    [
      'toleration effects are taint effects',
      (c) => (c.spec.scheduling.tolerations[0].effect = 'NoRun'),
      [
        {
          path: 'spec.scheduling.tolerations[0].effect',
          value: 'NoRun',
          message: 'must be one of NoSchedule, PreferNoSchedule, NoExecute (empty means all effects)',
        },
      ],
    ],
    [
      'tolerationSeconds comes with NoExecute',
      (c) => (c.spec.scheduling.tolerations[0].tolerationSeconds = 30),
      [
        {
          path: 'spec.scheduling.tolerations[0].effect',
          value: 'NoSchedule',
          message: 'must be NoExecute when tolerationSeconds is set',
        },
      ],
    ],
    [
      'tolerationSeconds is a whole number',
      (c) => (c.spec.scheduling.tolerations[0].tolerationSeconds = 1.5),
      [
        {
          path: 'spec.scheduling.tolerations[0].tolerationSeconds',
          value: 1.5,
          message: 'must be a whole number',
        },
      ],
    ],
    [
      'resource limits are quantities',
      (c) => (c.spec.scheduling.resources.limits = { memory: '4GB' }),
      [
        {
          path: 'spec.scheduling.resources.limits[memory]',
          value: '4GB',
          message: 'must be a quantity such as 4, 500m, 8Gi or 16G',
        },
      ],
    ],
    [
      'resource requests are integers or strings',
      (c) => (c.spec.scheduling.resources.requests = { cpu: 0.5 }),
      [
        {
          path: 'spec.scheduling.resources.requests[cpu]',
          value: 0.5,
          message: 'must be a quantity such as 4, 500m, 8Gi or 16G',
        },
      ],
    ],
    [
      'resource claims have a name',
      (c) => (c.spec.scheduling.resources.claims = [{ request: 'r' }]),
      [
        {
          path: 'spec.scheduling.resources.claims[0].name',
          message: 'is required: the name of a resource claim of the Pod',
        },
      ],
    ],
    [
      'resource claim names are unique',
      (c) => (c.spec.scheduling.resources.claims = [{ name: 'gpu' }, { name: 'gpu' }]),
      [
        {
          path: 'spec.scheduling.resources.claims[1].name',
          value: 'gpu',
          message: 'must be unique among the claims',
        },
      ],
    ],
    [
      'affinity is an object',
      (c) => (c.spec.scheduling.affinity = 'near'),
      [{ path: 'spec.scheduling.affinity', value: 'near', message: 'must be an object' }],
    ],
    [
      'priorityClassName is a string',
      (c) => (c.spec.scheduling.priorityClassName = 100),
      [{ path: 'spec.scheduling.priorityClassName', value: 100, message: 'must be a string' }],
    ],
    [
      'runtimeClassName is a string',
      (c) => (c.spec.scheduling.runtimeClassName = false),
      [{ path: 'spec.scheduling.runtimeClassName', value: false, message: 'must be a string' }],
    ],
    [
      'scheduling is an object',
      (c) => (c.spec.scheduling = []),
      [{ path: 'spec.scheduling', value: [], message: 'must be an object' }],
    ],
    [
      'metadata.name is a DNS-1123 subdomain',
      (c) => (c.metadata.name = 'Qemu_RPi4'),
      [
        {
          path: 'metadata.name',
          value: 'Qemu_RPi4',
          message: expect.stringMatching(/^must be a lowercase DNS-1123 subdomain/),
        },
      ],
    ],
    [
      'metadata.name is required',
      (c) => delete c.metadata.name,
      [{ path: 'metadata.name', message: 'is required: give the object a name' }],
    ],
    [
      'metadata.namespace is a DNS-1123 label',
      (c) => (c.metadata.namespace = 'lab.one'),
      [
        {
          path: 'metadata.namespace',
          value: 'lab.one',
          message: expect.stringMatching(/^must be a lowercase DNS-1123 label/),
        },
      ],
    ],
    [
      'metadata labels are valid',
      (c) => (c.metadata.labels = { 'team name': 'lab' }),
      [
        {
          path: 'metadata.labels[team name]',
          value: 'team name',
          message: expect.stringMatching(/^label key/),
        },
      ],
    ],
    [
      'metadata is required',
      (c) => delete c.metadata,
      [{ path: 'metadata', message: 'is required: the object needs at least a name' }],
    ],
    [
      'spec is required',
      (c) => delete c.spec,
      [{ path: 'spec', message: 'is required: a class needs at least a provisioner' }],
    ],
    [
      'apiVersion names our group',
      (c) => (c.apiVersion = 'jumpstarter.dev/v1alpha1'),
      [
        {
          path: 'apiVersion',
          value: 'jumpstarter.dev/v1alpha1',
          message: 'must be virtualtarget.jumpstarter.dev/v1alpha1',
        },
      ],
    ],
    [
      'kind is VirtualTargetClass',
      (c) => (c.kind = 'ExporterSet'),
      [{ path: 'kind', value: 'ExporterSet', message: 'must be VirtualTargetClass' }],
    ],
  ] as Rule[])('checks that %s', (_rule, change, expected) => {
    expect(validateChanged(change)).toEqual(expected);
  });

  it('reports null list entries and skips undefined map members', () => {
    expect(
      validateChanged((c) => {
        c.spec.scheduling.tolerations.push(null);
        c.spec.scheduling.resources.claims = [undefined];
        c.spec.scheduling.nodeSelector.extra = undefined;
        c.spec.scheduling.resources.limits.extra = undefined;
      }),
    ).toEqual([
      { path: 'spec.scheduling.tolerations[1]', value: null, message: 'must be an object' },
      { path: 'spec.scheduling.resources.claims[0]', value: undefined, message: 'must be an object' },
    ]);
  });

  it('accepts a class cloned into another realm', () => {
    expect(validateVirtualTargetClass(structuredClone(jepClass()))).toEqual([]);
  });

  it('allows a generateName instead of a name and no namespace', () => {
    expect(
      validateChanged((c) => {
        delete c.metadata.name;
        delete c.metadata.namespace;
        c.metadata.generateName = 'qemu-';
      }),
    ).toEqual([]);
  });

  it.each(MALFORMED.filter((v) => !isPlainObject(v)))('reports a root of %p without throwing', (value) => {
    const issues = validateVirtualTargetClass(value);
    expect(issues).toEqual([{ path: '', value, message: 'must be a VirtualTargetClass object' }]);
  });

  it('reports the missing metadata and spec of an empty object', () => {
    expect(validateVirtualTargetClass({}).map((i) => i.path)).toEqual(['metadata', 'spec']);
  });

  it('never throws with a malformed value in any position', () => {
    const valid = jepClass();
    for (const path of allPaths(valid)) {
      for (const bad of MALFORMED) {
        const candidate = replaceAt(valid, path, bad);
        expect(() => validateVirtualTargetClass(candidate)).not.toThrow();
        expect(Array.isArray(validateVirtualTargetClass(candidate))).toBe(true);
      }
    }
  });

  it('never throws on arbitrary input, at the root or under spec', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (root, spec) => {
        expect(Array.isArray(validateVirtualTargetClass(root))).toBe(true);
        expect(Array.isArray(validateVirtualTargetClass({ metadata: { name: 'x' }, spec }))).toBe(true);
        expect(
          Array.isArray(
            validateVirtualTargetClass({ metadata: spec, spec: { scheduling: spec, images: spec } }),
          ),
        ).toBe(true);
      }),
    );
  });
});
