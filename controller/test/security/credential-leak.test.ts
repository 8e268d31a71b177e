/**
 * No credential leaks (issue 7, SPEC §4): an exporter token appears only in its own credential Secret
 * and in its instance's config Secret, and a class credential only in its own Secret — nowhere else
 * in the cluster (set status, Events, Exporters, Pods' env and args, ConfigMaps, Leases...), in the
 * controller's logs (at trace level) or in its metrics.
 *
 * One short run of the real controller goes through everything that handles tokens: instances
 * rendered, a lease served and recycled, a token rotated by Jumpstarter, a token replaced by an
 * opaque (non-JWT) value that the logger's JWT pattern cannot recognise, config Secret patches that
 * fail (error paths log), a crashed Pod replaced, and a controller restart. Every token ever issued
 * is collected from a watch on Secrets, then searched for raw, base64-encoded, and by its signature
 * alone (a truncated print would still show that).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { Labels, type ExporterConfig } from 'virtual-exporters/internal';
import { startManager, type Manager } from '../../src/manager';
import { createLogger } from '../../src/process/logger';
import { startTestCluster, type KubeObject, type TestCluster } from 'virtual-exporters-test-cluster';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  controllerOptions,
  createClass,
  createSet,
  getSet,
  instancesOf,
  until,
} from '../scenarios/support';

const CLASS_CREDENTIAL = 'class-api-key-5d1f0c2e9a7b4c3d8e6f';
const CLASS_PASSWORD = 'hunter2-correct-horse-battery';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

/** What gives a secret value away: the value, its base64 form and, for a JWT, its signature. */
function needles(secret: string): string[] {
  const parts = secret.split('.');
  return [secret, b64(secret), ...(parts.length === 3 ? [parts[2], parts[2].slice(0, 24)] : [])];
}

const found = (haystack: string, secret: string) => needles(secret).some((n) => haystack.includes(n));

/** The text of an object as a reader sees it, Secret values decoded. */
function textOf(object: KubeObject): string {
  const data = (object.data ?? {}) as Record<string, string>;
  const decoded = object.kind === 'Secret' ? Object.values(data).map(unb64) : [];
  return [JSON.stringify(object), ...decoded].join('\n');
}

let cluster: TestCluster | undefined;
let manager: Manager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.stop();
  cluster = manager = undefined;
});

describe('credentials', () => {
  it('appear only in their own Secret and the config Secret, never in status, events, logs or metrics', async () => {
    cluster = await startTestCluster({ namespaces: [NS], speedUp: 20, jumpstarter: true, kubelet: true });
    const c = cluster;
    const lines: string[] = [];
    const logger = createLogger({
      level: 'trace',
      destination: { write: (line: string) => void lines.push(line) },
    });
    const launch = () =>
      startManager(controllerOptions({ logLevel: 'trace' }), {
        kubeConfig: c.kubeConfigFor(CONTROLLER, NS),
        clock: c.clock,
        logger,
      });
    const secrets = c.registry.get('', 'v1', 'secrets')!;

    // Every token any credential Secret ever held, by exporter.
    const tokens = new Map<string, Set<string>>();
    const watch = c.store.watch(secrets, NS, {}, (event) => {
      const name = event.object.metadata.name ?? '';
      const token = (event.object.data as Record<string, string> | undefined)?.token;
      if (!name.endsWith('-exporter') || token === undefined) return;
      const exporter = name.slice(0, -'-exporter'.length);
      tokens.set(exporter, (tokens.get(exporter) ?? new Set()).add(unb64(token)));
    });
    c.onStop(() => watch.stop());

    c.store.create(secrets, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'lab-creds' },
      data: { API_KEY: b64(CLASS_CREDENTIAL), PASSWORD: b64(CLASS_PASSWORD) },
    });
    createClass(c, 'qemu', { credentialsSecretRef: { name: 'lab-creds' } });
    createSet(c, 'pool', { minAvailableReplicas: 2, scaleDownCooldown: '1h' });
    manager = await launch();
    const status = () => getSet(c, 'pool')?.status;
    await until('the warm pool', () => status()?.availableReplicas === 2);

    // A lease served and released: the instance exits and is replaced.
    const leases = c.jumpstarter!.leases;
    leases.create({
      namespace: NS,
      name: 'leak-1',
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    const served = await leases.waitFor(NS, 'leak-1', (l) => Boolean(l.status?.exporterRef?.name), 20_000);
    leases.release(NS, 'leak-1');
    const leased = served.status!.exporterRef!.name;
    await until('the recycle', () => !instancesOf(c, 'pool').some((e) => e.metadata?.name === leased));
    await until('the pool refilled', () => status()?.availableReplicas === 2);

    const configToken = (exporter: string): string | undefined => {
      try {
        const config = c.store.get(secrets, NS, `exporter-config-${exporter}`);
        const yaml = unb64((config.data as Record<string, string>)['config.yaml']);
        return (parse(yaml, { version: '1.1' }) as ExporterConfig).token;
      } catch {
        return undefined;
      }
    };

    const resync = (exporter: string, token: string) =>
      until('the new token in the config', () => configToken(exporter) === token);

    // Jumpstarter rotates a token, and the first config patches fail (logged error paths).
    const [first, second] = instancesOf(c, 'pool').map((e) => e.metadata!.name!);
    c.faults.add({
      kind: 'error',
      code: 500,
      verb: 'patch',
      resource: 'secrets',
      identity: CONTROLLER,
      times: 2,
    });
    const rotated = c.jumpstarter!.rotateToken(NS, first);
    await resync(first, rotated);

    // An opaque, non-JWT token: only key- and shape-based redaction can keep it out of the logs.
    const opaque = `opaque-${'9f3ac1e7b2d54680'.repeat(3)}`;
    c.store.patch(secrets, NS, `${second}-exporter`, 'merge', { data: { token: b64(opaque) } });
    await resync(second, opaque);

    // A crashed Pod is replaced, then the controller restarts.
    c.kubelet!.crash(NS, first, 'simulated crash');
    await until(
      'the crashed instance replaced',
      () => !instancesOf(c, 'pool').some((e) => e.metadata?.name === first),
    );
    await until('the pool refilled after the crash', () => status()?.availableReplicas === 2);
    await manager.stop();
    manager = await launch();
    await until(
      'the restarted controller working',
      () => lines.filter((l) => l.includes('"msg":"starting workers"')).length === 2,
    );
    await until('the restarted controller settled', () => status()?.availableReplicas === 2);
    await c.settle();

    const metrics = await manager.metrics.render();
    const logs = lines.join('');
    const issued = [...tokens].flatMap(([exporter, values]) =>
      [...values].map((token) => ({ exporter, token })),
    );
    expect(issued.map((t) => t.token)).toEqual(expect.arrayContaining([rotated, opaque]));
    expect(new Set(issued.map((t) => t.exporter)).size).toBeGreaterThanOrEqual(4);
    // The scan saw both processes' lines, and the error paths (failed patches) among them.
    expect(logs.match(/"msg":"starting workers"/g)?.length).toBe(2);
    expect(logs).toContain('"msg":"reconcile failed"');

    // Where each secret may be, and a check that the search finds it there.
    const allowed = (object: KubeObject, exporter: string | undefined) =>
      object.kind === 'Secret' &&
      (exporter === undefined
        ? object.metadata.name === 'lab-creds'
        : object.metadata.name === `${exporter}-exporter` ||
          object.metadata.name === `exporter-config-${exporter}`);
    const everything = c.registry.all().flatMap((rt) => c.store.list(rt, undefined).items);
    const configOf = (exporter: string) =>
      everything.find((o) => o.metadata.name === `exporter-config-${exporter}`);
    expect(found(textOf(configOf(second)!), opaque)).toBe(true);

    const leaks: string[] = [];
    const secretsToFind = [
      ...issued,
      { exporter: undefined, token: CLASS_CREDENTIAL },
      { exporter: undefined, token: CLASS_PASSWORD },
    ];
    for (const { exporter, token } of secretsToFind) {
      const what = exporter ? `the token of ${exporter}` : 'a class credential';
      for (const object of everything) {
        if (!allowed(object, exporter) && found(textOf(object), token)) {
          leaks.push(`${what} in ${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`);
        }
      }
      if (found(logs, token)) leaks.push(`${what} in the controller's logs`);
      if (found(metrics, token)) leaks.push(`${what} in the controller's metrics`);
    }
    expect(leaks).toEqual([]);

    // Each config Secret holds its own instance's current token, no one else's.
    for (const exporter of instancesOf(c, 'pool').map((e) => e.metadata!.name!)) {
      expect(configToken(exporter)).toBe(c.jumpstarter!.token(NS, exporter));
    }
    // Pods reference the class credentials by name only.
    const pods = everything.filter(
      (o) => o.kind === 'Pod' && o.metadata.labels?.[Labels.exporterSetName] === 'pool',
    );
    expect(pods.length).toBeGreaterThan(0);
    for (const pod of pods) expect(JSON.stringify(pod)).toContain('"secretRef":{"name":"lab-creds"}');
  });
});
