/**
 * The controller process, wired (controller-runtime's manager): clients and informers on every
 * replica, metrics and health servers, and — while this replica leads, or always without
 * `--leader-elect` — a work queue whose workers run the reconciler.
 *
 * Shutdown (SIGTERM, or `stop()`): the queue stops handing out keys and waits for the passes in
 * flight, then the election lease is released (so no other leader acts while a pass of ours is
 * still writing), then the informers stop and the servers close. Losing leadership stops the manager
 * at once and resolves `done` with `'lost-leadership'`: the caller exits and a fresh process starts
 * over from the API (state in memory — expectations, the status memo — belongs to the leader term).
 *
 * `startManager` takes its KubeConfig, clock and logger injected, so tests run it in-process against
 * the test cluster; `main.ts` only parses the command line and calls it.
 */
import { classCredentialsReader } from './reconciler/instance-lifecycle';
import { secretTrustStores } from './reconciler/trust-store';
import type { KubeConfig } from '@kubernetes/client-node';
import { createClients, type KubeClients } from './kube/clients';
import { createInformers, type ControllerInformers } from './kube/informers';
import { loadClusterConfig } from './process/cluster-config';
import { ListenError, type HttpEndpoint } from './process/http-server';
import { cachesSyncedCheck, notShuttingDownCheck, startHealthServer } from './process/health';
import { controllerNamespace, leaderElectionId } from './process/election-names';
import { LeaderElector, type LeaderElectionOptions } from './process/leader-election';
import { createLogger, type Logger } from './process/logger';
import { ControllerMetrics } from './process/metrics';
import { startMetricsServer } from './process/metrics-endpoint';
import type { Options } from './process/options';
import { ServedResources } from './process/served-resources';
import { PermissionCheck, permissionsOf } from './process/permissions';
import { controllerRules, LEADER_ELECTION_RULES } from 'virtual-exporters/internal';
import type { PlannerOptions } from './planner';
import { systemClock, type Clock } from './queue/clock';
import { objectKey } from './queue/object-key';
import { WorkQueue } from './queue/work-queue';
import { EventRecorder } from './reconciler/event-recorder';
import { Expectations } from './reconciler/expectations';
import { PodWaits } from './reconciler/pod-wait-tracker';
import { FirstObserved } from './reconciler/first-observed';
import { SlowStart } from './reconciler/slow-start';
import { CaBundleCache } from './reconciler/ca-bundle-cache';
import { RenderMemo } from './reconciler/render-memo';
import { registerHandlers } from './reconciler/handlers';
import { addSetIndexes } from './reconciler/set-index';
import { DemandRecorder } from './reconciler/demand/demand-store';
import { Reconciler } from './reconciler/reconciler';
import { OperationReconciler, registerOperationHandlers } from './exporter-operation';
import { StatusMemo } from './reconciler/status-memo';

export interface ManagerDeps {
  /** @default loadClusterConfig(options.kubeconfig).kubeConfig */
  readonly kubeConfig?: KubeConfig;
  /** Fields of the first log line (the version, the API server, where its configuration came from). */
  readonly startupInfo?: Readonly<Record<string, unknown>>;
  /** The controller's timeline (queue delays, planner `now`, election). @default systemClock */
  readonly clock?: Clock;
  /** @default createLogger({ level: options.logLevel }) */
  readonly logger?: Logger;
  /** Leader-election identity and timings (tests shorten them); namespace defaults to `controllerNamespace()`. */
  readonly leaderElection?: Partial<
    Pick<
      LeaderElectionOptions,
      'identity' | 'namespace' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'
    >
  >;
  /** Planner options beyond `--max-burst` (startup backoff, rollout surge). */
  readonly plannerOptions?: Partial<PlannerOptions>;
  /** How long an applied write may stay unseen in the cache. @default 2 min */
  readonly expectationTimeoutMs?: number;
}

export type StopReason = 'stopped' | 'lost-leadership';

export interface Manager {
  readonly clients: KubeClients;
  readonly informers: ControllerInformers;
  readonly queue: WorkQueue;
  readonly metrics: ControllerMetrics;
  readonly reconciler: Reconciler;
  /** ExporterOperations have their own queue (keys `namespace/name` of operations) and workers. */
  readonly operationQueue: WorkQueue;
  readonly operationReconciler: OperationReconciler;
  readonly metricsEndpoint?: HttpEndpoint;
  readonly healthEndpoint?: HttpEndpoint;
  /** True while this replica's workers run. */
  isLeader(): boolean;
  /** Graceful shutdown; idempotent. */
  stop(): Promise<void>;
  /** Resolves once the manager stopped, with why. */
  readonly done: Promise<StopReason>;
}

/** Rethrows a `ListenError` with the flag that chose the address, as the command line's errors read. */
function flagged(flag: string, value: string): (error: unknown) => never {
  return (error) => {
    throw error instanceof ListenError ? new ListenError(`${flag}=${value}: ${error.message}`) : error;
  };
}

export async function startManager(options: Options, deps: ManagerDeps = {}): Promise<Manager> {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger({ level: options.logLevel });
  const kubeConfig = deps.kubeConfig ?? loadClusterConfig(options.kubeconfig).kubeConfig;
  logger.info(
    {
      ...deps.startupInfo,
      provisioner: options.provisioner.name,
      namespaces: options.namespaces ?? 'all',
    },
    'exporter-set-controller starting',
  );
  const clients = createClients(kubeConfig);
  // A CRD that is not installed fails its informer's lists with 404 until it is (served-resources.ts).
  const served = new ServedResources(logger);
  const informers = createInformers(clients, {
    ...(options.namespaces !== undefined ? { namespaces: options.namespaces } : {}),
    clock,
    onError: (error, context) => {
      if (context.source === 'watch' && served.failed(context.resource, error, context.retryInMs)) return;
      logger.warn({ err: error, resource: context.resource, retryInMs: context.retryInMs }, 'informer error');
    },
  });
  for (const informer of informers.all) informer.onListed(() => served.listed(informer.resource));
  const election = deps.leaderElection ?? {};
  const electionNamespace = election.namespace ?? controllerNamespace({ kubeConfig });
  const permissions = new PermissionCheck(
    clients,
    [
      ...permissionsOf(
        controllerRules({ lifecycle: options.provisioner.lifecycle !== undefined }),
        options.namespaces,
      ),
      ...(options.leaderElect ? permissionsOf(LEADER_ELECTION_RULES, [electionNamespace]) : []),
    ],
    logger,
    clock,
  );
  const metrics = new ControllerMetrics({ processMetrics: true });
  const expectations = new Expectations(clock, deps.expectationTimeoutMs);
  const reconciler = new Reconciler({
    caches: informers,
    caBundles: new CaBundleCache(clients.core, clock),
    renders: new RenderMemo(),
    clients,
    provisioner: options.provisioner,
    ...(options.provisioner.lifecycle !== undefined
      ? { readCredentials: classCredentialsReader(clients.core), trustStore: secretTrustStores(clients.core) }
      : {}),
    expectations,
    slowStart: new SlowStart(),
    statuses: new StatusMemo(),
    podWaits: new PodWaits(clock),
    firstObserved: new FirstObserved(),
    clock,
    plannerOptions: { ...deps.plannerOptions, maxBurst: options.maxBurst },
    logger,
    events: new EventRecorder(clients.core, clock, logger),
    metrics,
    demand: new DemandRecorder({ core: clients.core, clock, logger, metrics }),
  });
  const queue = new WorkQueue({
    clock,
    onError: (key, error, retryInMs) => {
      const [namespace, name] = key.split('/');
      logger.warn({ err: error, namespace, exporterset: name, retryInMs }, 'reconcile failed');
    },
  });
  metrics.bindQueueDepth(() => queue.depth());
  addSetIndexes(informers);
  registerHandlers(informers, (key) => queue.add(key));
  const events = new EventRecorder(clients.core, clock, logger);
  const operationReconciler = new OperationReconciler({
    caches: informers,
    clients,
    provisioner: options.provisioner.name,
    clock,
    logger,
    events,
  });
  const operationQueue = new WorkQueue({
    clock,
    onError: (key, error, retryInMs) => {
      const [namespace, name] = key.split('/');
      logger.warn(
        { err: error, namespace, exporteroperation: name, retryInMs },
        'operation reconcile failed',
      );
    },
  });
  registerOperationHandlers(informers, (key) => operationQueue.add(key));

  let stopping = false;
  let leading = false;
  let workers: Promise<void> | undefined;
  let resolveDone!: (reason: StopReason) => void;
  const done = new Promise<StopReason>((resolve) => (resolveDone = resolve));
  metrics.bindLeader(options.provisioner.name, () => leading && !stopping);

  const metricsEndpoint = await startMetricsServer({
    bindAddress: options.metricsBindAddress,
    registry: metrics.registry,
  }).catch(flagged('--metrics-bind-address', options.metricsBindAddress));
  const healthEndpoint = await startHealthServer({
    bindAddress: options.healthProbeBindAddress,
    readiness: {
      resources: served.check(),
      permissions: permissions.readiness(),
      informers: cachesSyncedCheck(() => informers.hasSynced()),
      shutdown: notShuttingDownCheck(() => stopping),
    },
  }).catch(async (error: unknown) => {
    await metricsEndpoint?.close();
    return flagged('--health-probe-bind-address', options.healthProbeBindAddress)(error);
  });
  if (metricsEndpoint) logger.info({ url: `${metricsEndpoint.url}/metrics` }, 'serving metrics');
  if (healthEndpoint) logger.info({ url: healthEndpoint.url }, 'serving /healthz and /readyz');

  const startWorking = async (): Promise<void> => {
    await informers.synced;
    if (stopping || workers) return;
    leading = true;
    logger.info({ workers: options.workers }, 'starting workers');
    // Every set gets a first pass, even one that no event will mention.
    for (const set of informers.exporterSets.list()) {
      const { namespace, name } = set.metadata ?? {};
      if (namespace && name) queue.add(objectKey({ namespace, name }));
    }
    for (const operation of informers.exporterOperations.list()) {
      const { namespace, name } = operation.metadata ?? {};
      if (namespace && name) operationQueue.add(objectKey({ namespace, name }));
    }
    workers = Promise.all([
      queue.run(options.workers, reconciler.reconcile),
      operationQueue.run(options.workers, operationReconciler.reconcile),
    ]).then(() => undefined);
  };

  let elector: LeaderElector | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (reason: StopReason): Promise<void> => {
    stopped ??= (async () => {
      stopping = true;
      permissions.stop();
      await Promise.all([queue.shutdown(), operationQueue.shutdown()]);
      leading = false;
      await elector?.stop();
      await informers.stop();
      clients.close();
      await Promise.all([metricsEndpoint?.close(), healthEndpoint?.close()]);
      logger.info({ reason }, 'controller stopped');
      resolveDone(reason);
    })();
    return stopped;
  };

  informers.start();
  void permissions.run();
  if (options.leaderElect) {
    elector = new LeaderElector({
      coordination: clients.coordination,
      namespace: electionNamespace,
      name: leaderElectionId(options.provisioner.name),
      clock,
      ...(election.identity !== undefined ? { identity: election.identity } : {}),
      ...(election.leaseDurationMs !== undefined ? { leaseDurationMs: election.leaseDurationMs } : {}),
      ...(election.renewDeadlineMs !== undefined ? { renewDeadlineMs: election.renewDeadlineMs } : {}),
      ...(election.retryPeriodMs !== undefined ? { retryPeriodMs: election.retryPeriodMs } : {}),
      onStartedLeading: () => {
        logger.info('started leading');
        startWorking().catch((error: unknown) => logger.error({ err: error }, 'cannot start workers'));
      },
      onStoppedLeading: () => {
        logger.error('lost leadership; stopping');
        void stop('lost-leadership');
      },
      onNewLeader: (identity) => logger.info({ leader: identity }, 'leader changed'),
      onError: (error) => logger.debug({ err: error }, 'leader election request failed'),
    });
    elector.start();
  } else {
    startWorking().catch((error: unknown) => logger.error({ err: error }, 'cannot start workers'));
  }

  return {
    clients,
    informers,
    queue,
    metrics,
    reconciler,
    operationQueue,
    operationReconciler,
    ...(metricsEndpoint ? { metricsEndpoint } : {}),
    ...(healthEndpoint ? { healthEndpoint } : {}),
    isLeader: () => leading && !stopping,
    stop: () => stop('stopped'),
    done,
  };
}
