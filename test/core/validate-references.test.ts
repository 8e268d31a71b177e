import { describe, expect, it } from '@jest/globals';
import type { VirtualTargetClass } from '../../lib/api';
import { ProvisionerNames } from '../../lib/api';
import type { ValidationIssue } from '../../lib/core/issue';
import { isQuantity } from '../../lib/core/quantity';
import { validateExporterSetReferences } from '../../lib/core/validate-references';
import type { Provisioner, ValidationContext } from '../../lib/provisioners/provisioner';
import { jepClass, jepSet, loose } from './fixtures';

/** A tiny provisioner: `resources.memory` must be a quantity; it records what it was asked. */
function fakeProvisioner(name = 'qemu.jumpstarter.dev') {
  const calls: { parameters: unknown; context?: ValidationContext }[] = [];
  const provisioner: Provisioner = {
    name,
    validate(parameters, context) {
      calls.push({ parameters, context });
      const memory = (parameters as { resources?: { memory?: unknown } }).resources?.memory;
      const issues: ValidationIssue[] = [];
      if (memory !== undefined && !isQuantity(memory)) {
        issues.push({ path: 'resources.memory', value: memory, message: 'must be a quantity such as 8Gi' });
      }
      return issues;
    },
    render() {
      throw new Error('not used');
    },
  };
  return { provisioner, calls };
}

function lookupOf(...provisioners: Provisioner[]) {
  return (name: string) => provisioners.find((p) => p.name === name);
}

describe('ExporterSet references', () => {
  it('accepts the JEP pool with its class and validates the merged parameters once', () => {
    const { provisioner, calls } = fakeProvisioner();
    expect(validateExporterSetReferences(jepSet(), jepClass(), lookupOf(provisioner))).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0].parameters).toEqual({
      machineType: 'virt',
      firmware: { url: 'registry.example.com/firmware/rpi4:v1', digest: 'sha256:abc' },
      resources: { cpu: 4, memory: '8Gi', storage: '16Gi' },
    });
  });

  it('passes the template drivers to the provisioner', () => {
    const { provisioner, calls } = fakeProvisioner();
    const set = jepSet();
    validateExporterSetReferences(set, jepClass(), lookupOf(provisioner));
    expect(calls[0].context?.drivers).toEqual([...(set.spec.template.spec?.drivers ?? [])]);
  });

  it('reports a missing class, naming it and the namespace and saying how to fix it', () => {
    const { provisioner, calls } = fakeProvisioner();
    expect(validateExporterSetReferences(jepSet(), undefined, lookupOf(provisioner))).toEqual([
      {
        path: 'spec.virtualTargetClassName',
        value: 'qemu-rpi4',
        message:
          'VirtualTargetClass "qemu-rpi4" was not found in namespace "jumpstarter"; create it there or fix virtualTargetClassName',
      },
    ]);
    expect(calls).toHaveLength(0);
  });

  it("says the set's namespace when the set has none", () => {
    const set = loose(jepSet());
    delete set.metadata.namespace;
    const [issue] = validateExporterSetReferences(set as never, undefined, lookupOf());
    expect(issue.message).toContain("was not found in the set's namespace");
  });

  it('reports a class in another namespace', () => {
    const cls = loose(jepClass());
    cls.metadata.namespace = 'lab';
    const issues = validateExporterSetReferences(
      jepSet(),
      cls as VirtualTargetClass,
      lookupOf(fakeProvisioner().provisioner),
    );
    expect(issues).toEqual([
      {
        path: 'spec.virtualTargetClassName',
        value: 'qemu-rpi4',
        message:
          'VirtualTargetClass "qemu-rpi4" is in namespace "lab" but the ExporterSet is in "jumpstarter"; a set can only use a class in its own namespace, so create the class there',
      },
    ]);
  });

  it('does not compare namespaces when one is unknown', () => {
    const cls = loose(jepClass());
    delete cls.metadata.namespace;
    expect(
      validateExporterSetReferences(
        jepSet(),
        cls as VirtualTargetClass,
        lookupOf(fakeProvisioner().provisioner),
      ),
    ).toEqual([]);
  });

  it('reports a class other than the one the set names', () => {
    const cls = loose(jepClass());
    cls.metadata.name = 'qemu-rpi5';
    const issues = validateExporterSetReferences(
      jepSet(),
      cls as VirtualTargetClass,
      lookupOf(fakeProvisioner().provisioner),
    );
    expect(issues.map((i) => i.message)).toEqual([
      'names VirtualTargetClass "qemu-rpi4" but the class given is "qemu-rpi5"; pass the class the set names',
    ]);
  });

  it('reports an unknown provisioner and lists the known ones', () => {
    const cls = loose(jepClass());
    cls.spec.provisioner = 'qemu.jumpstarter.dv';
    const issues = validateExporterSetReferences(
      jepSet(),
      cls as VirtualTargetClass,
      lookupOf(fakeProvisioner().provisioner),
      {
        knownProvisioners: ['qemu.jumpstarter.dev', 'corellium.jumpstarter.dev'],
      },
    );
    expect(issues).toEqual([
      {
        path: 'spec.virtualTargetClassName',
        value: 'qemu-rpi4',
        message:
          'VirtualTargetClass "qemu-rpi4" uses provisioner "qemu.jumpstarter.dv", which is not known; known provisioners: qemu.jumpstarter.dev, corellium.jumpstarter.dev',
      },
    ]);
  });

  it('reports an unknown provisioner without a list when none was given', () => {
    const cls = loose(jepClass());
    cls.spec.provisioner = 'custom.example.com';
    const [issue] = validateExporterSetReferences(jepSet(), cls as VirtualTargetClass, lookupOf());
    expect(issue.message).toBe(
      'VirtualTargetClass "qemu-rpi4" uses provisioner "custom.example.com", which is not known',
    );
  });

  it('accepts a reserved provisioner without checking parameters', () => {
    const cls = loose(jepClass());
    cls.spec.provisioner = 'corellium.jumpstarter.dev';
    const set = loose(jepSet());
    set.spec.parameters = { resources: { memory: 'lots' } };
    expect(
      validateExporterSetReferences(set as never, cls as VirtualTargetClass, lookupOf(), {
        reservedProvisioners: ['corellium.jumpstarter.dev'],
      }),
    ).toEqual([]);
  });

  it('reserves the JEP provisioner names by default', () => {
    for (const name of Object.values(ProvisionerNames)) {
      const cls = loose(jepClass());
      cls.spec.provisioner = name;
      expect(validateExporterSetReferences(jepSet(), cls as VirtualTargetClass, lookupOf())).toEqual([]);
    }
  });

  it('validates a reserved name when the lookup implements it', () => {
    const { provisioner, calls } = fakeProvisioner('corellium.jumpstarter.dev');
    const cls = loose(jepClass());
    cls.spec.provisioner = 'corellium.jumpstarter.dev';
    validateExporterSetReferences(jepSet(), cls as VirtualTargetClass, lookupOf(provisioner));
    expect(calls).toHaveLength(1);
  });

  it('reports invalid merged parameters under spec.parameters', () => {
    const set = loose(jepSet());
    set.spec.parameters.resources.memory = 'lots';
    const issues = validateExporterSetReferences(
      set as never,
      jepClass(),
      lookupOf(fakeProvisioner().provisioner),
    );
    expect(issues).toEqual([
      { path: 'spec.parameters.resources.memory', value: 'lots', message: 'must be a quantity such as 8Gi' },
    ]);
  });

  it('reports invalid class parameters the set does not override, also under spec.parameters', () => {
    const cls = loose(jepClass());
    cls.spec.parameters.resources.memory = 'lots';
    const set = loose(jepSet());
    delete set.spec.parameters;
    expect(
      validateExporterSetReferences(
        set as never,
        cls as VirtualTargetClass,
        lookupOf(fakeProvisioner().provisioner),
      ),
    ).toEqual([
      { path: 'spec.parameters.resources.memory', value: 'lots', message: 'must be a quantity such as 8Gi' },
    ]);
  });

  it('accepts a set that fixes an invalid class value by overriding it', () => {
    const cls = loose(jepClass());
    cls.spec.parameters.resources.memory = 'lots';
    expect(
      validateExporterSetReferences(
        jepSet(),
        cls as VirtualTargetClass,
        lookupOf(fakeProvisioner().provisioner),
      ),
    ).toEqual([]);
  });

  it('leaves non-object parameters to the shape validators', () => {
    const { provisioner, calls } = fakeProvisioner();
    const set = loose(jepSet());
    set.spec.parameters = ['memory', '8Gi'];
    expect(validateExporterSetReferences(set as never, jepClass(), lookupOf(provisioner))).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it('keeps the set paths of issues the provisioner finds in the template drivers', () => {
    const provisioner: Provisioner = {
      ...fakeProvisioner().provisioner,
      validate: () => [
        { path: 'spec.template.spec.drivers[0].name', value: 'tcp', message: 'collides' },
        { path: 'arch', value: 'mips', message: 'unsupported' },
      ],
    };
    expect(validateExporterSetReferences(jepSet(), jepClass(), lookupOf(provisioner))).toEqual([
      { path: 'spec.template.spec.drivers[0].name', value: 'tcp', message: 'collides' },
      { path: 'spec.parameters.arch', value: 'mips', message: 'unsupported' },
    ]);
  });

  it('turns a provisioner that throws into an issue', () => {
    const provisioner: Provisioner = {
      ...fakeProvisioner().provisioner,
      validate() {
        throw new Error('boom');
      },
    };
    expect(validateExporterSetReferences(jepSet(), jepClass(), lookupOf(provisioner))).toEqual([
      {
        path: 'spec.parameters',
        message: 'provisioner qemu.jumpstarter.dev failed to validate the parameters: boom',
      },
    ]);
  });
});
