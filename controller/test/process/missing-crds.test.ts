/**
 * The controller on a cluster where CRDs it watches are not installed (the test cluster started with
 * only some CRDs, the rest applied later): `/readyz` answers 503 naming what is missing and how to
 * install it, one error-level log line per missing resource says the same, no worker starts — and
 * once the CRDs are applied the controller recovers by itself: ready, workers started, sets reconciled.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { jumpstarterCrds, ourCrds } from 'virtual-exporters/internal';
import { startManager, type Manager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import { startTestCluster, type TestCluster } from 'virtual-exporters-test-cluster';
import { controllerOptions, createClass, createSet, getSet, NS, until } from '../scenarios/support';

let cluster: TestCluster | undefined;
let manager: Manager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.stop();
  manager = undefined;
  cluster = undefined;
});

async function start(crds: typeof ourCrds) {
  cluster = await startTestCluster({ namespaces: [NS], speedUp: 20, crds });
  const lines: string[] = [];
  manager = await startManager(controllerOptions({ healthProbeBindAddress: '127.0.0.1:0' }), {
    kubeConfig: cluster.kubeConfigFor('controller', NS),
    clock: cluster.clock,
    logger: createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } }),
  });
  const records = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  const readyz = async () => {
    const response = await fetch(`${manager!.healthEndpoint!.url}/readyz`);
    return { status: response.status, text: await response.text() };
  };
  return { cluster, manager, records, readyz };
}

/** Polls an async `check` (wall clock) until it returns a value other than undefined/false. */
async function eventually<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('missing CRDs', () => {
  it("fail /readyz and log an error naming Jumpstarter's Exporter and Lease, then recover once they are installed", async () => {
    const { cluster, manager, records, readyz } = await start(ourCrds);
    createClass(cluster);
    createSet(cluster, 'pool', { minReplicas: 1, maxReplicas: 2 });

    // Both Jumpstarter resources fail their lists; readiness says which and how to install them.
    const unready = await eventually('both resources reported', async () => {
      const answer = await readyz();
      return answer.text.includes('exporters.jumpstarter.dev') &&
        answer.text.includes('leases.jumpstarter.dev')
        ? answer
        : undefined;
    });
    expect(unready.status).toBe(503);
    const reason = unready.text;
    expect(reason).toContain(
      '[-]resources failed: the API server does not serve exporters.jumpstarter.dev/v1alpha1 (its CustomResourceDefinition is not installed): ' +
        "Jumpstarter's CRDs come with the Jumpstarter installation: install Jumpstarter in this cluster",
    );
    expect(reason).toContain('the API server does not serve leases.jumpstarter.dev/v1alpha1');
    expect(reason).toContain('[-]informers failed: informer caches are not synced yet');

    // Let the informers retry a few times: still one error line per resource, the retries at debug.
    await until('retries', () => records().filter((r) => r.msg?.includes('is still not served')).length >= 4);
    const errors = records().filter((r) => r.level === 'error');
    expect(errors.map((r) => r.resource).sort()).toEqual(['exporters', 'leases']);
    expect(errors.find((r) => r.resource === 'exporters')).toMatchObject({
      group: 'jumpstarter.dev',
      version: 'v1alpha1',
      msg: expect.stringMatching(
        /^the API server does not serve exporters\.jumpstarter\.dev\/v1alpha1 \(its CustomResourceDefinition is not installed\): Jumpstarter's CRDs come with the Jumpstarter installation.*; retrying until it is installed$/,
      ),
    });
    expect(records().some((r) => r.level === 'warn' && r.msg === 'informer error')).toBe(false);
    expect(manager.isLeader()).toBe(false); // no worker started
    expect(getSet(cluster, 'pool')?.status).toBeUndefined();

    // Applying the CRDs is enough: no restart.
    cluster.installCrds(jumpstarterCrds);
    await eventually('ready', async () => (await readyz()).status === 200);
    await until('the set reconciled', () => getSet(cluster, 'pool')?.status?.observedGeneration === 1);
    expect(manager.isLeader()).toBe(true);
    const served = records().filter((r) => r.msg?.endsWith('is served now'));
    expect(served.map((r) => r.msg).sort()).toEqual([
      'exporters.jumpstarter.dev/v1alpha1 is served now',
      'leases.jumpstarter.dev/v1alpha1 is served now',
    ]);
  });

  it('name our own ExporterSet, VirtualTargetClass and ExporterOperation with the installer as the fix', async () => {
    const { cluster, records, readyz } = await start(jumpstarterCrds);
    const answer = await eventually('both resources reported', async () => {
      const current = await readyz();
      return current.text.includes('exportersets.') &&
        current.text.includes('virtualtargetclasses.') &&
        current.text.includes('exporteroperations.')
        ? current
        : undefined;
    });
    expect(answer.status).toBe(503);
    expect(answer.text).toContain(
      'the API server does not serve exportersets.virtualtarget.jumpstarter.dev/v1alpha1 (its CustomResourceDefinition is not installed): ' +
        'the ExporterSet, VirtualTargetClass and ExporterOperation CRDs come with the ExporterSetController installer',
    );
    expect(
      records()
        .filter((r) => r.level === 'error')
        .map((r) => `${r.resource}.${r.group}/${r.version}`)
        .sort(),
    ).toEqual([
      'exporteroperations.virtualtarget.jumpstarter.dev/v1alpha1',
      'exportersets.virtualtarget.jumpstarter.dev/v1alpha1',
      'virtualtargetclasses.virtualtarget.jumpstarter.dev/v1alpha1',
    ]);

    cluster.installCrds(ourCrds);
    await eventually('ready', async () => (await readyz()).status === 200);
  });
});
