/**
 * One short lab run, end to end and in-process (no build needed): the example app on the test
 * cluster, the controller's manager, a CI burst at 20× — about 5 s of wall time. It checks what the
 * run reports is consistent with itself and with the cluster, never how fast anything was.
 */
import { describe, expect, it } from '@jest/globals';
import { buildGitopsApp } from '../../../examples/gitops/app';
import { renderChart } from '../../src/lab/chart';
import { runLab, type LabReport, type LabSample } from '../../src/lab/lab';
import { chartInput, summaryLines } from '../../src/lab/report';
import type { KubeObject } from 'virtual-exporters-test-cluster';
import { describeWithSshd } from '../../../test/support/sshd-host';
import { findAll, parseXml } from './xml';

const objects = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];

describe('runLab', () => {
  it('serves a CI burst on the example pools and reports it consistently', async () => {
    const seen: LabSample[] = [];
    const settings = { profile: 'burst', seed: 3, speedUp: 20 } as const;
    const report: LabReport = await runLab({
      objects,
      ...settings,
      durationMs: 3000,
      bootDelayMs: 10_000, // 0.5 s of wall time at 20×
      sampleIntervalMs: 200,
      warmupTimeoutMs: 20_000,
      controller: { kind: 'in-process' },
      offCluster: false,
      onSample: (sample) => seen.push(sample),
    });

    expect(report.errors).toEqual([]);
    expect(report.controllerExitCode).toBe(0);
    expect(report.pools.map((p) => p.name)).toEqual(['rpi4-virtual', 'x86-64-ci']);
    expect(report.ignoredPools.map((p) => p.name)).toEqual(['pixel7-emulator', 'qcom-sa8295-hifi']);

    // The warm buffers were full when the load started.
    const firstLoad = report.samples.findIndex((s) => s.phase === 'load');
    expect(firstLoad).toBeGreaterThan(0);
    const warm = report.samples[firstLoad - 1];
    report.pools.forEach((pool, i) =>
      expect(warm.rows[i].available).toBeGreaterThanOrEqual(pool.minAvailableReplicas),
    );

    // Every planned lease was created (the burst starts 0.75 s in); each is accounted for once.
    const { leases, waitMs, instances, requests } = report.summary;
    expect(leases.created).toBe(report.plannedLeases);
    expect(leases.created).toBeGreaterThan(0);
    expect(leases.served).toBeGreaterThan(0);
    expect(leases.served + leases.unserved + leases.pendingAtEnd).toBe(leases.created);
    expect(leases.unserved).toBe(0); // every lease selects a pool that has instances
    expect(report.perPool.reduce((sum, p) => sum + p.served, 0)).toBe(leases.served);
    expect(waitMs?.count).toBe(leases.served);
    expect(waitMs!.p50).toBeLessThanOrEqual(waitMs!.p95);
    expect(waitMs!.p95).toBeLessThanOrEqual(waitMs!.p99);
    expect(waitMs!.p99).toBeLessThanOrEqual(waitMs!.max);

    // The pools grew for the burst: more instances than the warm buffers, none beyond the ceilings.
    const warmBuffers = report.pools.reduce((sum, p) => sum + p.minAvailableReplicas, 0);
    expect(instances.created).toBeGreaterThan(warmBuffers);
    const peak = (i: number) => Math.max(...report.samples.map((s) => s.rows[i].replicas));
    report.pools.forEach((pool, i) => expect(peak(i)).toBeLessThanOrEqual(pool.maxReplicas));
    expect(requests.byVerb.create).toBeGreaterThanOrEqual(instances.created);
    expect(requests.writes).toBeLessThanOrEqual(requests.total);
    expect(report.writesDuringLoad).toBeGreaterThan(0);
    expect(report.writesDuringLoad).toBeLessThanOrEqual(requests.writes);

    // The live view saw every sample; the samples are in time order.
    expect(seen).toEqual(report.samples);
    const times = report.samples.map((s) => s.elapsedMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // What the user reads is built from the same report.
    const text = summaryLines(report, settings).join('\n');
    expect(text).toContain(`${leases.created} created`);
    expect(text).toContain(`${leases.served} served`);
    // ... and says which pools get no instances, and why.
    expect(text).toContain(
      'pool pixel7-emulator: provisioner android.jumpstarter.dev is not run by the lab; no instances will be created',
    );
    expect(text).toContain(
      'pool qcom-sa8295-hifi: provisioner qemu-baremetal.jumpstarter.dev is served on local sshd hosts, and the lab was told not to start sshd hosts; no instances will be created',
    );
    const svg = parseXml(renderChart(chartInput(report, settings)));
    const panels = findAll(svg, (e) => e.name === 'g' && e.attributes.class === 'panel');
    expect(panels).toHaveLength(2);
    const pending = findAll(panels[0], (e) => e.attributes.class === 'series pending')[0];
    expect(pending.attributes.points.split(' ')).toHaveLength(2 * report.samples.length - 1);
  });

  it('plays a workday: the pools get its schedules and forecast before the day, which starts on the alignment', async () => {
    const settings = { profile: 'workday', seed: 5, speedUp: 20 } as const;
    const logged: string[] = [];
    const report = await runLab({
      objects,
      ...settings,
      durationMs: 3000,
      bootDelayMs: 10_000,
      sampleIntervalMs: 200,
      warmupTimeoutMs: 20_000,
      controller: { kind: 'in-process' },
      offCluster: false,
      dayAlignMs: 500,
      log: (m) => logged.push(m),
    });
    expect(report.errors).toEqual([]);
    expect(report.controllerExitCode).toBe(0);
    expect(Object.keys(report.planning ?? {})).toEqual(['rpi4-virtual', 'x86-64-ci']);
    for (const planning of Object.values(report.planning!)) {
      expect(planning.schedules!.map((s) => s.name)).toEqual(['nightly', 'working-hours']);
      expect(planning.forecast).toEqual({ mode: 'ForecastOnly' });
    }
    // The day is the load phase: it starts after the warm-up, and the load samples lie within it.
    expect(report.day!.lengthMs).toBe(3000);
    expect(report.day!.startMs).toBe(report.warmupMs);
    expect(
      logged.some((m) =>
        /^workday: the day starts at .* and lasts 3 s; schedules and forecast applied to 2 sets$/.test(m),
      ),
    ).toBe(true);
    expect(report.summary.leases.created).toBe(report.plannedLeases);
    expect(report.plannedLeases).toBeGreaterThan(0);

    const text = summaryLines(report, settings).join('\n');
    expect(text).toContain('workday planning (spec.schedules, spec.forecast):');
    expect(text).toMatch(
      /rpi4-virtual: nightly \(cron "\d+ \d+ \d+ \d+ \*" UTC, [^)]+, minAvailableReplicas 16\)/,
    );
    const input = chartInput(report, settings);
    expect(input.day).toEqual(report.day);
    expect(input.markerMs).toBe(report.day!.startMs);
    const svg = parseXml(renderChart(input));
    expect(findAll(svg, (e) => e.attributes.class === 'hour').length).toBeGreaterThan(0);
  });
});

describeWithSshd('runLab › off-cluster pools', () => {
  it('serves the SA8295 pool over SSH on local sshd hosts beside the in-cluster pools', async () => {
    const report = await runLab({
      objects,
      profile: 'burst',
      seed: 5,
      speedUp: 20,
      durationMs: 4000,
      bootDelayMs: 10_000,
      sampleIntervalMs: 200,
      warmupTimeoutMs: 30_000,
      controller: { kind: 'in-process' },
    });

    expect(report.errors).toEqual([]);
    expect(report.controllerExitCode).toBe(0);
    expect(report.pools.map((p) => p.name)).toEqual(['rpi4-virtual', 'x86-64-ci', 'qcom-sa8295-hifi']);
    expect(report.ignoredPools.map((p) => p.name)).toEqual(['pixel7-emulator']);
    // The example lists two hosts; each became an sshd on loopback.
    const hosts = report.offCluster && 'hosts' in report.offCluster ? report.offCluster.hosts : [];
    expect(hosts.map((h) => h.name)).toEqual(['127.0.0.1', '127.0.0.2']);

    // The off-cluster pool had its warm buffer before the load and served leases of the burst.
    const firstLoad = report.samples.findIndex((s) => s.phase === 'load');
    expect(report.samples[firstLoad - 1].rows[2].available).toBeGreaterThanOrEqual(1);
    const sa8295 = report.perPool.find((p) => p.pool === 'qcom-sa8295-hifi')!;
    expect(sa8295.leases).toBeGreaterThan(0);
    expect(sa8295.served).toBeGreaterThan(0);
    // Never beyond its ceiling (maxReplicas 4; two hosts of two slots each).
    expect(Math.max(...report.samples.map((s) => s.rows[2].replicas))).toBeLessThanOrEqual(4);

    const text = summaryLines(report, { profile: 'burst', seed: 5, speedUp: 20 }).join('\n');
    expect(text).toContain(
      `off-cluster pools qcom-sa8295-hifi served over SSH on 2 sshd hosts on loopback (${hosts
        .map((h) => `${h.name}:${h.port}`)
        .join(', ')}); systemctl and podman there are stand-ins`,
    );
    expect(text).not.toContain('pool qcom-sa8295-hifi: provisioner');
  });
});
