/**
 * Secret `data` in the test cluster is decoded as a real API server decodes it: every value must be
 * standard, padded base64 (CR and LF are skipped), or the write is refused with 400 BadRequest before
 * anything is stored — on create, replace and patch alike. Without this check the test cluster stored
 * Secrets a real cluster refuses, so a controller bug writing raw text into `data` went unnoticed.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { base64ErrorOffset } from '../src/builtin-resources';
import { createRegistry, createStore } from '../src';

const registry = createRegistry([]);
const secrets = registry.get('', 'v1', 'secrets')!;

function refusal(write: (store: ReturnType<typeof createStore>) => void) {
  const store = createStore({ registry, namespaces: ['lab'] });
  try {
    write(store);
    return undefined;
  } catch (error) {
    const { code, reason, message } = error as { code: number; reason: string; message: string };
    return { code, reason, message };
  } finally {
    store.close();
  }
}

const secret = (data: unknown) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data });
const badRequest = (why: string) => ({
  code: 400,
  reason: 'BadRequest',
  message: `Secret in version "v1" cannot be handled as a Secret: ${why}`,
});

describe('test cluster › Secret data is base64', () => {
  it.each([
    ['raw text', 'not base64!', 'illegal base64 data at input byte 3'],
    ['a missing padding', 'YWJj' + 'ZA', 'illegal base64 data at input byte 4'],
    ['padding in the middle', 'YQ==YQ==', 'illegal base64 data at input byte 4'],
    ['URL-safe characters', 'a-_b', 'illegal base64 data at input byte 1'],
    ['a lone padding character', 'Y===', 'illegal base64 data at input byte 1'],
  ])('refuses %s on create with 400', (_what, value, why) => {
    expect(refusal((s) => s.create(secrets, 'lab', secret({ key: value }) as never))).toEqual(
      badRequest(why),
    );
  });

  it('refuses a value that is not a string', () => {
    expect(refusal((s) => s.create(secrets, 'lab', secret({ key: 42 }) as never))).toEqual(
      badRequest('json: cannot unmarshal number into Go struct field Secret.data of type []uint8'),
    );
  });

  it('refuses invalid data on a patch and keeps the stored Secret', () => {
    const store = createStore({ registry, namespaces: ['lab'] });
    try {
      store.create(secrets, 'lab', secret({ key: 'b2s=' }) as never);
      expect(() => store.patch(secrets, 'lab', 's', 'merge', { data: { key: 'o k' } })).toThrow(
        /illegal base64 data at input byte 1/,
      );
      expect(store.get(secrets, 'lab', 's').data).toEqual({ key: 'b2s=' });
    } finally {
      store.close();
    }
  });

  it('accepts what Buffer encodes, with line breaks, empty values and stringData', () => {
    const store = createStore({ registry, namespaces: ['lab'] });
    try {
      const created = store.create(secrets, 'lab', {
        ...secret({ a: 'YWJj\nZGVm', e: '' }),
        stringData: { b: 'x' },
      } as never);
      expect(created.data).toEqual({ a: 'YWJj\nZGVm', e: '', b: 'eA==' });
    } finally {
      store.close();
    }
  });

  it('agrees with Node on every byte string (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(base64ErrorOffset(Buffer.from(bytes).toString('base64'))).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const valid = /^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text);
        expect(base64ErrorOffset(text) === undefined).toBe(valid);
      }),
    );
  });
});
