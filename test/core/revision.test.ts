import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RevisionInputs } from '../../lib/core/revision';
import { canonicalJson, templateRevision } from '../../lib/core/revision';
import { jepClass, jepSet, loose, type Loose } from './fixtures';

function inputs(): RevisionInputs {
  return {
    template: jepSet().spec.template,
    parameters: { resources: { cpu: 4, memory: '8Gi', storage: '16Gi' }, machineType: 'virt' },
    images: {
      exporter: { image: 'quay.io/jumpstarter-dev/jumpstarter:latest', imagePullPolicy: 'IfNotPresent' },
    },
    scheduling: jepClass().spec.scheduling,
  };
}

/** The same data with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  );
}

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps list order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('leaves out undefined members like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('keeps a __proto__ key from parsed JSON as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__": {"x": 1}, "a": 1}'))).toBe('{"__proto__":{"x":1},"a":1}');
  });

  it('gives the same text whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(reverseKeys(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('parses back to the same data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('template revision', () => {
  it('is 10 lowercase hex digits, valid as a label value', () => {
    expect(templateRevision(inputs())).toMatch(/^[0-9a-f]{10}$/);
  });

  it('is stable for equal inputs and insensitive to key order', () => {
    expect(templateRevision(inputs())).toBe(templateRevision(inputs()));
    expect(templateRevision(reverseKeys(inputs()) as RevisionInputs)).toBe(templateRevision(inputs()));
  });

  it.each([
    ['a template label', (i) => (i.template.metadata.labels.board = 'rpi5')],
    ['a template annotation', (i) => (i.template.metadata.annotations = { note: 'x' })],
    ['a driver', (i) => i.template.spec.drivers.push({ ref: 'qemu.console' })],
    ['the driver order', (i) => i.template.spec.drivers.reverse()],
    ['a driver config', (i) => (i.template.spec.drivers[1].config.port = 2222)],
    ['a parameter', (i) => (i.parameters.resources.memory = '16Gi')],
    ['a parameter type', (i) => (i.parameters.resources.cpu = '4')],
    ['the images', (i) => (i.images.exporter.image = 'quay.io/jumpstarter-dev/jumpstarter:v1')],
    ['the scheduling', (i) => (i.scheduling.nodeSelector['kubernetes.io/arch'] = 'amd64')],
    ['a missing input', (i) => delete i.scheduling],
  ] as [string, (i: Loose) => void][])('changes when %s changes', (_what, change) => {
    const changed = loose(structuredClone(inputs()));
    change(changed);
    expect(templateRevision(changed)).not.toBe(templateRevision(inputs()));
  });

  it('tells apart the same value under different inputs', () => {
    const value = { a: 1 };
    expect(templateRevision({ parameters: value })).not.toBe(templateRevision({ images: value as never }));
  });
});
