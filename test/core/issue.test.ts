import { describe, expect, it } from '@jest/globals';
import { describeValue, formatIssue, prefixIssues, ValidationError } from '../../lib/core/issue';
import { IssueCollector } from '../../lib/core/issue-collector';
import { fieldPath, indexPath, keyPath } from '../../lib/core/path';

describe('validation issues', () => {
  it('formats an issue as one line with the value', () => {
    expect(
      formatIssue({ path: 'spec.minReplicas', value: -1, message: 'must be greater than or equal to 0' }),
    ).toBe('spec.minReplicas: must be greater than or equal to 0 (got -1)');
    expect(formatIssue({ path: 'spec.selector', message: 'is required' })).toBe('spec.selector: is required');
  });

  it('describes values briefly', () => {
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue('x')).toBe('"x"');
    expect(describeValue({ a: [1] })).toBe('{"a":[1]}');
    expect(describeValue('y'.repeat(200))).toHaveLength(80);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('[object Object]');
  });

  it('prefixes paths, the root path included', () => {
    expect(
      prefixIssues('spec.parameters', [
        { path: 'resources.memory', message: 'm' },
        { path: '', message: 'r' },
      ]),
    ).toEqual([
      { path: 'spec.parameters.resources.memory', message: 'm' },
      { path: 'spec.parameters', message: 'r' },
    ]);
  });

  it('lists every issue in a ValidationError', () => {
    const error = new ValidationError('ExporterSet jumpstarter/rpi4-virtual', [
      { path: 'a', message: 'one' },
      { path: 'b', value: 2, message: 'two' },
    ]);
    expect(error.message).toBe(
      'ExporterSet jumpstarter/rpi4-virtual is invalid:\n  - a: one\n  - b: two (got 2)',
    );
    expect(error.issues).toHaveLength(2);
  });
});

describe('field paths', () => {
  it('writes paths as the API server does', () => {
    expect(fieldPath('', 'spec')).toBe('spec');
    expect(fieldPath('spec', 'selector')).toBe('spec.selector');
    expect(indexPath('spec.template.spec.drivers', 2)).toBe('spec.template.spec.drivers[2]');
    expect(keyPath('metadata.labels', 'kubernetes.io/arch')).toBe('metadata.labels[kubernetes.io/arch]');
  });
});

describe('issue collector', () => {
  it('records a value only when one is given', () => {
    const c = new IssueCollector();
    c.add('a', 'missing');
    c.add('b', 'wrong', undefined);
    expect(c.issues).toEqual([
      { path: 'a', message: 'missing' },
      { path: 'b', value: undefined, message: 'wrong' },
    ]);
    expect('value' in c.issues[0]).toBe(false);
  });

  it('returns usable values and records wrong ones', () => {
    const c = new IssueCollector();
    expect(c.object({ a: 1 }, 'o')).toEqual({ a: 1 });
    expect(c.object(null, 'o')).toBeUndefined();
    expect(c.list([1], 'l')).toEqual([1]);
    expect(c.string('x', 's', { nonEmpty: true })).toBe('x');
    expect(c.oneOf('A', 'e', ['A', 'B'])).toBe('A');
    expect(c.integer(3, 'i', { min: 0, max: 5 })).toBe(3);
    expect(c.boolean(false, 'b')).toBe(false);
    expect(c.stringMap({ k: 'v' }, 'm')).toEqual({ k: 'v' });
    expect(c.issues).toEqual([]);

    expect(c.object([], 'o')).toBeUndefined();
    expect(c.list('x', 'l', true)).toBeUndefined();
    expect(c.list(undefined, 'l2', 'a list of things')).toBeUndefined();
    expect(c.boolean('true', 'b')).toBeUndefined();
    expect(c.stringMap({ k: 1 }, 'm')).toBeUndefined();
    expect(c.issues).toEqual([
      { path: 'o', value: [], message: 'must be an object' },
      { path: 'l', value: 'x', message: 'must be a list' },
      { path: 'l2', message: 'is required: a list of things' },
      { path: 'b', value: 'true', message: 'must be true or false' },
      { path: 'm[k]', value: 1, message: 'must be a string' },
    ]);
  });
});
