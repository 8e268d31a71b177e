/**
 * The lab on the real Kubernetes (`--backend kube`; `npm run test:kube`): kube-apiserver, etcd and
 * kube-controller-manager from the built binaries, the simulators as its clients, the example pools
 * applied through the API, the controller's manager in this process (the child process is what
 * `npm run lab -- --backend kube` runs), and a short CI burst. It checks the run completed cleanly,
 * served leases, and counted the controller's requests from the audit log — never how fast.
 */
import { describe, expect, it } from '@jest/globals';
import { buildGitopsApp } from '../../../examples/gitops/app';
import { runLab } from '../../src/lab/lab';
import { summaryLines } from '../../src/lab/report';
import type { KubeObject } from 'virtual-exporters-test-cluster';

const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];

describe('runLab › on the real Kubernetes', () => {
  it('serves a CI burst on the example pools and counts the controller’s requests from the audit log', async () => {
    const settings = { profile: 'burst', seed: 3, speedUp: 20 } as const;
    const logged: string[] = [];
    const report = await runLab({
      objects,
      ...settings,
      backend: 'kube',
      durationMs: 4000,
      bootDelayMs: 10_000, // 0.5 s of wall time at 20×
      sampleIntervalMs: 250,
      warmupTimeoutMs: 90_000,
      controller: { kind: 'in-process' },
      offCluster: false,
      log: (message) => logged.push(message),
    });

    expect(report.errors).toEqual([]);
    expect(report.controllerExitCode).toBe(0);
    expect(report.backend).toBe('kube');
    expect(report.cluster).toMatch(/^kube-apiserver v1\.\d+\.\d+ at https:\/\/127\.0\.0\.1:\d+ /);
    expect(logged[0]).toBe(report.cluster);
    expect(report.pools.map((p) => p.name)).toEqual(['rpi4-virtual', 'x86-64-ci']);

    // The warm buffers (read from the ExporterSet informers) were full when the load started.
    const firstLoad = report.samples.findIndex((s) => s.phase === 'load');
    expect(firstLoad).toBeGreaterThan(0);
    report.pools.forEach((pool, i) =>
      expect(report.samples[firstLoad - 1].rows[i].available).toBeGreaterThanOrEqual(
        pool.minAvailableReplicas,
      ),
    );

    // Every planned lease was created through the server and accounted for once; leases were served.
    const { leases, waitMs, instances, requests } = report.summary;
    expect(leases.created).toBe(report.plannedLeases);
    expect(leases.served).toBeGreaterThan(0);
    expect(leases.unserved).toBe(0);
    expect(leases.served + leases.unserved + leases.pendingAtEnd).toBe(leases.created);
    expect(waitMs?.count).toBe(leases.served);
    const warmBuffers = report.pools.reduce((sum, p) => sum + p.minAvailableReplicas, 0);
    expect(instances.created).toBeGreaterThan(warmBuffers);
    report.pools.forEach((pool, i) =>
      expect(Math.max(...report.samples.map((s) => s.rows[i].replicas))).toBeLessThanOrEqual(
        pool.maxReplicas,
      ),
    );

    // The audit log holds the controller's requests: it listed, created every instance, wrote during the load.
    expect(requests.byVerb.list).toBeGreaterThan(0);
    expect(requests.byVerb.create).toBeGreaterThanOrEqual(instances.created);
    expect(report.writesDuringLoad).toBeGreaterThan(0);
    expect(report.writesDuringLoad).toBeLessThanOrEqual(requests.writes);

    const text = summaryLines(report, settings).join('\n');
    expect(text).toContain(`  cluster:    ${report.cluster}`);
    expect(text).toContain(`${leases.served} served`);
  }, 300_000);
});
