import { describe, expect, it } from '@jest/globals';
import { matchesSelector } from 'virtual-exporters/internal';
import { objectFilter, parseFieldSelector, parseLabelSelector } from '../src/selectors';
import type { KubeObject } from '../src/types';
import { apiError } from './store-support';

describe('parseLabelSelector', () => {
  it.each([
    ['a=b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: 'NotIn', values: ['b'] }]],
    ['a in (x, y)', [{ key: 'a', operator: 'In', values: ['x', 'y'] }]],
    ['a notin (x)', [{ key: 'a', operator: 'NotIn', values: ['x'] }]],
    ['a', [{ key: 'a', operator: 'Exists' }]],
    ['!a', [{ key: 'a', operator: 'DoesNotExist' }]],
    ['a=', [{ key: 'a', operator: 'In', values: [''] }]],
    [
      'example.com/tier=web , env in (prod,stage),!legacy',
      [
        { key: 'example.com/tier', operator: 'In', values: ['web'] },
        { key: 'env', operator: 'In', values: ['prod', 'stage'] },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    ],
  ])('parses %j', (text, matchExpressions) => {
    expect(parseLabelSelector(text)).toEqual({ matchExpressions });
  });

  it('selects everything when empty or absent', () => {
    expect(parseLabelSelector('')).toEqual({});
    expect(parseLabelSelector(undefined)).toEqual({});
  });

  it('matches like Kubernetes: != and notin match objects without the label', () => {
    const selector = parseLabelSelector('app!=web,tier notin (db)');
    expect(matchesSelector(selector, {})).toBe(true);
    expect(matchesSelector(selector, { app: 'web' })).toBe(false);
    expect(matchesSelector(selector, { app: 'api', tier: 'db' })).toBe(false);
  });

  it.each([
    ['a in x', /expected "\(" after "in"/],
    ['a in (x', /expected "," or "\)"/],
    ['a b', /expected an operator/],
    ['a=b c=d', /expected "," between requirements/],
    ['!', /expected a label key after "!"/],
    ['a>1', /not supported/],
    ['a=b,', /expected a label key, found the end/],
    ['bad key!=x', /expected an operator/],
    ['a=-bad-', /label value/],
  ])('rejects %j with 400 BadRequest', (text, why) => {
    const err = apiError(() => parseLabelSelector(text));
    expect(err).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(err.message).toContain(`label selector "${text}"`);
    expect(err.message).toMatch(why);
  });
});

describe('parseFieldSelector', () => {
  it('parses metadata.name and metadata.namespace with =, == and !=', () => {
    expect(parseFieldSelector('metadata.name=a,metadata.namespace==b,metadata.name!=c')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'metadata.namespace', operator: '=', value: 'b' },
      { field: 'metadata.name', operator: '!=', value: 'c' },
    ]);
    expect(parseFieldSelector('')).toEqual([]);
  });

  it('honours backslash escapes of commas', () => {
    expect(parseFieldSelector('metadata.name=a\\,b')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b' },
    ]);
  });

  it('rejects other fields and malformed requirements with 400', () => {
    expect(apiError(() => parseFieldSelector('status.phase=Running')).message).toMatch(
      /^"status\.phase" is not a known field selector: only "metadata\.name", "metadata\.namespace"$/,
    );
    expect(apiError(() => parseFieldSelector('metadata.name')).code).toBe(400);
  });
});

describe('objectFilter', () => {
  const object = (name: string, namespace: string, labels?: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
  });

  it('requires both selectors', () => {
    const filter = objectFilter({ labelSelector: 'app=x', fieldSelector: 'metadata.namespace=lab' });
    expect(filter(object('a', 'lab', { app: 'x' }))).toBe(true);
    expect(filter(object('a', 'other', { app: 'x' }))).toBe(false);
    expect(filter(object('a', 'lab', { app: 'y' }))).toBe(false);
    expect(filter(object('a', 'lab'))).toBe(false);
  });

  it('lets everything through without selectors', () => {
    expect(objectFilter({})(object('a', 'lab'))).toBe(true);
  });
});
