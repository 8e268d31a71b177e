import { describe, expect, it } from '@jest/globals';
import { applyJsonPatch, applyMergePatch, applyPatch } from '../src/patch';
import { apiError } from './store-support';

describe('JSON merge patch (RFC 7386)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j (the RFC examples)', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('leaves the target unchanged', () => {
    const target = { a: { b: 1 } };
    applyPatch('merge', target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });

  it('refuses a patch that is not an object with 400', () => {
    expect(apiError(() => applyPatch('merge', {}, [1])).code).toBe(400);
  });
});

describe('JSON patch (RFC 6902)', () => {
  const doc = { spec: { list: ['a', 'b'], n: 1 }, metadata: { labels: { 'x/y': 'z' } } };

  it('adds, removes, replaces, moves, copies and tests', () => {
    const result = applyJsonPatch(doc, [
      { op: 'add', path: '/spec/list/1', value: 'inserted' },
      { op: 'add', path: '/spec/list/-', value: 'last' },
      { op: 'remove', path: '/spec/list/0' },
      { op: 'replace', path: '/spec/n', value: 2 },
      { op: 'copy', from: '/spec/n', path: '/spec/m' },
      { op: 'move', from: '/metadata/labels/x~1y', path: '/metadata/labels/moved' },
      { op: 'test', path: '/spec/list', value: ['inserted', 'b', 'last'] },
    ]);
    expect(result).toEqual({
      spec: { list: ['inserted', 'b', 'last'], n: 2, m: 2 },
      metadata: { labels: { moved: 'z' } },
    });
    expect(doc.spec.list).toEqual(['a', 'b']);
  });

  it('fails a whole patch with 422 Invalid when a test fails, saying which', () => {
    const err = apiError(() =>
      applyJsonPatch(doc, [
        { op: 'replace', path: '/spec/n', value: 5 },
        { op: 'test', path: '/spec/n', value: 1 },
      ]),
    );
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(err.message).toContain('test operation failed: the value at "/spec/n" is not 1');
  });

  it.each([
    [{ op: 'remove', path: '/spec/missing' }],
    [{ op: 'replace', path: '/nope/x', value: 1 }],
    [{ op: 'add', path: '/spec/list/5', value: 1 }],
    [{ op: 'move', from: '/spec', path: '/spec/inner' }],
    [{ op: 'add', path: 'spec', value: 1 }],
    [{ op: 'replace', path: '/spec/list/2', value: 1 }],
    [{ op: 'test', path: '/nope/x', value: null }],
    [{ op: 'jump', path: '/a' }],
    [{ op: 'copy', path: '/a' }],
    [{ path: '/a', value: 1 }],
  ])('answers 422 for an operation that cannot apply: %j', (operation) => {
    expect(apiError(() => applyJsonPatch(doc, [operation])).code).toBe(422);
  });

  it("applies kube-apiserver's laxer rules where RFC 6902 would refuse", () => {
    const result = applyJsonPatch(doc, [
      { op: 'replace', path: '/spec/added', value: 'by replace' },
      { op: 'test', path: '/spec/missing', value: null },
      { op: 'copy', from: '/spec/missing', path: '/spec/copied' },
      { op: 'add', path: '/spec/valueless' },
      { op: 'add', path: 'ignored/first', value: 'segment' },
    ]);
    expect(result).toEqual({
      ...doc,
      spec: { ...doc.spec, added: 'by replace', copied: null, valueless: null },
      first: 'segment',
    });
    expect(apiError(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/missing', value: 1 }])).code).toBe(
      422,
    );
  });

  it('answers 400 when the patch is not a list', () => {
    expect(apiError(() => applyPatch('json', doc, { op: 'add' })).code).toBe(400);
  });
});

describe('strategic merge patch', () => {
  it('applies as a merge patch, replacing lists', () => {
    expect(applyPatch('strategic', { spec: { list: [1, 2], keep: true } }, { spec: { list: [3] } })).toEqual({
      spec: { list: [3], keep: true },
    });
  });

  it('refuses strategic directives rather than storing them as fields', () => {
    const err = apiError(() =>
      applyPatch('strategic', {}, { spec: { list: [{ $patch: 'delete', name: 'x' }] } }),
    );
    expect(err.code).toBe(400);
    expect(err.message).toContain('"$patch"');
  });
});

describe('applyPatch', () => {
  it('parses a JSON string body and answers 400 for invalid JSON', () => {
    expect(applyPatch('merge', { a: 1 }, '{"b":2}')).toEqual({ a: 1, b: 2 });
    expect(apiError(() => applyPatch('merge', {}, '{')).code).toBe(400);
  });
});
