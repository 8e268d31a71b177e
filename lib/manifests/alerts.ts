/**
 * The ops pack's alerts: one rule per way a pool stops serving, each with a runbook (what it means, what
 * to check, how to fix it) in the `runbook` annotation, so whoever is paged reads it in the alert itself.
 * The expressions use only metrics the controller exports (controller/src/process/metrics.ts), plus
 * Prometheus's own `up` for the scrape of the controller (a test parses each and checks the names).
 */
import { Labels } from '../api';

export type AlertSeverity = 'warning' | 'critical';

export interface ControllerAlert {
  readonly alert: string;
  readonly expr: string;
  /** How long the condition must hold before the alert fires (Prometheus duration). */
  readonly for: string;
  readonly severity: AlertSeverity;
  readonly summary: string;
  readonly description: string;
  readonly runbook: string;
}

/** What the alerts need to know of the installation: where it runs and the Service Prometheus scrapes. */
export interface AlertScope {
  /** The controller's namespace (the scrape target's `namespace` label). */
  readonly namespace: string;
  /** The metrics Service: the ServiceMonitor's targets get it as their `job` label. */
  readonly job: string;
}

function runbook(lines: { meaning: string; check: readonly string[]; fix: readonly string[] }): string {
  return [
    lines.meaning,
    '',
    'Check:',
    ...lines.check.map((l) => `- ${l}`),
    '',
    'Fix:',
    ...lines.fix.map((l) => `- ${l}`),
  ].join('\n');
}

/** The alert rules of one installation. */
export function controllerAlerts(scope: AlertScope): ControllerAlert[] {
  const target = `job="${scope.job}",namespace="${scope.namespace}"`;
  return [
    {
      alert: 'ExporterSetPoolExhausted',
      expr:
        'max by (namespace, exporterset) (jumpstarter_exporterset_pending_leases) > 0' +
        ' and on (namespace, exporterset)' +
        ' max by (namespace, exporterset) (jumpstarter_exporterset_available_replicas) == 0',
      for: '10m',
      severity: 'warning',
      summary: 'Leases of {{ $labels.namespace }}/{{ $labels.exporterset }} wait and no instance is free',
      description:
        '{{ $value }} Lease(s) have waited for the pool {{ $labels.namespace }}/{{ $labels.exporterset }} for 10 minutes while it has no available instance.',
      runbook: runbook({
        meaning:
          'The pool has pending Leases it should serve and no available (online, enabled, unleased) instance, and that has lasted 10 minutes: users and CI jobs are waiting.',
        check: [
          '`kubectl -n {{ $labels.namespace }} get exporterset {{ $labels.exporterset }}`: is REPLICAS at spec.maxReplicas (the ceiling), or are instances starting?',
          "The set's conditions (`kubectl describe exporterset`): `StartupFailureBackoff`, `ParametersValid=False` or `paused: true` stop new instances.",
          `Starting instances that never come online: their Pods (\`kubectl get pods -l ${Labels.exporterSetName}={{ $labels.exporterset }}\`) and events; node capacity for the class's resources (Pending Pods).`,
          'Leases held long by idle clients (`kubectl get leases.jumpstarter.dev`).',
        ],
        fix: [
          'At the ceiling: raise spec.maxReplicas, if the nodes have room, or ask lease holders to release.',
          'Not growing although below the ceiling: fix what the conditions name (parameters, paused, startup failures; see ExporterSetStartupFailures).',
          'Recurring at known hours: raise spec.minAvailableReplicas so the pool is warm before the peak.',
        ],
      }),
    },
    {
      alert: 'ExporterSetStartupFailures',
      expr: 'sum by (namespace, exporterset) (increase(jumpstarter_exporterset_scale_actions_total{direction="down",reason="failed"}[30m])) >= 3',
      for: '5m',
      severity: 'warning',
      summary: 'Instances of {{ $labels.namespace }}/{{ $labels.exporterset }} keep failing',
      description:
        '{{ $value }} instance(s) of {{ $labels.namespace }}/{{ $labels.exporterset }} failed (Pod failed or never came online) in the last 30 minutes.',
      runbook: runbook({
        meaning:
          'The controller removed at least 3 instances of the set in 30 minutes because their Pod failed or they did not come online within the startup timeout. It replaces them with a growing backoff, so the pool runs short.',
        check: [
          'Events of the set: `kubectl -n {{ $labels.namespace }} get events --field-selector involvedObject.name={{ $labels.exporterset }}` (InstanceFailed, StartupFailure give the reason per instance).',
          "The failed Pods' logs and status (`kubectl logs --previous`, `kubectl describe pod`): image pull errors, firmware download, KVM device missing on the node, OOMKilled.",
          'Whether the Exporter was ever registered: a Pod that runs but never reports Online points at the Jumpstarter endpoint or the credentials Secret.',
        ],
        fix: [
          "Correct the class's or the set's parameters (image, firmware digest, resources) or the node setup the Pods need; the backoff resets after the next instance comes online.",
          'If the template is at fault, pin the last good revision (spec.pinnedRevision) until it is fixed.',
        ],
      }),
    },
    {
      alert: 'ExporterSetControllerDown',
      expr: `up{${target}} == 0 or absent(up{${target}})`,
      for: '5m',
      severity: 'critical',
      summary: 'The exporter-set-controller in {{ $labels.namespace }} is not scraped',
      description:
        'Prometheus has not scraped a controller replica of job {{ $labels.job }} for 5 minutes (down, or no target at all).',
      runbook: runbook({
        meaning:
          'No pool is being reconciled: warm buffers are not refilled, pending leases get no new instance and recycled instances are not replaced. Existing instances keep serving.',
        check: [
          `\`kubectl -n ${scope.namespace} get deploy,pods -l app.kubernetes.io/name=exporter-set-controller\`: CrashLoopBackOff, Pending, ImagePullBackOff?`,
          `The controller's logs (\`kubectl -n ${scope.namespace} logs deploy/<name> --previous\`): a missing CRD or RBAC rule is named there; \`/readyz\` lists failing checks.`,
          `The metrics Service and its endpoints (\`kubectl -n ${scope.namespace} get endpoints ${scope.job}\`) and the ServiceMonitor's selection by your Prometheus (its serviceMonitorSelector labels).`,
        ],
        fix: [
          "Image not found: build and load or push the controller image and set the installer's `image`.",
          'Missing CRDs or permissions: re-apply the installer (install.yaml or your cdk8s/Pulumi stack).',
          "Out of memory: raise the installer's `resources` limits.",
        ],
      }),
    },
    {
      alert: 'ExporterSetLeaderMissing',
      expr: `max by (provisioner) (jumpstarter_exporterset_leader{${target}}) < 1`,
      for: '5m',
      severity: 'critical',
      summary: 'No exporter-set-controller replica leads for {{ $labels.provisioner }}',
      description:
        'Controller replicas for {{ $labels.provisioner }} are up but none has held the election Lease for 5 minutes, so no pool of that provisioner is reconciled.',
      runbook: runbook({
        meaning:
          'With --leader-elect only the replica holding the coordination Lease reconciles. Every replica reports jumpstarter_exporterset_leader, and none reports 1: the pools of this provisioner are standing still.',
        check: [
          `\`kubectl -n ${scope.namespace} get lease exporter-set-controller-{{ $labels.provisioner }} -o yaml\`: holderIdentity and renewTime. A holder that no longer exists keeps others out until leaseDurationSeconds passes.`,
          'The replicas\' logs for "leader election request failed" (run with --log-level=debug): 403 means the leader-election Role or RoleBinding is missing; timeouts mean the API server is unreachable.',
          'Whether the informer caches synced: a replica starts leading only after /readyz passes (missing CRDs keep it waiting).',
        ],
        fix: [
          'Re-apply the installer to restore the leader-election Role and RoleBinding.',
          'A stale holder: delete the coordination Lease; a replica takes it at its next retry.',
          'Fix the API server connectivity or the missing CRDs the readiness check names.',
        ],
      }),
    },
    {
      alert: 'ExporterSetReconcileErrors',
      expr: 'sum by (namespace, exporterset) (rate(jumpstarter_exporterset_reconcile_errors_total[10m])) > 0',
      for: '15m',
      severity: 'warning',
      summary: 'Reconciling {{ $labels.namespace }}/{{ $labels.exporterset }} keeps failing',
      description:
        'Reconcile passes of {{ $labels.namespace }}/{{ $labels.exporterset }} have failed in every 10-minute window for 15 minutes.',
      runbook: runbook({
        meaning:
          'The controller retries a failed pass with backoff; errors that persist mean the pool is not brought to its spec (instances not created, deleted or patched, status stale).',
        check: [
          'The controller\'s log lines "reconcile failed" for namespace={{ $labels.namespace }} exporterset={{ $labels.exporterset }}: the error names the object and the API answer.',
          "Forbidden (403): the namespace is not among the installer's watchNamespaces, or the Role lacks a rule after an upgrade.",
          "Conflicts or webhooks rejecting writes: another controller or an admission policy changing the set's Exporters or Pods.",
          "The set's status conditions (`kubectl describe exporterset`).",
        ],
        fix: [
          'Re-apply the installer after upgrades so RBAC matches the controller version; add the namespace to watchNamespaces.',
          'Remove or adjust the admission policy or other writer; the controller picks up again on its next retry.',
        ],
      }),
    },
  ];
}
