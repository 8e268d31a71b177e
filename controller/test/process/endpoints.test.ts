/**
 * The probe and metrics endpoints on ephemeral ports: bind-address parsing in controller-runtime's
 * notation, `/healthz` and `/readyz` answers as checks change, and `/metrics` with the SPEC §3
 * metric set recorded through the typed helpers.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { cachesSyncedCheck, notShuttingDownCheck, startHealthServer } from '../../src/process/health';
import { parseBindAddress, type HttpEndpoint } from '../../src/process/http-server';
import { ControllerMetrics } from '../../src/process/metrics';
import { startMetricsServer } from '../../src/process/metrics-endpoint';
import { PROCESS_GAUGES_NAMED_AS_COUNTERS } from '../../src/process/process-metrics';

let endpoints: (HttpEndpoint | undefined)[] = [];
afterEach(async () => {
  await Promise.all(endpoints.map((e) => e?.close()));
  endpoints = [];
});

async function get(
  url: string,
  accept?: string,
): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url, accept ? { headers: { accept } } : {});
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

describe('bind addresses', () => {
  it('read ":port" as every interface, "host:port" and "[v6]:port" as one, and "0" as disabled', () => {
    expect(parseBindAddress(':8080')).toEqual({ port: 8080 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:8081')).toEqual({ host: '::1', port: 8081 });
    expect(parseBindAddress('localhost:9000')).toEqual({ host: 'localhost', port: 9000 });
    expect(parseBindAddress('0')).toBeUndefined();
    for (const bad of ['8080', ':', ':http', '1.2.3.4:65536', '::1:80']) {
      expect(() => parseBindAddress(bad)).toThrow(`invalid bind address "${bad}"`);
    }
  });
});

describe('health probes', () => {
  it('are live while answering, and ready (else 503 with the reasons) only when synced and not shutting down', async () => {
    let synced = false;
    let shuttingDown = false;
    const server = await startHealthServer({
      bindAddress: '127.0.0.1:0',
      readiness: {
        informers: cachesSyncedCheck(() => synced),
        shutdown: notShuttingDownCheck(() => shuttingDown),
      },
    });
    endpoints.push(server);
    const url = server!.url;
    expect(await get(`${url}/healthz`)).toMatchObject({ status: 200, text: 'ok' });
    expect(await get(`${url}/readyz`)).toMatchObject({
      status: 503,
      text: '[-]informers failed: informer caches are not synced yet\nreadyz check failed\n',
    });
    synced = true;
    expect(await get(`${url}/readyz`)).toMatchObject({ status: 200, text: 'ok' });
    expect((await get(`${url}/readyz?verbose`)).text).toBe(
      '[+]informers ok\n[+]shutdown ok\nreadyz check passed\n',
    );
    shuttingDown = true;
    expect(await get(`${url}/readyz`)).toMatchObject({
      status: 503,
      text: '[-]shutdown failed: shutting down\nreadyz check failed\n',
    });
    expect(await get(`${url}/healthz`)).toMatchObject({ status: 200 });
    expect((await get(`${url}/metrics`)).status).toBe(404);
  });

  it('report a check that throws as failing', async () => {
    const server = await startHealthServer({
      bindAddress: '127.0.0.1:0',
      liveness: {
        loop: () => {
          throw new Error('stuck');
        },
      },
      readiness: {},
    });
    endpoints.push(server);
    expect(await get(`${server!.url}/healthz`)).toMatchObject({
      status: 500,
      text: '[-]loop failed: stuck\nhealthz check failed\n',
    });
  });

  it('are not served at bind address "0"', async () => {
    expect(await startHealthServer({ bindAddress: '0', readiness: {} })).toBeUndefined();
  });
});

describe('metrics', () => {
  const pool = { namespace: 'lab', name: 'pool' };

  it('serve the SPEC §3 set, recorded through the typed helpers', async () => {
    const metrics = new ControllerMetrics();
    let depth = 3;
    metrics.bindQueueDepth(() => depth);
    let leading = true;
    metrics.bindLeader('qemu.jumpstarter.dev', () => leading);
    metrics.setPool(pool, {
      replicas: 5,
      ready: 4,
      available: 2,
      leased: 2,
      starting: 1,
      standby: 0,
      pendingLeases: 1,
    });
    metrics.recordScaleAction(pool, 'up', 'warm-buffer', 2);
    metrics.recordScaleAction(pool, 'down', 'surplus');
    metrics.recordScaleAction(pool, 'down', 'surplus', 0); // nothing happened: not counted
    metrics.observeInstanceStartup(pool, 42);
    metrics.observeLeaseWait(pool, 3);
    metrics.observeReconcile(pool, 0.02, 'success');
    metrics.observeReconcile(pool, 0.5, 'error');

    const server = await startMetricsServer({ bindAddress: '127.0.0.1:0', registry: metrics.registry });
    endpoints.push(server);
    const first = await get(`${server!.url}/metrics`);
    expect(first.status).toBe(200);
    expect(first.type).toBe(metrics.registry.contentType);
    const set = 'namespace="lab",exporterset="pool"';
    for (const line of [
      `jumpstarter_exporterset_replicas{${set}} 5`,
      `jumpstarter_exporterset_ready_replicas{${set}} 4`,
      `jumpstarter_exporterset_available_replicas{${set}} 2`,
      `jumpstarter_exporterset_leased_replicas{${set}} 2`,
      `jumpstarter_exporterset_starting_replicas{${set}} 1`,
      `jumpstarter_exporterset_standby_replicas{${set}} 0`,
      `jumpstarter_exporterset_pending_leases{${set}} 1`,
      `jumpstarter_exporterset_scale_actions_total{${set},direction="up",reason="warm-buffer"} 2`,
      `jumpstarter_exporterset_scale_actions_total{${set},direction="down",reason="surplus"} 1`,
      `jumpstarter_exporterset_instance_startup_seconds_bucket{le="45",${set}} 1`,
      `jumpstarter_exporterset_instance_startup_seconds_bucket{le="30",${set}} 0`,
      `jumpstarter_exporterset_instance_startup_seconds_sum{${set}} 42`,
      `jumpstarter_exporterset_lease_wait_seconds_count{${set}} 1`,
      'jumpstarter_exporterset_reconcile_duration_seconds_count{result="success"} 1',
      'jumpstarter_exporterset_reconcile_duration_seconds_count{result="error"} 1',
      `jumpstarter_exporterset_reconcile_errors_total{${set}} 1`,
      'jumpstarter_exporterset_workqueue_depth 3',
      'jumpstarter_exporterset_leader{provisioner="qemu.jumpstarter.dev"} 1',
    ]) {
      expect(first.text.split('\n')).toContain(line);
    }

    // The queue depth is read at scrape time; a deleted set stops reporting its pool.
    depth = 0;
    leading = false;
    metrics.forgetSet(pool);
    const second = (await get(`${server!.url}/metrics`)).text;
    expect(second).toContain('jumpstarter_exporterset_workqueue_depth 0');
    expect(second).toContain('jumpstarter_exporterset_leader{provisioner="qemu.jumpstarter.dev"} 0');
    expect(second).not.toContain(`jumpstarter_exporterset_replicas{${set}}`);
  });

  it('show the forecast while the set has one, and drop it when it has none', async () => {
    const metrics = new ControllerMetrics();
    const set = 'namespace="lab",exporterset="pool"';
    metrics.setForecast(pool, { expectedPeak: 7, warmBuffer: 5 });
    const lines = (await metrics.render()).split('\n');
    expect(lines).toContain(`jumpstarter_exporterset_forecast_leases{${set}} 7`);
    expect(lines).toContain(`jumpstarter_exporterset_forecast_warm_buffer{${set}} 5`);
    // No forecast (no history yet): neither gauge; mode Off or a deleted set: the same.
    metrics.setForecast(pool, {});
    expect(await metrics.render()).not.toContain(`jumpstarter_exporterset_forecast_leases{${set}}`);
    metrics.setForecast(pool, { expectedPeak: 2, warmBuffer: 2 });
    metrics.forgetSet(pool);
    expect(await metrics.render()).not.toContain(`jumpstarter_exporterset_forecast_warm_buffer{${set}}`);
  });

  it('report the warm buffer in effect (schedules raise it), and forget it with the set', async () => {
    const metrics = new ControllerMetrics();
    metrics.setEffectiveMinAvailable(pool, 6);
    const set = 'namespace="lab",exporterset="pool"';
    expect((await metrics.render()).split('\n')).toContain(
      `jumpstarter_exporterset_effective_min_available_replicas{${set}} 6`,
    );
    metrics.forgetSet(pool);
    expect(await metrics.render()).not.toContain(`effective_min_available_replicas{${set}}`);
  });

  it('keep registries apart, and can add the Node process metrics', async () => {
    const plain = new ControllerMetrics();
    const withProcess = new ControllerMetrics({ processMetrics: true });
    expect(await plain.render()).not.toContain('process_cpu_seconds_total');
    expect(await withProcess.render()).toContain('jumpstarter_exporterset_process_cpu_seconds_total');
    expect(await plain.render()).toContain('jumpstarter_exporterset_workqueue_depth 0');
  });

  it('collect the Node process metrics once per process, however many controllers it starts', async () => {
    // Each collection keeps an event-loop monitor and a GC observer alive for good: one per
    // controller grew a process that restarts controllers (tests, the simulation) without bound.
    const first = new ControllerMetrics({ processMetrics: true });
    const second = new ControllerMetrics({ processMetrics: true });
    const name = 'jumpstarter_exporterset_process_cpu_seconds_total';
    expect(first.registry.getSingleMetric(name)).toBeDefined();
    expect(second.registry.getSingleMetric(name)).toBe(first.registry.getSingleMetric(name));
    expect(second.registry.getSingleMetric('jumpstarter_exporterset_workqueue_depth')).not.toBe(
      first.registry.getSingleMetric('jumpstarter_exporterset_workqueue_depth'),
    );
  });

  it('are all named jumpstarter_exporterset_* (JEP-0013), the process metrics too', async () => {
    const metrics = new ControllerMetrics({ processMetrics: true });
    metrics.setPool(pool, {
      replicas: 1,
      ready: 1,
      available: 1,
      leased: 0,
      starting: 0,
      standby: 0,
      pendingLeases: 0,
    });
    const names = (await metrics.render())
      .split('\n')
      .filter((line) => line.startsWith('# TYPE '))
      .map((line) => line.split(' ')[2]);
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !name.startsWith('jumpstarter_exporterset_'))).toEqual([]);
  });

  it('name only counters *_total (promtool check metrics), the process metrics too', async () => {
    const text = await new ControllerMetrics({ processMetrics: true }).render();
    const types = text
      .split('\n')
      .filter((line) => line.startsWith('# TYPE '))
      .map((line) => line.split(' ').slice(2));
    expect(types.filter(([name, type]) => name!.endsWith('_total') && type !== 'counter')).toEqual([]);
    expect(types.filter(([, type]) => type === 'counter').length).toBeGreaterThan(3);
    // The per-type gauges whose sum the dropped totals were are still there.
    for (const name of PROCESS_GAUGES_NAMED_AS_COUNTERS) {
      expect(text).toContain(`# TYPE ${name.replace(/_total$/, '')} gauge`);
    }
  });

  it('serve OpenMetrics with the lease exemplars when asked, and Prometheus text to a plain scrape', async () => {
    const metrics = new ControllerMetrics({ processMetrics: true });
    metrics.observeServedLease(pool, { lease: 'lease-cold', warm: false, waitSeconds: 42 });
    metrics.observeServedLease(pool, { lease: 'lease-warm', warm: true });
    metrics.recordScaleAction(pool, 'up', 'demand');
    metrics.observeLeaseWait(pool, 1, 'x'.repeat(300)); // an exemplar longer than OpenMetrics allows is cut
    const server = await startMetricsServer({ bindAddress: '127.0.0.1:0', registry: metrics.registry });
    endpoints.push(server);
    const url = `${server!.url}/metrics`;
    const set = 'namespace="lab",exporterset="pool"';

    // Prometheus asks for OpenMetrics first, text as the fallback.
    const open = await get(
      url,
      'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2',
    );
    expect(open.type).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    expect(open.text).toMatch(
      new RegExp(
        `^jumpstarter_exporterset_lease_wait_seconds_bucket\\{le="60",${set}\\} 2 # \\{lease="lease-cold"\\} 42 \\d`,
        'm',
      ),
    );
    expect(open.text).toContain(`# {lease="${'x'.repeat(123)}"} 1 `);
    expect(open.text).toContain(`jumpstarter_exporterset_leases_served_total{${set},start="cold"} 1`);
    expect(open.text).toContain('# TYPE jumpstarter_exporterset_leases_served counter');
    expect(open.text.trimEnd().endsWith('# EOF')).toBe(true);

    // A plain scrape, after an OpenMetrics one: text, no exemplars, every counter still named *_total.
    for (const accept of [undefined, 'text/plain', 'application/openmetrics-text;q=0']) {
      const plain = await get(url, accept);
      expect(plain.type).toBe(metrics.registry.contentType);
      expect(plain.text).not.toContain('# {lease=');
      expect(plain.text).not.toContain('# EOF');
      for (const line of [
        `jumpstarter_exporterset_leases_served_total{${set},start="warm"} 1`,
        `jumpstarter_exporterset_leases_served_total{${set},start="cold"} 1`,
        `jumpstarter_exporterset_scale_actions_total{${set},direction="up",reason="demand"} 1`,
        `jumpstarter_exporterset_lease_wait_seconds_count{${set}} 2`,
        '# TYPE jumpstarter_exporterset_process_cpu_seconds_total counter',
      ]) {
        expect(plain.text.split('\n')).toContain(line);
      }
    }
    expect(await metrics.render()).toContain('# TYPE jumpstarter_exporterset_leases_served_total counter');
  });

  it('render concurrent OpenMetrics and text scrapes without mixing up counter names', async () => {
    const metrics = new ControllerMetrics();
    metrics.observeServedLease(pool, { lease: 'l', warm: true });
    const renders = await Promise.all(Array.from({ length: 10 }, (_, i) => metrics.render(i % 2 === 0)));
    renders.forEach((text, i) => {
      if (i % 2 === 0) expect(text).toContain('# TYPE jumpstarter_exporterset_leases_served counter');
      else expect(text).toContain('# TYPE jumpstarter_exporterset_leases_served_total counter');
    });
  });
});
