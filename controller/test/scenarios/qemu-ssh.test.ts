/**
 * The real `qemu-ssh.jumpstarter.dev` provisioner on the test cluster, against real OpenSSH servers on
 * loopback (test/support/sshd-host.ts): the controller reads the class's SSH key from its Secret,
 * places instances on hosts, writes and starts their units over SSH, records the host on the Exporter,
 * and removes everything on recycle and drain. The test cluster's HostAgent plays the exporter process
 * of each started unit: it reads the exporter config the controller wrote on the host (endpoint, token)
 * and registers with the Jumpstarter simulator, and when its lease ends it exits and marks the exporter
 * unit exited, as `jmp run` under systemd would.
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import {
  ConditionReasons,
  ConditionTypes,
  EventReasons,
  HOST_ANNOTATION,
  LEADER_ELECTION_RULES,
  controllerRules,
  QemuSshLifecycle,
  fingerprint,
  qemuSshProvisioner,
  type LifecycleNotice,
} from 'virtual-exporters/internal';
import { HostAgent } from 'virtual-exporters-test-cluster';
import { describeWithSshd, makeKeyPair, SshdLab, type SshdHost } from '../../../test/support/sshd-host';
import {
  CONTROLLER,
  NS,
  TEMPLATE_LABELS,
  createClass,
  createSet,
  condition,
  launchController,
  eventsOf,
  getSet,
  instancesOf,
  scenarioPerTest,
  type Scenario,
  until,
  untilStored,
} from './support';

/**
 * Wall time, on purpose: these waits are on real sshd processes. Every pass opens an SSH connection
 * per host for each observe, realise and teardown (a key exchange, a forked sshd), and a loaded
 * machine stretches that in wall time, which no cluster clock governs. A step that needs longer than
 * this is stuck, and its wait says which step; each test may take a few such steps.
 */
const SSH_STEP_MS = 60_000;

describeWithSshd('qemu-ssh provisioner on the test cluster', () => {
  jest.setTimeout(4 * SSH_STEP_MS);
  let lab: SshdLab;
  beforeAll(async () => {
    lab = await SshdLab.start(2);
  });
  afterAll(async () => {
    await lab?.close();
  });
  const startScenario = scenarioPerTest();
  let agent: HostAgent | undefined;
  let scenario: Scenario | undefined;

  const sshLifecycle = (notices: LifecycleNotice[] = []) =>
    new QemuSshLifecycle({
      hostRoot: (host) => lab.host(host.name).root,
      onNotice: (n) => notices.push(n),
      connectTimeoutMs: 5000,
    });

  async function sshScenario(
    notices: LifecycleNotice[] = [],
    privateKey: string = lab.clientKey.privateKey,
  ): Promise<Scenario['cluster']> {
    const lifecycle = sshLifecycle(notices);
    for (const host of lab.hosts) host.reset();
    const started = await startScenario({
      speedUp: 20,
      controller: { provisioner: { ...qemuSshProvisioner, lifecycle } },
    });
    scenario = started;
    const { cluster } = started;
    agent?.stop();
    agent = new HostAgent(lab.hosts, cluster.kubelet!.processes);
    const origStop = started.stop.bind(started);
    started.stop = async () => {
      agent?.stop();
      await origStop();
    };
    cluster.store.create(cluster.registry.get('', 'v1', 'secrets')!, NS, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'lab-ssh' },
      type: 'kubernetes.io/ssh-auth',
      data: { 'ssh-privatekey': Buffer.from(privateKey).toString('base64') },
    });
    const [h0, h1] = lab.hosts as [SshdHost, SshdHost];
    createClass(cluster, 'ssh', {
      provisioner: 'qemu-ssh.jumpstarter.dev',
      credentialsSecretRef: { name: 'lab-ssh' },
      parameters: {
        ssh: { user: h0.user },
        hosts: [
          { name: h0.name, port: h0.port, slots: 1 },
          { name: h1.name, port: h1.port, slots: 1 },
        ],
        runtime: { kvm: true },
      },
    });
    return cluster;
  }

  const files = (host: SshdHost) => host.files().filter((f) => f.includes(`jumpstarter.${NS}.pool-`));

  it('fills the warm buffer across two hosts by their slots; lease → release → ExitAndReplace removes the units and refills', async () => {
    const notices: LifecycleNotice[] = [];
    const cluster = await sshScenario(notices);
    createSet(cluster, 'pool', { virtualTargetClassName: 'ssh', minAvailableReplicas: 2, maxReplicas: 2 });
    await untilStored(
      cluster,
      '2 available',
      () => getSet(cluster, 'pool')?.status?.availableReplicas === 2,
      SSH_STEP_MS,
    );
    const hosts = instancesOf(cluster, 'pool').map((e) => e.metadata?.annotations?.[HOST_ANNOTATION]);
    expect(hosts.sort()).toEqual(lab.hosts.map((h) => h.name).sort());
    for (const host of lab.hosts) expect(files(host)).toHaveLength(4);
    expect(notices.filter((n) => n.reason === 'HostKeyTrustedOnFirstUse')).toHaveLength(2);
    // ... and each is an event on the set, with the fingerprint and the line that pins it.
    const tofu = await untilStored(cluster, 'host key events', () => {
      const found = eventsOf(cluster, 'pool').filter((e) => e.reason === 'HostKeyTrustedOnFirstUse');
      return found.length === 2 ? found : undefined;
    });
    for (const host of lab.hosts) {
      expect(tofu.map((e) => e.message)).toContainEqual(
        expect.stringContaining(`pin it by adding "${host.knownHostsLine()}" to knownHosts`),
      );
    }

    const leases = cluster.jumpstarter!.leases;
    const lease = leases.create({
      namespace: NS,
      selector: { matchLabels: { ...TEMPLATE_LABELS } },
      duration: '1h',
    });
    await untilStored(
      cluster,
      'assigned',
      () => leases.get(NS, lease.metadata.name!)?.status?.exporterRef !== undefined,
    );
    const served = leases.get(NS, lease.metadata.name!)!.status!.exporterRef!.name;
    const servedHost = lab.host(
      instancesOf(cluster, 'pool').find((e) => e.metadata?.name === served)!.metadata!.annotations![
        HOST_ANNOTATION
      ]!,
    );
    leases.release(NS, lease.metadata.name!);
    await untilStored(
      cluster,
      'the served instance is gone and another is available',
      () => {
        const live = instancesOf(cluster, 'pool').map((e) => e.metadata?.name);
        return !live.includes(served) && getSet(cluster, 'pool')?.status?.availableReplicas === 2;
      },
      SSH_STEP_MS,
    );
    // The units go right after the Exporter's delete lands (a refused delete leaves them running).
    await until(
      'the served instance torn down on its host',
      () => !servedHost.files().some((f) => f.includes(`.${served}`)),
      SSH_STEP_MS,
    );
    expect(servedHost.calls()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(`^systemctl stop jumpstarter\\.${NS}\\.${served}-exporter\\.service`),
      ]),
    );
    // The refill went where the slot was freed.
    await until('the refill is realised', () => lab.hosts.every((h) => files(h).length === 4), SSH_STEP_MS);
    expect(files(servedHost).some((f) => f.includes(`.${served}`))).toBe(false);
  });

  it('a host going down mid-life: its instance is unknown (not failed), the set says which host and why', async () => {
    const cluster = await sshScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'ssh', minAvailableReplicas: 2, maxReplicas: 2 });
    await untilStored(
      cluster,
      '2 available',
      () => getSet(cluster, 'pool')?.status?.availableReplicas === 2,
      SSH_STEP_MS,
    );
    const [h0] = lab.hosts as [SshdHost];
    const onH0 = instancesOf(cluster, 'pool').find(
      (e) => e.metadata?.annotations?.[HOST_ANNOTATION] === h0.name,
    )!.metadata!.name!;
    // The host goes down with its exporter: Jumpstarter stops seeing it, the Exporter's status
    // changes, and the controller's next pass finds the host unreachable. Waited for as it is written.
    await h0.stop();
    try {
      await untilStored(
        cluster,
        'InstancesHealthy=False naming the host',
        () => {
          const healthy = condition(getSet(cluster, 'pool'), ConditionTypes.InstancesHealthy);
          return (
            healthy?.status === 'False' &&
            healthy.reason === ConditionReasons.InstancesUnobserved &&
            healthy.message?.includes(h0.name)
          );
        },
        SSH_STEP_MS,
      );
      // Unknown is live: the instance is neither recycled nor torn down while its host is away.
      expect(instancesOf(cluster, 'pool').map((e) => e.metadata?.name)).toContain(onH0);
      expect(h0.files().some((f) => f.includes(`.${onH0}`))).toBe(true);
    } finally {
      await h0.resume();
    }
  });

  it('a key the hosts refuse: ReplicaFailure/FailedRealise names each host and the SSH error, never the key', async () => {
    const wrong = makeKeyPair(lab.dir, `wrong-${Date.now()}`);
    const cluster = await sshScenario([], wrong.privateKey);
    createSet(cluster, 'pool', { virtualTargetClassName: 'ssh', minAvailableReplicas: 1, maxReplicas: 1 });
    const failure = await untilStored(
      cluster,
      'FailedRealise',
      () => {
        const c = condition(getSet(cluster, 'pool'), ConditionTypes.ReplicaFailure);
        return c?.status === 'True' && c.reason === ConditionReasons.FailedRealise ? c : undefined;
      },
      SSH_STEP_MS,
    );
    for (const host of lab.hosts) expect(failure.message).toContain(host.name);
    expect(failure.message).toContain("the host refused the key in the class's credentials (ssh-privatekey)");
    const body = wrong.privateKey.split('\n').slice(1, -2).join('');
    const texts = [failure.message ?? '', ...eventsOf(cluster).map((e) => e.message)];
    for (const text of texts) {
      expect(text).not.toContain('PRIVATE KEY');
      for (let i = 0; i + 16 <= body.length; i += 16) expect(text).not.toContain(body.slice(i, i + 16));
    }
    for (const host of lab.hosts) expect(files(host)).toEqual([]);
  });

  it('keeps first-use trust in <credentials>-known-hosts: a restarted controller refuses a changed key, naming the host, both fingerprints and the fix', async () => {
    const cluster = await sshScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'ssh', minAvailableReplicas: 2, maxReplicas: 2 });
    await untilStored(
      cluster,
      '2 available',
      () => getSet(cluster, 'pool')?.status?.availableReplicas === 2,
      SSH_STEP_MS,
    );
    const secrets = cluster.registry.get('', 'v1', 'secrets')!;
    const trusted = () => {
      const data = cluster.store.get(secrets, NS, 'lab-ssh-known-hosts')?.data as
        Record<string, string> | undefined;
      return data?.known_hosts === undefined
        ? []
        : Buffer.from(data.known_hosts, 'base64').toString('utf8').split('\n');
    };
    const [h0] = lab.hosts as [SshdHost];
    const before = h0.knownHostsLine();
    // Written on first use, one line per host, beside the class's credentials Secret lab-ssh.
    for (const host of lab.hosts) expect(trusted()).toContain(host.knownHostsLine());

    // The controller restarts (nothing in memory) while h0 gets a new host key.
    await scenario!.manager.stop();
    await h0.stop();
    h0.newHostKey();
    await h0.resume();
    scenario!.manager = await launchController(cluster, CONTROLLER, {
      provisioner: { ...qemuSshProvisioner, lifecycle: sshLifecycle() },
    });
    const print = (line: string) => fingerprint(Buffer.from(line.split(' ')[2]!, 'base64'));
    const refused = await untilStored(
      cluster,
      'InstancesHealthy=False: the changed key refused',
      () => {
        const healthy = condition(getSet(cluster, 'pool'), ConditionTypes.InstancesHealthy);
        return healthy?.status === 'False' &&
          healthy.message?.includes('changed since it was trusted on first use')
          ? healthy
          : undefined;
      },
      SSH_STEP_MS,
    );
    expect(refused.reason).toBe(ConditionReasons.InstancesUnobserved);
    expect(refused.message).toContain(
      `host key of [${h0.name}]:${h0.port} changed since it was trusted on first use: the host presents ` +
        `${print(h0.knownHostsLine())}, ${print(before)} was recorded in Secret ${NS}/lab-ssh-known-hosts (key known_hosts); ` +
        `if the change is expected, remove the line of [${h0.name}]:${h0.port} there`,
    );
    // Nothing was trusted anew: the store still holds the old key.
    expect(trusted()).toContain(before);
    expect(trusted()).not.toContain(h0.knownHostsLine());
  });

  it('drains on deletion: every instance is torn down on its host as its Exporter goes', async () => {
    const cluster = await sshScenario();
    createSet(cluster, 'pool', { virtualTargetClassName: 'ssh', minAvailableReplicas: 2, maxReplicas: 2 });
    await untilStored(
      cluster,
      '2 available',
      () => getSet(cluster, 'pool')?.status?.availableReplicas === 2,
      SSH_STEP_MS,
    );
    const sets = cluster.registry.get('virtualtarget.jumpstarter.dev', 'v1alpha1', 'exportersets')!;
    cluster.store.delete(sets, NS, 'pool');
    await untilStored(cluster, 'the set is gone', () => getSet(cluster, 'pool') === undefined, SSH_STEP_MS);
    for (const host of lab.hosts) expect(files(host)).toEqual([]);
    expect(eventsOf(cluster, 'pool').filter((e) => e.reason === EventReasons.LeftoverTornDown)).toEqual([]);

    // RBAC: every request is one the installer grants a qemu-ssh installation, which adds only `get`
    // on Secrets (the class's SSH key), and that grant is used.
    const rules = [...controllerRules({ lifecycle: true }), ...LEADER_ELECTION_RULES];
    const requests = cluster.counters.snapshot({ identity: CONTROLLER }).filter((e) => e.path === '');
    const resourceOf = (e: (typeof requests)[number]) =>
      e.subresource ? `${e.resource}/${e.subresource}` : e.resource;
    const denied = requests.filter(
      (e) =>
        !rules.some(
          (r) =>
            r.apiGroups.includes(e.group) && r.resources.includes(resourceOf(e)) && r.verbs.includes(e.verb),
        ),
    );
    expect(denied.map((e) => `${e.verb} ${e.group}/${resourceOf(e)}`)).toEqual([]);
    expect(requests.some((e) => e.group === '' && e.resource === 'secrets' && e.verb === 'get')).toBe(true);
  });
});
