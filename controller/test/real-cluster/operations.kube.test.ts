/**
 * Pool operations on the real server (one cluster for the file, one set per scenario), as the scenarios
 * of the test cluster show them (adoption.test.ts, exporter-operation.test.ts, revision-history.test.ts):
 * instances made the upstream way by the admin (before our controller starts, and while it runs), then
 * taken over; ExporterOperation Recycles by name (TTL) and over a set (a leased instance waits); pinning
 * a set to a recorded ControllerRevision and back — and, through all of them, not one request of the
 * controller refused by RBAC. Everything runs on real time: TTLs and waits are short, and "nothing is
 * written once settled" is read from the server's audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppsV1Api, Watch, type V1Pod, type V1Secret } from '@kubernetes/client-node';
import {
  API_VERSION,
  Annotations,
  ConditionReasons as R,
  ConditionTypes,
  DRAIN_FINALIZER,
  GROUP,
  JUMPSTARTER_API_VERSION,
  JUMPSTARTER_GROUP,
  Labels,
  OperationConditionTypes,
  OperationLabels,
  OperationReasons,
  Plurals,
  VERSION,
  mergeParameters,
  qemuProvisioner,
  type ControllerRevision,
  type Exporter,
  type ExporterOperation,
  type ExporterOperationSpec,
  type Lease,
  type VirtualTargetClass,
} from 'virtual-exporters/internal';
import {
  LeaseState,
  secretValue,
  type AuditedRequest,
  type KubeObject,
} from 'virtual-exporters-test-cluster';
import { NS, TEMPLATE_LABELS, condition, startRealScenario, until, type RealScenario } from './harness';
import { CONTROLLER_USER } from './support';

let s: RealScenario;

beforeAll(async () => {
  s = await startRealScenario();
  await s.createClass();
}, 180_000);
afterAll(() => s?.stop());

const exporters = { group: JUMPSTARTER_GROUP, version: VERSION, plural: Plurals.Exporter };
const operations = { group: GROUP, version: VERSION, plural: Plurals.ExporterOperation };
const classes = { group: GROUP, version: VERSION, plural: Plurals.VirtualTargetClass };

const leases = () => s.sims.jumpstarter!.leases;
const labelsOf = (pool: string) => ({ ...TEMPLATE_LABELS, pool });
const selectorOf = (pool: string) => ({ matchLabels: labelsOf(pool) });
const template = (pool: string, firmware?: string) => ({
  metadata: { labels: { ...labelsOf(pool), ...(firmware ? { firmware } : {}) } },
  spec: { drivers: [] },
});
const status = async (set: string) => (await s.getSet(set))?.status;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const online = (exporter: Exporter | undefined) =>
  (exporter?.status?.conditions ?? []).some((c) => c.type === 'Online' && c.status === 'True');

/** The object, or undefined on 404 (any other error is thrown). */
async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}
const exporterOf = (name: string) =>
  orMissing(
    async () => (await s.custom.getNamespacedCustomObject({ ...exporters, namespace: NS, name })) as Exporter,
  );
const podOf = (name: string): Promise<V1Pod | undefined> =>
  orMissing(() => s.core.readNamespacedPod({ namespace: NS, name }));
const secretOf = (name: string): Promise<V1Secret | undefined> =>
  orMissing(() => s.core.readNamespacedSecret({ namespace: NS, name }));
const getOperation = (name: string) =>
  orMissing(
    async () =>
      (await s.custom.getNamespacedCustomObject({ ...operations, namespace: NS, name })) as ExporterOperation,
  );
const listOperations = async () =>
  (
    (await s.custom.listNamespacedCustomObject({ ...operations, namespace: NS })) as {
      items: ExporterOperation[];
    }
  ).items;
async function createOperation(name: string, spec: ExporterOperationSpec): Promise<void> {
  await s.custom.createNamespacedCustomObject({
    ...operations,
    namespace: NS,
    body: { apiVersion: API_VERSION, kind: 'ExporterOperation', metadata: { name }, spec },
  });
}

/** The Exporters a set controls (a controller ownerReference with its uid), not being deleted. */
async function ownedInstancesOf(set: string): Promise<Exporter[]> {
  const uid = (await s.getSet(set))?.metadata?.uid;
  return (await s.allExporters()).filter(
    (e) =>
      !e.metadata?.deletionTimestamp &&
      (e.metadata?.ownerReferences ?? []).some(
        (ref) => ref.controller === true && ref.kind === 'ExporterSet' && ref.name === set && ref.uid === uid,
      ),
  );
}

interface EventView {
  readonly reason?: string;
  readonly message?: string;
  readonly type?: string;
  readonly involvedObject: { kind?: string; name?: string };
}
/** The core Events of the namespace, optionally only those on the ExporterSet `set`. */
async function eventsOf(set?: string): Promise<EventView[]> {
  const items = (await s.core.listNamespacedEvent({ namespace: NS })).items as EventView[];
  return set === undefined
    ? items
    : items.filter((e) => e.involvedObject.kind === 'ExporterSet' && e.involvedObject.name === set);
}

/** The controller's requests in the audit log, of `verb` on `resource` in the namespace. */
const controllerRequests = (verb: string | readonly string[], resource?: string): AuditedRequest[] =>
  s.cluster.audit
    .requests({ user: CONTROLLER_USER, verb, ...(resource !== undefined ? { resource } : {}) })
    .filter((r) => r.namespace === NS);
const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/**
 * Waits until the controller has stopped writing (no write in the namespace for 1 s), then returns
 * the writes it makes over `windowMs` (none when all is well: the idle cost of a settled pool).
 */
async function writesWhenSettled(windowMs: number): Promise<AuditedRequest[]> {
  let seen = controllerRequests(WRITE_VERBS).length;
  let since = Date.now();
  await until('no more writes', () => {
    const now = controllerRequests(WRITE_VERBS).length;
    if (now !== seen) [seen, since] = [now, Date.now()];
    return Date.now() - since >= 1000;
  });
  await sleep(windowMs);
  return controllerRequests(WRITE_VERBS).slice(seen);
}

/** An object created by the admin with `kubectl create` (as a client of the API: upstream's controller). */
async function adminCreate<T>(object: object): Promise<T> {
  const result = await s.cluster.kubectl(['create', '-n', NS, '-o', 'json', '-f', '-'], {
    input: JSON.stringify(object),
  });
  if (result.code !== 0) throw new Error(`kubectl create failed (${result.code}):\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/**
 * Follows a pool's available instances (enabled, online, not leased) on every Exporter change the
 * simulators' watch sees; returns the lowest count seen.
 */
function followAvailable(set: string): { lowest: () => number; stop: () => void } {
  const port = s.sims.port;
  const available = () => {
    const held = new Set(
      (port.list('Lease', NS) as unknown as Lease[]).flatMap((l) =>
        LeaseState.assigned(l) ? [l.status!.exporterRef!.name] : [],
      ),
    );
    return (port.list('Exporter', NS) as unknown as Exporter[]).filter(
      (e) =>
        e.metadata?.labels?.[Labels.exporterSetName] === set &&
        !e.metadata?.deletionTimestamp &&
        e.spec?.enabled !== false &&
        !held.has(e.metadata!.name!) &&
        online(e),
    ).length;
  };
  let lowest = Infinity;
  const stop = port.watch('Exporter', () => {
    lowest = Math.min(lowest, available());
  });
  return { lowest: () => lowest, stop };
}

describe('real server › adoption of instances upstream made', () => {
  /**
   * One instance as upstream's controller makes it, created by the admin: the Exporter (generateName,
   * a controller ownerReference to the set, the template labels only), then — once Jumpstarter issued
   * its credential — its config Secret (not labelled) and Pod (labelled with the set unless
   * `podLabelled` is false), both owned by the Exporter. With `racing`, our controller runs meanwhile
   * and may make the Secret and Pod of the Exporter first (it completes an owned instance that has a
   * credential): upstream's create then meets AlreadyExists, which is the outcome of that race.
   */
  async function upstreamInstance(
    set: string,
    { podLabelled = true, racing = false }: { podLabelled?: boolean; racing?: boolean } = {},
  ): Promise<string> {
    const owner = (await s.getSet(set))!;
    const made = await adminCreate<Exporter>({
      apiVersion: JUMPSTARTER_API_VERSION,
      kind: 'Exporter',
      metadata: {
        generateName: `${set}-`,
        labels: labelsOf(set),
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'ExporterSet',
            name: set,
            uid: owner.metadata!.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { enabled: true },
    });
    const name = made.metadata!.name!;
    const exporter = await until(`a credential for ${name}`, async () => {
      const e = await exporterOf(name);
      return e?.status?.credential?.name && e.status.endpoint ? e : undefined;
    });
    const credential = (await secretOf(exporter.status!.credential!.name))!;
    const cls = (await s.custom.getNamespacedCustomObject({
      ...classes,
      namespace: NS,
      name: 'qemu',
    })) as VirtualTargetClass;
    const rendered = qemuProvisioner.render({
      exporterSet: owner,
      virtualTargetClass: cls,
      parameters: mergeParameters(cls.spec?.parameters, owner.spec?.parameters),
      // As upstream sees its Exporter: the template labels only (ours may have labelled it meanwhile).
      exporter: { ...exporter, metadata: { ...exporter.metadata, labels: labelsOf(set) } },
      token: secretValue(credential as unknown as KubeObject, 'token')!,
    });
    const create = async (body: object) => {
      try {
        await adminCreate(body);
      } catch (error) {
        if (!(racing && /\(AlreadyExists\)/.test((error as Error).message))) throw error;
      }
    };
    for (const object of rendered.objects as unknown as KubeObject[]) {
      if (object.kind === 'Secret') {
        const { labels: _ours, ...metadata } = object.metadata;
        await create({ ...object, metadata });
      } else {
        expect(object.metadata.labels).toEqual({ ...labelsOf(set), [Labels.exporterSetName]: set });
        const labels = podLabelled ? object.metadata.labels : labelsOf(set);
        await create({ ...object, metadata: { ...object.metadata, labels } });
      }
    }
    return name;
  }

  const pin = async (set: string, exporter: string) =>
    (
      await leases().create({
        namespace: NS,
        selector: selectorOf(set),
        exporterRef: exporter,
        duration: '1h',
      })
    ).metadata.name!;

  it('counts, labels, recycles and drains them, creating only what the rules need', async () => {
    const SET = 'up';
    // Upstream's controller ran the lab until now: ours is not running while its instances are made.
    await s.manager.stop();
    await s.createSet(SET, {
      selector: selectorOf(SET),
      template: template(SET),
      minReplicas: 3,
      minAvailableReplicas: 1,
      maxReplicas: 4,
      scaleDownCooldown: '1h',
    });
    const ended = await upstreamInstance(SET);
    const leased = await upstreamInstance(SET);
    const idle = await upstreamInstance(SET);
    await until('all three online', async () => {
      const all = await Promise.all([ended, leased, idle].map(exporterOf));
      return all.every(online);
    });
    // One served a lease that ended: its exporter exited, its Pod Succeeded.
    const served = await pin(SET, ended);
    await leases().waitFor(NS, served, LeaseState.assigned, 60_000);
    await leases().release(NS, served);
    await until('the ended Pod', async () => (await podOf(ended))?.status?.phase === 'Succeeded');
    // One is leased now.
    const held = await pin(SET, leased);
    await leases().waitFor(NS, held, LeaseState.assigned, 60_000);
    const leasedPod = (await podOf(leased))!.metadata!.uid;
    const createsBefore = controllerRequests('create', 'exporters').length;
    const creates = () => controllerRequests('create', 'exporters').length - createsBefore;

    // Our controller takes over.
    await s.restart();
    await until('the ended one recycled', async () => (await exporterOf(ended)) === undefined);
    await until('the pool at its floor', async () => {
      const st = await status(SET);
      return (await ownedInstancesOf(SET)).length === 3 && st?.replicas === 3 && st.leasedReplicas === 1;
    });
    // The floor (3) needs one new instance beside the leased and the idle one: exactly one create.
    expect(creates()).toBe(1);
    const names = (await ownedInstancesOf(SET)).map((e) => e.metadata!.name!);
    expect(names).toEqual(expect.arrayContaining([leased, idle]));
    const [created] = names.filter((n) => n !== leased && n !== idle);
    expect((await s.getSet(SET))?.metadata?.finalizers).toContain(DRAIN_FINALIZER);

    // Labelled: the Exporters, their Pods and config Secrets — taken as current, nothing rolled.
    const revision = await until('a revision', async () => (await status(SET))?.templateRevision);
    const ours = { ...labelsOf(SET), [Labels.exporterSetName]: SET, [Labels.templateRevision]: revision };
    for (const name of [leased, idle]) {
      await until(`${name} labelled`, async () => {
        const labels = (await exporterOf(name))?.metadata?.labels;
        return labels?.[Labels.exporterSetName] === SET && labels[Labels.templateRevision] === revision;
      });
      expect((await exporterOf(name))?.metadata?.labels).toEqual(ours);
      await until(
        `the Pod of ${name} labelled`,
        async () => (await podOf(name))?.metadata?.labels?.[Labels.templateRevision] === revision,
      );
      expect((await podOf(name))?.metadata?.labels).toEqual(ours);
      await until(
        `the config Secret of ${name} labelled`,
        async () =>
          (await secretOf(`exporter-config-${name}`))?.metadata?.labels?.[Labels.exporterSetName] === SET,
      );
    }

    // The leased one untouched: enabled, its Pod the same, its lease on. Settled, nothing is written.
    expect(await writesWhenSettled(30_000)).toEqual([]);
    expect((await exporterOf(leased))?.spec?.enabled).toBe(true);
    expect((await exporterOf(leased))?.metadata?.deletionTimestamp).toBeUndefined();
    expect((await podOf(leased))?.metadata?.uid).toBe(leasedPod);
    expect((await leases().get(NS, held))?.status?.ended).not.toBe(true);
    expect(await ownedInstancesOf(SET)).toHaveLength(3);
    expect(creates()).toBe(1);

    // Its lease ends: recycled like ours, and the floor refilled with one create.
    await leases().release(NS, held);
    await until('the leased one recycled', async () => (await exporterOf(leased)) === undefined);
    await until('the floor refilled', async () => {
      const st = await status(SET);
      return (await ownedInstancesOf(SET)).length === 3 && st?.replicas === 3;
    });
    expect(creates()).toBe(2);

    // Deleting the set drains them: the adopted idle one is leased, the others go, the set waits.
    const last = await pin(SET, idle);
    await leases().waitFor(NS, last, LeaseState.assigned, 60_000);
    const deleted = await s.cluster.kubectl(['delete', 'exporterset', SET, '-n', NS, '--wait=false']);
    expect(deleted.code).toBe(0);
    await until('only the leased adopted one left', async () => {
      const live = await ownedInstancesOf(SET);
      return live.length === 1 && live[0]!.metadata!.name === idle;
    });
    expect(await exporterOf(created!)).toBeUndefined();
    await sleep(3_000);
    expect((await s.getSet(SET))?.metadata?.deletionTimestamp).toBeDefined();
    expect((await exporterOf(idle))?.spec?.enabled).toBe(true);
    expect((await leases().get(NS, last))?.status?.ended).not.toBe(true);
    expect(creates()).toBe(2);

    await leases().release(NS, last);
    await until('the set gone', async () => (await s.getSet(SET)) === undefined);
    await until('its instances gone', async () => (await exporterOf(idle)) === undefined);
  }, 180_000);

  it('finds an adopted instance by its owner even when its Pod lacks the set label, and labels it', async () => {
    const SET = 'unlabelled';
    await s.manager.stop();
    await s.createSet(SET, {
      selector: selectorOf(SET),
      template: template(SET),
      minReplicas: 1,
      minAvailableReplicas: 1,
      maxReplicas: 2,
      scaleDownCooldown: '1h',
    });
    // Made by another version, or relabelled by hand: the Pod carries the template labels only.
    const name = await upstreamInstance(SET, { podLabelled: false });
    await until(`${name} online`, async () => online(await exporterOf(name)));
    const podUid = (await podOf(name))!.metadata!.uid;
    const before = {
      pods: controllerRequests('create', 'pods').length,
      exporters: controllerRequests('create', 'exporters').length,
    };

    await s.restart();
    const revision = await until('a revision', async () => (await status(SET))?.templateRevision);
    await until(
      'its Pod labelled',
      async () => (await podOf(name))?.metadata?.labels?.[Labels.exporterSetName] === SET,
    );
    expect((await podOf(name))?.metadata?.labels).toEqual({
      ...labelsOf(SET),
      [Labels.exporterSetName]: SET,
      [Labels.templateRevision]: revision,
    });
    await until('the set counts it', async () => {
      const st = await status(SET);
      return st?.replicas === 1 && st.availableReplicas === 1;
    });
    // Its Pod was seen, not taken for missing: no Pod create, no new instance, and quiet once settled.
    expect(await writesWhenSettled(30_000)).toEqual([]);
    expect(controllerRequests('create', 'pods').length).toBe(before.pods);
    expect(controllerRequests('create', 'exporters').length).toBe(before.exporters);
    expect((await podOf(name))?.metadata?.uid).toBe(podUid);
  }, 120_000);
  it('adopts an instance upstream makes while it runs: labelled and counted, and only the rest created', async () => {
    const SET = 'live';
    // Paused (§3.20: nothing created) while the admin makes an instance the upstream way beside it.
    await s.createSet(SET, {
      selector: selectorOf(SET),
      template: template(SET),
      paused: true,
      minReplicas: 2,
      minAvailableReplicas: 1,
      maxReplicas: 3,
      scaleDownCooldown: '1h',
    });
    await until(
      'Paused=True',
      async () => condition(await s.getSet(SET), ConditionTypes.Paused)?.status === 'True',
    );
    const createsBefore = controllerRequests('create', 'exporters').length;
    const creates = () => controllerRequests('create', 'exporters').length - createsBefore;
    const name = await upstreamInstance(SET, { racing: true });
    const uid = (await exporterOf(name))!.metadata!.uid;
    // Whoever won the race, the instance has one Pod and one config Secret, both owned by its Exporter.
    for (const owned of [await podOf(name), await secretOf(`exporter-config-${name}`)])
      expect(owned?.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'Exporter', name, uid, controller: true }),
      ]);
    const revision = await until('a revision', async () => (await status(SET))?.templateRevision);
    const ours = { ...labelsOf(SET), [Labels.exporterSetName]: SET, [Labels.templateRevision]: revision };
    await until('the Exporter labelled', async () => {
      const labels = (await exporterOf(name))?.metadata?.labels;
      return labels?.[Labels.templateRevision] === revision;
    });
    expect((await exporterOf(name))?.metadata?.labels).toEqual(ours);
    await until(
      'its Pod labelled',
      async () => (await podOf(name))?.metadata?.labels?.[Labels.templateRevision] === revision,
    );
    expect((await podOf(name))?.metadata?.labels).toEqual(ours);
    await until(
      'its config Secret labelled',
      async () =>
        (await secretOf(`exporter-config-${name}`))?.metadata?.labels?.[Labels.exporterSetName] === SET,
    );
    await until('the set counts it', async () => {
      const st = await status(SET);
      return st?.replicas === 1 && st.availableReplicas === 1;
    });
    expect(creates()).toBe(0);

    // Unpaused: the floor (2) needs one instance beside the adopted one: exactly one create.
    await s.patchSetSpec(SET, { paused: false });
    await until('the pool at its floor', async () => {
      const st = await status(SET);
      return (await ownedInstancesOf(SET)).length === 2 && st?.replicas === 2 && st.readyReplicas === 2;
    });
    expect(await writesWhenSettled(10_000)).toEqual([]);
    expect(creates()).toBe(1);
    expect((await exporterOf(name))?.metadata?.uid).toBe(uid);
  });
});

describe('real server › ExporterOperation', () => {
  it('recycles an idle instance by name keeping the warm buffer, then goes after ttlSecondsAfterFinished', async () => {
    const SET = 'ops';
    await s.createSet(SET, {
      selector: selectorOf(SET),
      template: template(SET),
      minAvailableReplicas: 2,
      maxReplicas: 4,
      scaleDownCooldown: '1h',
    });
    await until('2 available', async () => (await status(SET))?.availableReplicas === 2);
    const [target] = await s.instancesOf(SET);
    const name = target!.metadata!.name!;

    const available = followAvailable(SET);
    try {
      await createOperation('recycle-one', {
        operation: 'Recycle',
        exporterName: name,
        ttlSecondsAfterFinished: 5,
      });
      const done = await until('the operation complete', async () => {
        const op = await getOperation('recycle-one');
        return op?.status?.state === 'Complete' && op;
      });
      expect(done.status?.instances).toEqual([
        expect.objectContaining({ exporterName: name, uid: target!.metadata!.uid, state: 'Complete' }),
      ]);
      expect(done.status?.conditions?.find((c) => c.type === OperationConditionTypes.Complete)).toMatchObject(
        { status: 'True', reason: OperationReasons.Succeeded, observedGeneration: 1 },
      );
      expect((await s.instancesOf(SET)).some((e) => e.metadata!.name === name)).toBe(false);
      await until('the pool refilled', async () => {
        const st = await status(SET);
        return st?.availableReplicas === 2 && st.replicas === 2;
      });
    } finally {
      available.stop();
    }
    expect(Number.isFinite(available.lowest())).toBe(true);
    expect(available.lowest()).toBeGreaterThanOrEqual(2);
    await until('the events', async () => {
      const reasons = (await eventsOf())
        .filter((e) => e.involvedObject.name === 'recycle-one')
        .map((e) => e.reason);
      return reasons.includes('InstanceMarked') && reasons.includes('OperationComplete');
    });

    // ttlSecondsAfterFinished: 5 s after it finished, the operation is deleted.
    await until(
      'the operation deleted',
      async () => (await getOperation('recycle-one')) === undefined,
      30_000,
    );
  });

  it('recycles a set by selector: the leased instance waits for its lease to end and is never touched', async () => {
    const SET = 'sel';
    await s.createSet(SET, {
      selector: selectorOf(SET),
      template: template(SET),
      minAvailableReplicas: 2,
      maxReplicas: 6,
      scaleDownCooldown: '1h',
    });
    await until('2 available', async () => (await status(SET))?.availableReplicas === 2);
    const lease = await leases().create({ namespace: NS, selector: selectorOf(SET), duration: '1h' });
    const leasedName = (await leases().waitFor(NS, lease.metadata.name!, LeaseState.assigned, 60_000)).status!
      .exporterRef!.name;
    await until('refilled', async () => {
      const st = await status(SET);
      return st?.availableReplicas === 2 && st.leasedReplicas === 1;
    });
    const before = await s.instancesOf(SET);
    const leasedUid = before.find((e) => e.metadata!.name === leasedName)!.metadata!.uid;

    await createOperation('recycle-all', {
      operation: 'Recycle',
      exporterSetName: SET,
      selector: selectorOf(SET),
      ttlSecondsAfterFinished: 3600,
    });
    const waiting = await until('the others done, the leased one waiting', async () => {
      const p = await getOperation('recycle-all');
      const others = p?.status?.instances?.filter((i) => i.exporterName !== leasedName) ?? [];
      const leasedOne = p?.status?.instances?.find((i) => i.exporterName === leasedName);
      return (
        others.length === before.length - 1 &&
        others.every((i) => i.state === 'Complete') &&
        leasedOne?.reason === OperationReasons.WaitingForLease &&
        p
      );
    });
    expect(waiting.status?.state).toBe('InProgress');
    expect(waiting.status?.instances?.map((i) => i.exporterName)).toEqual(
      before.map((e) => e.metadata!.name!).sort(),
    );
    expect(
      waiting.status?.conditions?.find((c) => c.type === OperationConditionTypes.WaitingForLease),
    ).toMatchObject({
      status: 'True',
      message: `${leasedName} is leased; the operation waits for that lease to end`,
    });
    const children = (await listOperations()).filter(
      (o) => o.metadata?.labels?.[OperationLabels.parent] === 'recycle-all',
    );
    expect(children).toHaveLength(before.length);
    expect(children.every((c) => c.metadata?.ownerReferences?.[0]?.uid === waiting.metadata?.uid)).toBe(true);
    await until('the WaitingForLease event', async () =>
      (await eventsOf()).some(
        (e) => e.reason === 'WaitingForLease' && e.involvedObject.name === `recycle-all-${leasedName}`,
      ),
    );
    // The leased instance: same object, enabled, unmarked, still leased.
    const leased = (await s.instancesOf(SET)).find((e) => e.metadata!.name === leasedName)!;
    expect(leased.metadata!.uid).toBe(leasedUid);
    expect(leased.spec?.enabled).not.toBe(false);
    expect(leased.metadata?.annotations?.[Annotations.recycleRequested]).toBeUndefined();
    expect((await status(SET))?.leasedReplicas).toBe(1);

    await leases().release(NS, lease.metadata.name!);
    const complete = await until('the operation complete', async () => {
      const p = await getOperation('recycle-all');
      return p?.status?.state === 'Complete' && p;
    });
    expect(complete.status?.instances?.every((i) => i.state === 'Complete')).toBe(true);
    expect(
      complete.status?.conditions?.find((c) => c.type === OperationConditionTypes.WaitingForLease)?.status,
    ).toBe('False');
    const oldNames = new Set(before.map((e) => e.metadata!.name!));
    await until('every instance replaced', async () => {
      const live = await s.instancesOf(SET);
      return (
        live.length === 2 &&
        live.every((e) => !oldNames.has(e.metadata!.name!)) &&
        (await status(SET))?.availableReplicas === 2
      );
    });
  });
});

describe('real server › revision history and rollback by pinning', () => {
  it('records immutable revisions, rolls back by pinning and forward by unpinning, and prunes only unused ones', async () => {
    const SET = 'rev';
    const revisions = async () =>
      (
        (
          await s.cluster.kubeConfig.makeApiClient(AppsV1Api).listNamespacedControllerRevision({
            namespace: NS,
            labelSelector: `${Labels.exporterSetName}=${SET}`,
          })
        ).items as unknown as ControllerRevision[]
      ).sort((a, b) => a.revision - b.revision);
    const revisionOf = async (name: string) =>
      (await s.instancesOf(SET)).find((e) => e.metadata!.name === name)?.metadata?.labels?.[
        Labels.templateRevision
      ];
    /** Every instance not leased runs `revision`, and the buffer is back. */
    const idleAt = (revision: string, leased: readonly string[]) => async () =>
      (await s.instancesOf(SET)).every(
        (e) =>
          leased.includes(e.metadata!.name!) || e.metadata?.labels?.[Labels.templateRevision] === revision,
      ) && (await status(SET))?.availableReplicas === 3;
    const lease = async (name: string) => {
      await leases().create({ namespace: NS, name, selector: selectorOf(SET), duration: '1h' });
      return (await leases().waitFor(NS, name, LeaseState.assigned, 60_000)).status!.exporterRef!.name;
    };

    // No recorded revision is ever changed: the server's watch shows creates and deletes of them only.
    const revisionEvents: { type: string; name: string }[] = [];
    const watch = await new Watch(s.cluster.kubeConfig).watch(
      `/apis/apps/v1/namespaces/${NS}/controllerrevisions`,
      { labelSelector: `${Labels.exporterSetName}=${SET}` },
      (type: string, object: ControllerRevision) =>
        revisionEvents.push({ type, name: object.metadata?.name ?? '' }),
      () => undefined,
    );
    let available: ReturnType<typeof followAvailable> | undefined;
    try {
      await s.createSet(SET, {
        selector: selectorOf(SET),
        template: template(SET),
        minAvailableReplicas: 3,
        maxReplicas: 8,
        revisionHistoryLimit: 0,
      });
      await until('3 available', async () => (await status(SET))?.availableReplicas === 3);

      // Revision A recorded, with what an instance of it is built from.
      const a = (await status(SET))!.templateRevision!;
      const [recordedA] = await until('revision A recorded', async () => {
        const all = await revisions();
        return all.length === 1 && all;
      });
      expect(recordedA!.metadata.name).toBe(`${SET}-${a}`);
      expect(recordedA!.revision).toBe(1);
      expect(recordedA!.metadata.labels).toEqual({
        [Labels.exporterSetName]: SET,
        [Labels.templateRevision]: a,
      });
      expect(recordedA!.metadata.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ExporterSet', name: SET, uid: (await s.getSet(SET))!.metadata.uid }),
      ]);
      expect(recordedA!.data).toEqual({ template: template(SET), parameters: { arch: 'x86_64' } });
      expect((await status(SET))?.currentRevision).toBe(`${SET}-${a}`);
      const leasedA = await lease('l-a');

      // A template change: revision B recorded; idle instances roll to it, the leased one stays at A.
      await s.patchSetSpec(SET, { template: template(SET, 'v2') });
      const b = await until('revision B', async () => {
        const current = (await status(SET))?.templateRevision;
        return current !== a && current;
      });
      await until('rolled to B', idleAt(b, [leasedA]));
      expect((await revisions()).map((r) => [r.metadata.name, r.revision])).toEqual([
        [`${SET}-${a}`, 1],
        [`${SET}-${b}`, 2],
      ]);
      expect((await revisions())[1]!.data).toEqual({
        template: template(SET, 'v2'),
        parameters: { arch: 'x86_64' },
      });
      // A stays: the leased instance runs it (history limit 0 notwithstanding).
      expect((await revisions())[0]).toEqual(recordedA);
      const leasedB = await lease('l-b');
      await until('refilled', async () => {
        const st = await status(SET);
        return st?.availableReplicas === 3 && st.leasedReplicas === 2;
      });
      const leasedBUid = (await s.instancesOf(SET)).find((e) => e.metadata!.name === leasedB)!.metadata!.uid;

      // Pin to A: the idle instances roll back; the leased B instance is left alone.
      available = followAvailable(SET);
      await s.patchSetSpec(SET, { pinnedRevision: `${SET}-${a}` });
      await until('pinned', async () => (await status(SET))?.pinnedRevision === `${SET}-${a}`);
      await until('rolled back to A', idleAt(a, [leasedA, leasedB]));
      available.stop();
      expect(Number.isFinite(available.lowest())).toBe(true);
      expect(available.lowest()).toBeGreaterThanOrEqual(3);
      expect((await status(SET))?.currentRevision).toBe(`${SET}-${a}`);
      expect((await status(SET))?.templateRevision).toBe(a);
      expect(condition(await s.getSet(SET), ConditionTypes.RevisionPinned)).toMatchObject({
        status: 'True',
        reason: R.PinnedRevisionFound,
      });
      const leasedBNow = (await s.instancesOf(SET)).find((e) => e.metadata!.name === leasedB)!;
      expect(leasedBNow.metadata!.uid).toBe(leasedBUid);
      expect(leasedBNow.spec?.enabled).not.toBe(false);
      expect(await revisionOf(leasedB)).toBe(b);
      // Built from A's recorded template: the new instances lack B's firmware label.
      const rolledBack = (await s.instancesOf(SET)).filter(
        (e) => ![leasedA, leasedB].includes(e.metadata!.name!),
      );
      expect(rolledBack.every((e) => e.metadata?.labels?.firmware === undefined)).toBe(true);
      expect((await revisions()).map((r) => r.metadata.name)).toEqual([`${SET}-${a}`, `${SET}-${b}`]);

      // A pin to no recorded revision: the condition and a Warning say so, and no instance is touched.
      const versions = async () =>
        (await s.instancesOf(SET)).map((e) => `${e.metadata!.name}@${e.metadata!.resourceVersion}`);
      const before = await versions();
      const instanceWrites = () =>
        [...controllerRequests(WRITE_VERBS, 'exporters'), ...controllerRequests(WRITE_VERBS, 'pods')].length;
      const writesBefore = instanceWrites();
      await s.patchSetSpec(SET, { pinnedRevision: `${SET}-0000000000` });
      await until(
        'RevisionPinned=False',
        async () =>
          condition(await s.getSet(SET), ConditionTypes.RevisionPinned)?.reason === R.PinnedRevisionNotFound,
      );
      expect(condition(await s.getSet(SET), ConditionTypes.RevisionPinned)?.message).toContain(
        `spec.pinnedRevision "${SET}-0000000000" names no recorded revision of ExporterSet ${SET}`,
      );
      await until('the Warning event', async () =>
        (await eventsOf(SET)).some(
          (e) =>
            e.type === 'Warning' &&
            e.reason === R.PinnedRevisionNotFound &&
            (e.message ?? '').includes('0000000000'),
        ),
      );
      await sleep(2_000);
      expect(instanceWrites()).toBe(writesBefore);
      expect(await versions()).toEqual(before);

      // Unpinned: back to the template (B); the leased A instance is still left alone.
      await s.patchSetSpec(SET, { pinnedRevision: null });
      await until('rolled forward to B', idleAt(b, [leasedA]));
      expect((await status(SET))?.pinnedRevision).toBeUndefined();
      expect((await status(SET))?.currentRevision).toBe(`${SET}-${b}`);
      expect(await revisionOf(leasedA)).toBe(a);

      // A third template: C recorded; B is unused once the leased B instance is gone, and pruned (limit
      // 0); A is kept while its leased instance runs it, and pruned once that lease ends.
      await leases().release(NS, 'l-b');
      await s.patchSetSpec(SET, { template: template(SET, 'v3') });
      const c = await until('revision C', async () => {
        const current = (await status(SET))?.templateRevision;
        return current !== undefined && ![a, b].includes(current) && current;
      });
      await until('rolled to C', idleAt(c, [leasedA]));
      await until(
        'B pruned',
        async () => !(await revisions()).some((r) => r.metadata.name === `${SET}-${b}`),
      );
      await until('the RevisionPruned event', async () =>
        (await eventsOf(SET)).some(
          (e) => e.reason === 'RevisionPruned' && (e.message ?? '').includes(`${SET}-${b}`),
        ),
      );
      expect((await eventsOf(SET)).filter((e) => e.reason === 'RevisionRecorded')).toHaveLength(3);
      expect((await revisions()).map((r) => [r.metadata.name, r.revision])).toEqual([
        [`${SET}-${a}`, 1],
        [`${SET}-${c}`, 3],
      ]);
      expect((await revisions())[0]).toEqual(recordedA);
      await leases().release(NS, 'l-a');
      await until('A pruned once no instance runs it', async () => {
        const all = await revisions();
        return all.length === 1 && all[0]!.metadata.name === `${SET}-${c}`;
      });
    } finally {
      available?.stop();
      watch.abort();
    }
    expect(revisionEvents.map((e) => e.type).filter((t) => t !== 'ADDED' && t !== 'DELETED')).toEqual([]);
    expect(revisionEvents.filter((e) => e.type === 'ADDED')).toHaveLength(3);
    // and the controller never asked to change one
    expect(controllerRequests(['update', 'patch'], 'controllerrevisions')).toEqual([]);
  }, 240_000);
});

describe('real server › RBAC through every operation', () => {
  it('the controller got no 403 from the real authorizer', () => {
    expect(s.forbidden()).toEqual([]);
  });
});
