/**
 * Without the real binaries the real cluster says what is missing and how to build it, and the
 * backend switch refuses a value it does not know (these run in `npm test`, which needs no Go).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { kubeBinariesMissing, selectedBackend, startKubeCluster } from '../src';

describe('real cluster › missing binaries', () => {
  it('names the folder, each missing binary and the command that builds them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-bin-'));
    writeFileSync(join(dir, 'etcd'), '#!/bin/sh\n', { mode: 0o755 });
    const message = kubeBinariesMissing(dir);
    expect(message).toContain(dir);
    expect(message).toContain('kube-apiserver, kube-controller-manager, kubectl missing');
    expect(message).not.toContain('etcd,');
    expect(message).toContain('npm run kube:binaries');
  });

  it('fails start with that sentence before starting anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-bin-'));
    await expect(startKubeCluster({ binDir: dir })).rejects.toThrow(/not built: etcd, kube-apiserver/);
  });
});

describe('backend switch', () => {
  it('defaults to the test cluster and takes kube', () => {
    expect(selectedBackend({})).toBe('test');
    expect(selectedBackend({ VIRTUAL_EXPORTERS_BACKEND: 'kube' })).toBe('kube');
  });

  it('refuses an unknown backend by name', () => {
    expect(() => selectedBackend({ VIRTUAL_EXPORTERS_BACKEND: 'kind' })).toThrow(
      'VIRTUAL_EXPORTERS_BACKEND=kind is not a backend: use "test" (default) or "kube"',
    );
  });
});
