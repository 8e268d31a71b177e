import { describe, expect, it } from '@jest/globals';
import type { LabelSelector } from '../../lib/api';
import { RuleMessages } from '../../lib/api';
import { ValidationError } from '../../lib/core/issue';
import { matchesSelector, selectorToString, validateLabelSelector } from '../../lib/core/selector';

const labels = { board: 'rpi4', arch: 'aarch64', virtual: 'true' };

describe('label selectors › matching', () => {
  it.each<[string, LabelSelector, boolean]>([
    ['matchLabels equal', { matchLabels: { board: 'rpi4' } }, true],
    ['matchLabels all of several', { matchLabels: { board: 'rpi4', virtual: 'true' } }, true],
    ['matchLabels different value', { matchLabels: { board: 'rpi5' } }, false],
    ['matchLabels absent key', { matchLabels: { fidelity: 'high' } }, false],
    [
      'In with the value',
      { matchExpressions: [{ key: 'arch', operator: 'In', values: ['x86_64', 'aarch64'] }] },
      true,
    ],
    [
      'In without the value',
      { matchExpressions: [{ key: 'arch', operator: 'In', values: ['x86_64'] }] },
      false,
    ],
    ['In on an absent key', { matchExpressions: [{ key: 'os', operator: 'In', values: ['linux'] }] }, false],
    [
      'NotIn without the value',
      { matchExpressions: [{ key: 'arch', operator: 'NotIn', values: ['x86_64'] }] },
      true,
    ],
    [
      'NotIn with the value',
      { matchExpressions: [{ key: 'arch', operator: 'NotIn', values: ['aarch64'] }] },
      false,
    ],
    [
      'NotIn on an absent key',
      { matchExpressions: [{ key: 'os', operator: 'NotIn', values: ['linux'] }] },
      true,
    ],
    ['Exists on a present key', { matchExpressions: [{ key: 'virtual', operator: 'Exists' }] }, true],
    ['Exists on an absent key', { matchExpressions: [{ key: 'os', operator: 'Exists' }] }, false],
    ['DoesNotExist on an absent key', { matchExpressions: [{ key: 'os', operator: 'DoesNotExist' }] }, true],
    [
      'DoesNotExist on a present key',
      { matchExpressions: [{ key: 'board', operator: 'DoesNotExist', values: [] }] },
      false,
    ],
    [
      'matchLabels AND matchExpressions, both true',
      { matchLabels: { board: 'rpi4' }, matchExpressions: [{ key: 'virtual', operator: 'Exists' }] },
      true,
    ],
    [
      'matchLabels AND matchExpressions, one false',
      { matchLabels: { board: 'rpi4' }, matchExpressions: [{ key: 'virtual', operator: 'DoesNotExist' }] },
      false,
    ],
    ['the empty selector', {}, true],
    ['empty lists and maps', { matchLabels: {}, matchExpressions: [] }, true],
  ])('%s → %p', (_name, selector, expected) => {
    expect(matchesSelector(selector, labels)).toBe(expected);
  });

  it('selects everything with {} and nothing with an undefined selector', () => {
    expect(matchesSelector({}, {})).toBe(true);
    expect(matchesSelector({}, undefined)).toBe(true);
    expect(matchesSelector(undefined, labels)).toBe(false);
  });

  it('treats absent labels as no labels', () => {
    expect(matchesSelector({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, undefined)).toBe(
      true,
    );
    expect(matchesSelector({ matchLabels: { a: 'b' } }, undefined)).toBe(false);
  });

  it('ignores matchLabels members whose value is undefined, as serialization drops them', () => {
    const selector = { matchLabels: { board: 'rpi4', gone: undefined } } as unknown as LabelSelector;
    expect(matchesSelector(selector, labels)).toBe(true);
    expect(selectorToString(selector)).toBe('board=rpi4');
  });

  it('does not find keys through the prototype chain', () => {
    expect(matchesSelector({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {})).toBe(
      false,
    );
    expect(matchesSelector({ matchExpressions: [{ key: 'toString', operator: 'DoesNotExist' }] }, {})).toBe(
      true,
    );
  });

  it.each<[string, unknown]>([
    ['an unknown operator', { matchExpressions: [{ key: 'arch', operator: 'Equals', values: ['aarch64'] }] }],
    ['In without values', { matchExpressions: [{ key: 'arch', operator: 'In', values: [] }] }],
    ['NotIn without values', { matchExpressions: [{ key: 'os', operator: 'NotIn' }] }],
    ['Exists with values', { matchExpressions: [{ key: 'arch', operator: 'Exists', values: ['aarch64'] }] }],
    ['an invalid key', { matchLabels: { 'bad key': 'x' } }],
    ['a non-object', 'board=rpi4'],
  ])('selects nothing with an invalid selector: %s', (_name, selector) => {
    expect(matchesSelector(selector as LabelSelector, labels)).toBe(false);
  });
});

describe('label selectors › validation', () => {
  it('accepts valid selectors', () => {
    expect(validateLabelSelector({}, 'spec.selector')).toEqual([]);
    expect(validateLabelSelector(undefined, 'spec.selector')).toEqual([]);
    expect(
      validateLabelSelector(
        {
          matchLabels: { 'kubernetes.io/arch': 'arm64', board: '' },
          matchExpressions: [
            { key: 'a', operator: 'In', values: ['x', 'y'] },
            { key: 'b', operator: 'NotIn', values: ['z'] },
            { key: 'c', operator: 'Exists' },
            { key: 'd', operator: 'DoesNotExist', values: [] },
          ],
        },
        'spec.selector',
      ),
    ).toEqual([]);
  });

  it('reports an unknown operator with the rule message', () => {
    expect(
      validateLabelSelector(
        { matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] },
        'spec.selector',
      ),
    ).toEqual([
      {
        path: 'spec.selector.matchExpressions[0].operator',
        value: 'in',
        message: RuleMessages.selectorOperator,
      },
    ]);
    expect(validateLabelSelector({ matchExpressions: [{ key: 'a' }] }, 's')).toEqual([
      { path: 's.matchExpressions[0].operator', message: RuleMessages.selectorOperator },
    ]);
  });

  it.each([
    [{ key: 'a', operator: 'In' }, undefined],
    [{ key: 'a', operator: 'In', values: [] }, []],
    [{ key: 'a', operator: 'NotIn', values: [] }, []],
    [{ key: 'a', operator: 'Exists', values: ['x'] }, ['x']],
    [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }, ['x']],
  ])('reports the values rule for %j', (requirement, values) => {
    const expected =
      values === undefined
        ? { path: 's.matchExpressions[0].values', message: RuleMessages.selectorValues }
        : { path: 's.matchExpressions[0].values', value: values, message: RuleMessages.selectorValues };
    expect(validateLabelSelector({ matchExpressions: [requirement] }, 's')).toEqual([expected]);
  });

  it('reports label syntax in keys and values', () => {
    const issues = validateLabelSelector(
      {
        matchLabels: { 'bad key': 'ok', good: 'bad value' },
        matchExpressions: [{ key: '-x', operator: 'In', values: ['ok', 'not ok'] }],
      },
      's',
    );
    expect(issues.map((i) => [i.path, i.value])).toEqual([
      ['s.matchLabels[bad key]', 'bad key'],
      ['s.matchLabels[good]', 'bad value'],
      ['s.matchExpressions[0].key', '-x'],
      ['s.matchExpressions[0].values[1]', 'not ok'],
    ]);
    expect(issues[0].message).toMatch(/^label key must have a name part/);
    expect(issues[1].message).toMatch(/^label value must be empty or consist of/);
  });

  it.each<[unknown, string]>([
    ['board=rpi4', 's'],
    [[], 's'],
    [{ matchLabels: ['a'] }, 's.matchLabels'],
    [{ matchLabels: { a: 1 } }, 's.matchLabels[a]'],
    [{ matchExpressions: {} }, 's.matchExpressions'],
    [{ matchExpressions: ['a'] }, 's.matchExpressions[0]'],
    [{ matchExpressions: [{ operator: 'Exists' }] }, 's.matchExpressions[0].key'],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: 'x' }] }, 's.matchExpressions[0].values'],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [1] }] }, 's.matchExpressions[0].values[0]'],
  ])('reports a malformed selector %j at %p', (selector, path) => {
    const issues = validateLabelSelector(selector, 's');
    expect(issues.map((i) => i.path)).toContain(path);
  });
});

describe('label selectors › string form', () => {
  it.each<[LabelSelector | undefined, string]>([
    [undefined, ''],
    [{}, ''],
    [{ matchLabels: { board: 'rpi4' } }, 'board=rpi4'],
    [
      { matchLabels: { virtual: 'true', board: 'rpi4', arch: 'aarch64' } },
      'arch=aarch64,board=rpi4,virtual=true',
    ],
    [
      {
        matchLabels: { a: 'b' },
        matchExpressions: [
          { key: 'e', operator: 'Exists' },
          { key: 'd', operator: 'DoesNotExist' },
          { key: 'c', operator: 'In', values: ['y', 'x'] },
          { key: 'f', operator: 'NotIn', values: ['z'] },
        ],
      },
      'a=b,c in (x,y),!d,e,f notin (z)',
    ],
    [{ matchExpressions: [{ key: 'c', operator: 'In', values: ['x'] }] }, 'c in (x)'],
    [
      { matchLabels: { 'kubernetes.io/arch': 'arm64', board: 'rpi4' } },
      'board=rpi4,kubernetes.io/arch=arm64',
    ],
  ])('writes %j as %p', (selector, text) => {
    expect(selectorToString(selector)).toBe(text);
  });

  it('keeps requirements on the same key in order, matchLabels first', () => {
    expect(
      selectorToString({
        matchLabels: { a: 'x' },
        matchExpressions: [
          { key: 'a', operator: 'NotIn', values: ['y'] },
          { key: 'a', operator: 'Exists' },
        ],
      }),
    ).toBe('a=x,a notin (y),a');
  });

  it('throws a ValidationError for an invalid selector', () => {
    expect(() => selectorToString({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      ValidationError,
    );
  });
});
