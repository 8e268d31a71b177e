import type { ValidationIssue } from '../core/issue';
import { validateDns1123Label, validateLabels } from '../core/names';
import { getProvisioner, knownProvisionerNames } from '../provisioners/registry';
import type { ExporterSetControllerInput } from './installer';
import type { OpsPackInput } from './ops-pack';

/** A Prometheus duration such as `30s` or `1m30s` (units ms, s, m, h, d, w, y; largest first). */
const PROMETHEUS_DURATION = /^(?:\d+y)?(?:\d+w)?(?:\d+d)?(?:\d+h)?(?:\d+m)?(?:\d+s)?(?:\d+ms)?$/;

function opsPackIssues(opsPack: OpsPackInput | undefined): ValidationIssue[] {
  if (opsPack === undefined) return [];
  const issues = validateLabels(opsPack.labels, 'opsPack.labels');
  const interval = opsPack.scrapeInterval;
  if (
    interval !== undefined &&
    (interval === '' || !PROMETHEUS_DURATION.test(interval) || !/[1-9]/.test(interval))
  ) {
    issues.push({
      path: 'opsPack.scrapeInterval',
      value: interval,
      message:
        'must be a positive Prometheus duration such as "30s" or "1m30s" (units y, w, d, h, m, s, ms, largest first)',
    });
  }
  return issues;
}

function positiveInteger(path: string, value: number | undefined, min: number): ValidationIssue[] {
  if (value === undefined || (Number.isInteger(value) && value >= min)) return [];
  return [{ path, value, message: `must be a whole number of at least ${min}` }];
}

function namespaceIssues(path: string, value: string): ValidationIssue[] {
  return validateDns1123Label(value).map((message) => ({ path, value, message: `namespace ${message}` }));
}

/** Registered provisioners only: the reserved JEP names are known but have no controller to deploy. */
function implementedProvisioners(): string[] {
  return knownProvisionerNames().filter((name) => getProvisioner(name) !== undefined);
}

/**
 * The installer's argument rules: names Kubernetes accepts, provisioners this controller build
 * implements (a Deployment for any other would crash-loop), and settings that cannot fight.
 */
export function validateExporterSetControllerInput(input: ExporterSetControllerInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.namespace !== undefined) issues.push(...namespaceIssues('namespace', input.namespace));

  const provisioners = input.provisioners;
  if (provisioners !== undefined) {
    if (provisioners.length === 0) {
      issues.push({
        path: 'provisioners',
        value: provisioners,
        message: 'must name at least one provisioner; each gets its own controller Deployment',
      });
    }
    provisioners.forEach((p, i) => {
      if (!getProvisioner(p)) {
        issues.push({
          path: `provisioners[${i}]`,
          value: p,
          message: `is not a provisioner the controller implements; use one of: ${implementedProvisioners().join(', ')}`,
        });
      } else if (provisioners.indexOf(p) !== i) {
        issues.push({
          path: `provisioners[${i}]`,
          value: p,
          message: 'is listed twice; each provisioner runs once',
        });
      }
    });
  }

  (input.watchNamespaces ?? []).forEach((ns, i, all) => {
    issues.push(...namespaceIssues(`watchNamespaces[${i}]`, ns));
    if (all.indexOf(ns) !== i) {
      issues.push({ path: `watchNamespaces[${i}]`, value: ns, message: 'is listed twice' });
    }
  });

  issues.push(...positiveInteger('replicas', input.replicas, 1));
  if ((input.replicas ?? 1) > 1 && input.leaderElect === false) {
    issues.push({
      path: 'replicas',
      value: input.replicas,
      message:
        'more than one replica needs leaderElect: true, or the replicas would reconcile the same sets at once',
    });
  }
  issues.push(...positiveInteger('maxBurst', input.maxBurst, 1));
  issues.push(...positiveInteger('workers', input.workers, 1));
  issues.push(...opsPackIssues(input.opsPack));
  return issues;
}
