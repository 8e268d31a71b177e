import { describe, expect, it } from '@jest/globals';
import {
  instanceName,
  instanceOrdinal,
  validateAnnotations,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelKey,
  validateLabels,
  validateLabelValue,
} from '../../lib/core/names';

describe('names › DNS-1123 subdomain', () => {
  it.each(['a', 'rpi4-virtual', 'qemu-rpi4', 'lab.example.com', '0', 'a'.repeat(253), 'a-b.c-d'])(
    'accepts %p',
    (name) => {
      expect(validateDns1123Subdomain(name)).toEqual([]);
    },
  );

  it.each(['', 'A', 'rpi4_virtual', '-a', 'a-', 'a..b', '.a', 'a.', 'a b', 'ä'])('rejects %p', (name) => {
    expect(validateDns1123Subdomain(name)).toEqual([
      expect.stringMatching(/^must be a lowercase DNS-1123 subdomain/),
    ]);
  });

  it('rejects names longer than 253 characters', () => {
    expect(validateDns1123Subdomain('a'.repeat(254))).toEqual(['must be at most 253 characters long']);
  });

  it('rejects non-strings', () => {
    expect(validateDns1123Subdomain(5)).toEqual(['must be a string']);
  });
});

describe('names › DNS-1123 label', () => {
  it.each(['jumpstarter', 'lab-1', 'a', 'a'.repeat(63)])('accepts %p', (name) => {
    expect(validateDns1123Label(name)).toEqual([]);
  });

  it.each(['', 'lab.example', 'Lab', '-a', 'a-', 'a_b'])('rejects %p', (name) => {
    expect(validateDns1123Label(name)).toEqual([
      expect.stringMatching(/^must be a lowercase DNS-1123 label/),
    ]);
  });

  it('rejects labels longer than 63 characters', () => {
    expect(validateDns1123Label('a'.repeat(64))).toEqual(['must be at most 63 characters long']);
  });
});

describe('names › label keys', () => {
  it.each([
    'board',
    'kubernetes.io/arch',
    'exporterset.jumpstarter.dev/name',
    'A_b.c-D',
    'a'.repeat(63),
    'x/y',
  ])('accepts %p', (key) => {
    expect(validateLabelKey(key)).toEqual([]);
  });

  it.each<[string, RegExp]>([
    ['', /empty name part/],
    ['example.com/', /empty name part/],
    ['/board', /DNS-1123 subdomain before "\/"/],
    ['Example.com/board', /DNS-1123 subdomain before "\/"/],
    ['a/b/c', /at most one "\/"/],
    ['-board', /name part of letters/],
    ['board-', /name part of letters/],
    ['bo ard', /name part of letters/],
    ['a'.repeat(64), /at most 63 characters/],
    [`${'a'.repeat(254)}/b`, /DNS-1123 subdomain before/],
  ])('rejects %p', (key, message) => {
    expect(validateLabelKey(key)).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });

  it('names the length of a prefix over 253 characters and the name it stands before', () => {
    const prefix = Array.from({ length: 6 }, () => 'a'.repeat(43)).join('.'); // 263 characters
    expect(validateLabelKey(`${prefix}/board`)).toEqual([
      'must have a DNS-1123 subdomain before "/" of at most 253 characters (the prefix before "/board" has 263)',
    ]);
    expect(validateLabelKey(`${'A'.repeat(254)}/b`)).toEqual([
      'must have a DNS-1123 subdomain before "/" of at most 253 characters (the prefix before "/b" has 254)',
      'must have a DNS-1123 subdomain before "/" (lowercase letters, digits, "-" and ".", at most 253 characters)',
    ]);
  });
});

describe('names › label values', () => {
  it.each(['', 'rpi4', 'true', 'A-b_c.d', 'a'.repeat(63)])('accepts %p', (value) => {
    expect(validateLabelValue(value)).toEqual([]);
  });

  it.each(['-a', 'a-', 'a b', 'a/b', '_a'])('rejects %p', (value) => {
    expect(validateLabelValue(value)).toEqual([expect.stringMatching(/^must be empty or consist of/)]);
  });

  it('rejects values longer than 63 characters and non-strings', () => {
    expect(validateLabelValue('a'.repeat(64))).toEqual(['must be at most 63 characters long']);
    expect(validateLabelValue(true)).toEqual(['must be a string']);
  });
});

describe('names › label maps', () => {
  it('accepts valid and absent labels', () => {
    expect(
      validateLabels({ board: 'rpi4', 'kubernetes.io/arch': 'arm64', empty: '' }, 'metadata.labels'),
    ).toEqual([]);
    expect(validateLabels(undefined, 'metadata.labels')).toEqual([]);
    expect(validateLabels(null, 'metadata.labels')).toEqual([]);
  });

  it('reports each bad key and value at path[key]', () => {
    expect(validateLabels({ 'bad key': 'x', board: 'not ok', n: 5 }, 'metadata.labels')).toEqual([
      {
        path: 'metadata.labels[bad key]',
        value: 'bad key',
        message: expect.stringMatching(/^label key must have a name part/),
      },
      {
        path: 'metadata.labels[board]',
        value: 'not ok',
        message: expect.stringMatching(/^label value must be empty or consist/),
      },
      { path: 'metadata.labels[n]', value: 5, message: 'label value must be a string' },
    ]);
  });

  it('reports a labels value that is not a map', () => {
    expect(validateLabels(['a'], 'p')).toEqual([
      { path: 'p', value: ['a'], message: 'must be a map of label keys to string values' },
    ]);
  });

  it('checks annotation keys case-insensitively and requires string values', () => {
    expect(validateAnnotations({ 'Example.com/Note': 'any text at all, with spaces' }, 'a')).toEqual([]);
    expect(
      validateAnnotations({ 'a b': 'x', ok: 1 }, 'a').map((i) => [i.path, i.message.slice(0, 18)]),
    ).toEqual([
      ['a[a b]', 'annotation key mus'],
      ['a[ok]', 'annotation value m'],
    ]);
    expect(validateAnnotations('x', 'a')).toHaveLength(1);
  });
});

describe('names › instances', () => {
  it('names instance n of a set <set>-<n>', () => {
    expect(instanceName('rpi4-virtual', 0)).toBe('rpi4-virtual-0');
    expect(instanceName('rpi4-virtual', 17)).toBe('rpi4-virtual-17');
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses the ordinal %p', (ordinal) => {
    expect(() => instanceName('s', ordinal)).toThrow(RangeError);
  });

  it('reads the ordinal back from an instance name', () => {
    expect(instanceOrdinal('rpi4-virtual', 'rpi4-virtual-17')).toBe(17);
    expect(instanceOrdinal('rpi4-virtual', 'rpi4-virtual-0')).toBe(0);
    expect(instanceOrdinal('rpi4', 'rpi4-virtual-1')).toBeUndefined();
    expect(instanceOrdinal('rpi4-virtual', 'rpi4-virtual-01')).toBeUndefined();
    expect(instanceOrdinal('rpi4-virtual', 'rpi4-virtual-')).toBeUndefined();
    expect(instanceOrdinal('rpi4-virtual', 'other-1')).toBeUndefined();
    for (const n of [0, 1, 9, 10, 12345]) expect(instanceOrdinal('s', instanceName('s', n))).toBe(n);
  });
});
