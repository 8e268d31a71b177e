/**
 * Hostile QEMU parameters (issue 7): sizes and counts far beyond any machine, negative or in exponent
 * form, wrong types, deep or huge unknown keys. The provisioner's validation (the same code at synth
 * time and in the controller's ParametersValid) rejects what it could not render into a valid Pod
 * and QEMU command line, with the rule in words; what it accepts always renders exact quantities,
 * and unknown keys, however deep or large, never reach the Pod or the exporter config.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { JsonObject } from '../../lib/api';
import { formatIssue } from '../../lib/core/issue';
import { tryParseQuantity } from '../../lib/core/quantity';
import { qemuProvisioner, sharedVolumeSizeLimit, toQemuSize } from '../../lib/provisioners';
import { instance, qemuClass } from '../provisioners/fixtures';

const lines = (parameters: unknown) => qemuProvisioner.validate(parameters).map(formatIssue);

const SIZE =
  'must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes)';
const TOO_LARGE = 'must be at most 1Pi (1125899906842624 bytes)';
const CPU =
  'must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs)';
const TOO_MANY = 'must be at most 1024 cores, the most a QEMU guest can have';
/** Kubernetes' quantity grammar (what the API server accepts in a Pod's sizeLimit). */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?(\d+(\.\d*)?|\.\d+))?$/;

describe('hostile QEMU parameters', () => {
  it.each<[string, unknown, string]>([
    [
      'storage in exponent form beyond any disk',
      { resources: { storage: '1e300' } },
      `resources.storage: ${TOO_LARGE} (got "1e300")`,
    ],
    ['memory of 8Ei', { resources: { memory: '8Ei' } }, `resources.memory: ${TOO_LARGE} (got "8Ei")`],
    [
      'storage just above 1Pi',
      { resources: { storage: 2 ** 50 + 1 } },
      `resources.storage: ${TOO_LARGE} (got 1125899906842625)`,
    ],
    ['a negative size', { resources: { memory: '-1Gi' } }, `resources.memory: ${SIZE} (got "-1Gi")`],
    ['a zero size', { resources: { storage: 0 } }, `resources.storage: ${SIZE} (got 0)`],
    ['a size as text', { resources: { memory: 'lots' } }, `resources.memory: ${SIZE} (got "lots")`],
    [
      'a size as an object',
      { resources: { storage: { value: '16Gi' } } },
      `resources.storage: ${SIZE} (got {"value":"16Gi"})`,
    ],
    ['1e300 CPUs', { resources: { cpu: '1e300' } }, `resources.cpu: ${TOO_MANY} (got "1e300")`],
    ['1025 CPUs', { resources: { cpu: 1025 } }, `resources.cpu: ${TOO_MANY} (got 1025)`],
    ['a negative CPU count', { resources: { cpu: -4 } }, `resources.cpu: ${CPU} (got -4)`],
    ['an infinite CPU count', { resources: { cpu: 'Infinity' } }, `resources.cpu: ${CPU} (got "Infinity")`],
    ['CPUs as a list', { resources: { cpu: [4] } }, `resources.cpu: ${CPU} (got [4])`],
    [
      'a megabyte arch',
      { arch: 'a'.repeat(1 << 20) },
      `arch: must be one of "x86_64", "aarch64" (the guest architecture) (got "${'a'.repeat(76)}...)`,
    ],
    ['kvm as a string', { kvm: 'true' }, 'kvm: must be true or false (got "true")'],
    [
      'an empty machine type',
      { machineType: '' },
      'machineType: must be a non-empty string naming a QEMU machine type, such as "virt" or "q35" (got "")',
    ],
  ])('rejects %s', (_what, parameters, line) => {
    expect(lines(parameters)).toEqual([line]);
  });

  it('accepts the bounds themselves: 1Pi of memory and storage, 1024 CPUs', () => {
    const parameters = { resources: { cpu: 1024, memory: '1Pi', storage: 2 ** 50 } };
    expect(lines(parameters)).toEqual([]);
    expect(sharedVolumeSizeLimit(parameters)).toBe('1073741924Mi');
    expect(toQemuSize('1Pi')).toBe('1024T');
  });

  it('renders every accepted size as an exact quantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2 ** 20, max: 2 ** 50 }),
        fc.constantFrom('', 'k', 'Ki', 'M', 'Mi', 'G', 'Gi'),
        (n, unit) => {
          const factor = { '': 1, k: 1e3, Ki: 2 ** 10, M: 1e6, Mi: 2 ** 20, G: 1e9, Gi: 2 ** 30 }[unit];
          const storage = `${Math.max(1, Math.floor(n / factor))}${unit}`;
          fc.pre(lines({ resources: { storage } }).length === 0);
          const limit = sharedVolumeSizeLimit({ resources: { storage } });
          expect(limit).toMatch(QUANTITY);
          expect(tryParseQuantity(limit)!.value).toBe(tryParseQuantity(storage)!.value + 100 * 2 ** 20);
          expect(toQemuSize(storage)).toMatch(/^\d+[KMGT]?B?$/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps deep and huge unknown keys out of the Pod and the exporter config', () => {
    let deep: JsonObject = { leaf: 'x' };
    for (let i = 0; i < 100; i++) deep = { [`level${i}`]: deep };
    const parameters = { arch: 'x86_64', deep, blob: 'b'.repeat(1 << 20) } as JsonObject;
    expect(lines(parameters)).toEqual([]);
    const { objects } = qemuProvisioner.render(
      instance({ virtualTargetClass: qemuClass({ parameters }), parameters }),
    );
    const text = JSON.stringify(objects);
    expect(text.length).toBeLessThan(10_000);
    expect(text).not.toContain('level99');
    expect(text).not.toContain('bbbb');
  });
});
