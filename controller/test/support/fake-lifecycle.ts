/**
 * A lifecycle provisioner held in memory, for tests of the controller's lifecycle side: it records
 * every realise / observe / teardown, realises an instance as a simulated exporter process of the test
 * cluster (so Jumpstarter's simulator sees it Online and assigns leases to it) that exits when its
 * lease ends, and lets a test mark an instance exited or failed, its host unreachable, or a call
 * failing.
 */
import {
  type InstanceLifecycle,
  type LifecycleInstance,
  type LifecycleNotice,
  type ObservedInstance,
  type Placement,
  type Provisioner,
} from 'virtual-exporters/internal';
import type { ExporterProcesses } from 'virtual-exporters-test-cluster';

export const FAKE_PROVISIONER = 'fake-lifecycle.test';
export const HOST_ANNOTATION = `${FAKE_PROVISIONER}/host`;

export interface LifecycleCall {
  readonly op: 'realise' | 'observe' | 'teardown' | 'realisedNames';
  readonly name: string;
}

export class FakeLifecycle implements InstanceLifecycle {
  readonly calls: LifecycleCall[] = [];
  /** What is realised "on the hosts", by instance name. */
  readonly realised = new Map<string, ObservedInstance>();
  /** The class credentials each realise was handed, in order. */
  readonly credentialsSeen: Readonly<Record<string, string>>[] = [];
  /** Set: observe throws this message (an SSH error, say). */
  observeError: string | undefined;
  /** Set: observe reports every instance unknown with this message (host unreachable). */
  unreachable: string | undefined;
  /** Set: realise throws this message after the remote side exists (a crash before the annotation). */
  failAfterRealise: string | undefined;
  /** Set: every realise reports this notice (a host key recorded on first use, say). */
  notice: LifecycleNotice | undefined;
  private readonly namespace = new Map<string, string>();
  private processes: ExporterProcesses | undefined;

  /** Realised instances run as exporter processes of `processes` (the test cluster's kubelet's). */
  attach(processes: ExporterProcesses): void {
    this.processes = processes;
    processes.subscribe({
      leaseEnded: (namespace, exporter, _lease, exiting) => {
        if (!exiting || !this.realised.has(exporter)) return;
        // Scheduled, as listeners must only schedule work: the exporter exits after its lease.
        setImmediate(() => {
          processes.exit(namespace, exporter, 'graceful');
          this.markExited(exporter);
        });
      },
    });
  }

  async realise(instance: LifecycleInstance, placements: readonly Placement[]): Promise<Placement> {
    const name = instance.exporter.metadata?.name ?? '';
    const namespace = instance.exporter.metadata?.namespace ?? '';
    this.calls.push({ op: 'realise', name });
    this.credentialsSeen.push(instance.credentials);
    if (this.notice !== undefined) instance.notify?.(this.notice);
    if (!this.realised.has(name)) {
      this.realised.set(name, { state: 'running' });
      this.namespace.set(name, namespace);
      this.processes?.register({ namespace, exporter: name, token: instance.token, exitOnLeaseEnd: true });
    }
    if (this.failAfterRealise !== undefined) throw new Error(this.failAfterRealise);
    return { [HOST_ANNOTATION]: `host-${placements.length % 2}` };
  }

  async observe(instance: LifecycleInstance, placement: Placement): Promise<ObservedInstance> {
    const name = instance.exporter.metadata?.name ?? '';
    this.calls.push({ op: 'observe', name });
    if (this.observeError !== undefined) throw new Error(this.observeError);
    if (this.unreachable !== undefined) {
      return {
        state: 'unknown',
        reason: 'HostUnreachable',
        message: `${placement[HOST_ANNOTATION]}: ${this.unreachable}`,
      };
    }
    return this.realised.get(name) ?? { state: 'absent' };
  }

  async teardown(instance: LifecycleInstance): Promise<void> {
    const name = instance.exporter.metadata?.name ?? '';
    this.calls.push({ op: 'teardown', name });
    if (this.realised.delete(name)) {
      const state = this.processes?.get(this.namespace.get(name) ?? '', name);
      if (state && state.phase !== 'exited') this.processes!.exit(state.namespace, name, 'graceful');
    }
  }

  async realisedNames(
    _parameters: unknown,
    _credentials: unknown,
    namespace: string,
  ): Promise<readonly string[]> {
    this.calls.push({ op: 'realisedNames', name: '' });
    return [...this.realised.keys()]
      .filter((name) => (this.namespace.get(name) ?? namespace) === namespace)
      .sort();
  }

  /** An instance realised "on the hosts" for `namespace`, with no Exporter (a crash's leftover). */
  leaveLeftover(name: string, namespace: string): void {
    this.realised.set(name, { state: 'running' });
    this.namespace.set(name, namespace);
  }

  markExited(name: string): void {
    this.realised.set(name, {
      state: 'exited',
      reason: 'UnitExited',
      message: `${name}-exporter exited with code 0`,
    });
  }

  markFailed(name: string, message = `${name}-runtime failed`): void {
    this.realised.set(name, { state: 'failed', reason: 'UnitFailed', message });
  }

  /** The calls of one operation, by instance name. */
  namesOf(op: LifecycleCall['op']): string[] {
    return this.calls.filter((c) => c.op === op).map((c) => c.name);
  }
}

/** A provisioner whose instances are realised only through `lifecycle` (no Pods). */
export function fakeLifecycleProvisioner(lifecycle: FakeLifecycle): Provisioner {
  return {
    name: FAKE_PROVISIONER,
    validate: () => [],
    render: () => ({ objects: [] }),
    lifecycle,
  };
}
