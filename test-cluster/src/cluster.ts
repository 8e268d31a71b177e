/**
 * `startTestCluster()`: the entry point of the test cluster (SPEC §5) — a registry of our CRDs and the
 * built-in kinds, an in-memory store on a (possibly sped-up) clock, and the HTTP API server over it,
 * with counters, fault injection, request hooks and kubeconfigs per identity. Simulators attach to `store` and
 * `clock` and register their shutdown with `onStop`.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { jumpstarterCrds, ourCrds, type CustomResourceDefinition } from 'virtual-exporters/internal';
import { clusterClocks, realClock, type ClockOffsets, type ClusterClocks } from './clock';
import { RequestCounters } from './counters';
import { FaultInjector } from './faults';
import { RequestHooks } from './request-hooks';
import type { FieldValidation } from './field-validation';
import { ADMIN_IDENTITY, kubeconfigYaml, makeKubeConfig } from './kubeconfig';
import { createRegistry, resourceTypeFromCrd } from './registry';
import { startApiServer } from './server';
import {
  settle,
  startJumpstarterSimulator,
  type JumpstarterSimulator,
  type JumpstarterSimulatorOptions,
} from './jumpstarter';
import { startKubeletSimulator, type KubeletSimulator, type KubeletSimulatorOptions } from './kubelet';
import { createStore, type MemoryStore } from './store';
import type { Clock, ResourceRegistry } from './types';

export interface TestClusterOptions {
  /**
   * The custom resource definitions served besides the built-in kinds.
   * @default [...ourCrds, ...jumpstarterCrds]
   */
  readonly crds?: readonly CustomResourceDefinition[];
  /**
   * The clock of the store and the simulators.
   * @default realClock(speedUp)
   */
  readonly clock?: Clock;
  /**
   * How far the API server's, the kubelet's and the controller's clocks are off true time (`clock`),
   * in ms; `clocks` changes them at runtime.
   * @default all 0
   */
  readonly clockOffsets?: ClockOffsets;
  /**
   * How much faster than real time the default clock runs (ignored when `clock` is given).
   * @default 1
   */
  readonly speedUp?: number;
  /**
   * Namespaces created at start.
   * @default ['default']
   */
  readonly namespaces?: readonly string[];
  /**
   * A watch without `timeoutSeconds` ends after a random time between this and twice this (real seconds).
   * @default 30
   */
  readonly watchTimeoutSeconds?: number;
  /**
   * Field validation for write requests that name none (field-validation.ts): `Strict` refuses every
   * unknown or duplicate field, to prove a client sends none.
   * @default 'Warn' (as kube-apiserver)
   */
  readonly fieldValidation?: FieldValidation;
  /**
   * Seed of the fault injector's generator (fault rates, jitter, watch timeouts).
   * @default 1
   */
  readonly seed?: number;
  /** How many recent events the store keeps for watch resumption (older versions get 410); the store's default otherwise. */
  readonly watchWindow?: number;
  /**
   * Runs the Jumpstarter controller simulator (credentials, Online, lease assignment; INTEROP §1–2).
   * @default false
   */
  readonly jumpstarter?: boolean | Omit<JumpstarterSimulatorOptions, 'store' | 'clock'>;
  /**
   * Runs the kubelet simulator (Pod phases, exporter processes, crash injection).
   * @default false
   */
  readonly kubelet?: boolean | Omit<KubeletSimulatorOptions, 'store' | 'clock'>;
}

export interface TestCluster {
  readonly backend: 'test';
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** A client-node KubeConfig for the `admin` identity, default namespace `default`. */
  readonly kubeConfig: KubeConfig;
  /** A KubeConfig whose requests the server attributes to `identity` (counters, faults). */
  kubeConfigFor(identity: string, namespace?: string): KubeConfig;
  /** The kubeconfig of `identity` (default `admin`) as YAML, for a `KUBECONFIG` file. */
  kubeconfigYaml(identity?: string, namespace?: string): string;
  /** The storage behind the server; simulators and tests may use it directly (no HTTP, same semantics). */
  readonly store: MemoryStore;
  readonly registry: ResourceRegistry;
  /**
   * Serves `crds` from now on, as applying them to a running cluster does (a cluster started without
   * some CRDs, e.g. `crds: ourCrds`, gets Jumpstarter's later): lists and watches of their resources stop
   * answering 404. No-op for a version already served.
   */
  installCrds(crds: readonly CustomResourceDefinition[]): void;
  readonly counters: RequestCounters;
  readonly faults: FaultInjector;
  /**
   * A test's code run before matching requests are served (request-hooks.ts), to force an
   * interleaving: `hooks.before({ verb: 'delete', resource: 'exporters', times: 1 }, async () => …)`.
   */
  readonly hooks: RequestHooks;
  /** True time: timers of every machine, and Jumpstarter's clock. */
  readonly clock: Clock;
  /** The machines' skewed clocks: the store stamps on `apiServer`, the kubelet on `kubelet`. */
  readonly clocks: ClusterClocks;
  /** The Jumpstarter simulator, when started with `jumpstarter`. */
  readonly jumpstarter?: JumpstarterSimulator;
  /** The kubelet simulator, when started with `kubelet`. */
  readonly kubelet?: KubeletSimulator;
  /** Resolves when every running simulator has finished reacting to what happened so far. */
  settle(): Promise<void>;
  /** Runs `fn` when the cluster stops, before the server closes (simulators stop their timers here). */
  onStop(fn: () => void | Promise<void>): void;
  /** Runs the `onStop` hooks (last registered first), closes the server, then the store. Idempotent. */
  stop(): Promise<void>;
}

/** Starts a test cluster on an ephemeral port of 127.0.0.1. */
export async function startTestCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const registry = createRegistry(options.crds ?? [...ourCrds, ...jumpstarterCrds]);
  const clock = options.clock ?? realClock(options.speedUp ?? 1);
  const clocks = clusterClocks(clock, options.clockOffsets);
  const store = createStore({
    registry,
    clock: clocks.apiServer,
    namespaces: options.namespaces ?? ['default'],
    ...(options.watchWindow !== undefined ? { watchWindow: options.watchWindow } : {}),
  });
  const counters = new RequestCounters();
  const faults = new FaultInjector({ seed: options.seed });
  const hooks = new RequestHooks();
  const server = await startApiServer({
    store,
    counters,
    faults,
    hooks,
    watchTimeoutSeconds: options.watchTimeoutSeconds,
    ...(options.fieldValidation ? { fieldValidation: options.fieldValidation } : {}),
  });
  const url = server.url;
  const stopHooks: (() => void | Promise<void>)[] = [];
  // Both simulators share the store's exporter-process registry by default, so they work together.
  const optionsOf = <T>(value: boolean | T | undefined): T | undefined =>
    value === undefined || value === false ? undefined : value === true ? ({} as T) : value;
  const jumpstarterOptions = optionsOf(options.jumpstarter);
  const kubeletOptions = optionsOf(options.kubelet);
  const jumpstarter =
    jumpstarterOptions && startJumpstarterSimulator({ ...jumpstarterOptions, store, clock });
  const kubelet =
    kubeletOptions && startKubeletSimulator({ ...kubeletOptions, store, clock: clocks.kubelet });
  if (jumpstarter) stopHooks.push(() => jumpstarter.stop());
  if (kubelet) stopHooks.push(() => kubelet.stop());
  let stopping: Promise<void> | undefined;
  return {
    backend: 'test',
    url,
    kubeConfig: makeKubeConfig({ server: url }),
    kubeConfigFor: (identity, namespace) => makeKubeConfig({ server: url, identity, namespace }),
    kubeconfigYaml: (identity = ADMIN_IDENTITY, namespace) =>
      kubeconfigYaml({ server: url, identity, namespace }),
    store,
    registry,
    installCrds(crds) {
      for (const crd of crds) {
        for (const v of crd.spec.versions) {
          if (v.served && !registry.get(crd.spec.group, v.name, crd.spec.names.plural)) {
            registry.add(resourceTypeFromCrd(crd, v.name));
          }
        }
      }
    },
    counters,
    faults,
    hooks,
    clock,
    clocks,
    jumpstarter,
    kubelet,
    settle: () => settle([jumpstarter, kubelet].filter((p) => p !== undefined)),
    onStop: (fn) => void stopHooks.push(fn),
    stop() {
      stopping ??= (async () => {
        for (const hook of stopHooks.reverse()) await hook();
        await server.close();
        store.close();
      })();
      return stopping;
    },
  };
}
