/**
 * Jumpstarter's lease assignment (INTEROP §2 steps 1–9) as a pure function of plain data, so every
 * step can be table-tested and the simulator cannot drift from the contract our controller is
 * built against. One call decides one unassigned, not-ended lease; the simulator writes the result.
 */
import {
  ExporterConditionTypes,
  matchesSelector,
  tryParseDuration,
  validateLabelSelector,
  type Exporter,
  type LabelSelector,
  type Lease,
} from 'virtual-exporters/internal';
import { isConditionTrue } from './conditions';

/** Condition reasons the assignment writes (INTEROP §2 names all but the Invalid ones and Ready's). */
export const AssignmentReasons = {
  /** Step 2: neither a non-empty selector nor a pin. */
  EmptySelector: 'EmptySelector',
  /** Step 2 (our addition): a selector the API server could not build (bad operator, values, syntax). */
  InvalidSelector: 'InvalidSelector',
  /** Step 2 (our addition): `spec.duration` is not a positive Go duration, or a time is unreadable. */
  InvalidDuration: 'InvalidDuration',
  InvalidTime: 'InvalidTime',
  ExporterNotFound: 'ExporterNotFound',
  SelectorMismatch: 'SelectorMismatch',
  ExporterDisabled: 'ExporterDisabled',
  AllDisabled: 'AllDisabled',
  NoAccess: 'NoAccess',
  Offline: 'Offline',
  NotAvailable: 'NotAvailable',
  NotReady: 'NotReady',
  /** `Ready=True` on assignment. */
  Acquired: 'Acquired',
} as const;

/** What an access policy grants a lease on one exporter (INTEROP §2 step 5 and the ordering of step 7). */
export interface AccessGrant {
  readonly priority: number;
  readonly spotAccess: boolean;
}

/** Returns the grant, or `undefined` when the lease's client may not use the exporter. */
export type AccessPolicy = (exporter: Exporter, lease: Lease) => AccessGrant | undefined;

/** Without access policies every client may use every exporter, at priority 0, not as spot. */
export const allowAll: AccessPolicy = () => ({ priority: 0, spotAccess: false });

export interface AssignmentInput {
  readonly lease: Lease;
  /** The Exporters of the lease's namespace. */
  readonly exporters: readonly Exporter[];
  /** Names of exporters an active (not ended) lease holds. */
  readonly leasedExporters: ReadonlySet<string>;
  /** Clock reading, ms since the epoch. */
  readonly now: number;
  /** @default allowAll */
  readonly accessPolicy?: AccessPolicy;
}

export type Assignment =
  /** Step 1: `beginTime` is in the future; decide again at `until`. No condition is written. */
  | { readonly action: 'wait'; readonly until: number }
  /** The lease can never be served: set `condition=True` with `reason`, and end it. */
  | {
      readonly action: 'end';
      readonly condition: 'Invalid' | 'Unsatisfiable';
      readonly reason: string;
      readonly message: string;
    }
  /** The lease waits: `Pending=True` with `reason`; retried with backoff and on Exporter changes. */
  | {
      readonly action: 'pending';
      readonly reason: 'Offline' | 'NotAvailable' | 'NotReady';
      readonly message: string;
    }
  /** Step 9: assign `exporter` (status.exporterRef, beginTime, Ready=True, ownerReference). */
  | { readonly action: 'assign'; readonly exporter: Exporter; readonly grant: AccessGrant };

/** True when the selector has at least one matchLabels entry or matchExpressions requirement. */
export function isNonEmptySelector(selector: LabelSelector | undefined): boolean {
  return Object.keys(selector?.matchLabels ?? {}).length > 0 || (selector?.matchExpressions ?? []).length > 0;
}

export function isEnabled(exporter: Exporter): boolean {
  return exporter.spec?.enabled !== false;
}

/** Step 6's test: the exporter process registered and reports in. */
export function isOnline(exporter: Exporter): boolean {
  const conditions = exporter.status?.conditions;
  return (
    isConditionTrue(conditions, ExporterConditionTypes.Registered) &&
    isConditionTrue(conditions, ExporterConditionTypes.Online)
  );
}

/** Step 8's test: the exporter reports a state in which it accepts a lease. */
export function isReadyForLease(exporter: Exporter): boolean {
  const status = exporter.status?.exporterStatus;
  return status === undefined || status === 'Available' || status === 'Unspecified' || String(status) === '';
}

const nameOf = (exporter: Exporter): string => exporter.metadata.name ?? '';

function end(condition: 'Invalid' | 'Unsatisfiable', reason: string, message: string): Assignment {
  return { action: 'end', condition, reason, message };
}

/** Step 2, extended with the spec errors upstream's webhook and parser reject. */
function invalidity(lease: Lease): Assignment | undefined {
  const { selector, exporterRef, duration, endTime } = lease.spec;
  const pinned = (exporterRef?.name ?? '') !== '';
  if (!isNonEmptySelector(selector) && !pinned) {
    return end('Invalid', AssignmentReasons.EmptySelector, 'one of selector or exporterRef.name is required');
  }
  const selectorIssues = validateLabelSelector(selector, 'spec.selector');
  if (selectorIssues.length > 0) {
    const issue = selectorIssues[0];
    return end('Invalid', AssignmentReasons.InvalidSelector, `${issue.path}: ${issue.message}`);
  }
  if (duration !== undefined) {
    const ms = tryParseDuration(duration);
    if (ms === undefined || ms <= 0) {
      return end(
        'Invalid',
        AssignmentReasons.InvalidDuration,
        `spec.duration ${JSON.stringify(duration)} is not a positive duration such as 30m or 1h`,
      );
    }
  }
  if (endTime !== undefined && Number.isNaN(Date.parse(endTime))) {
    return end(
      'Invalid',
      AssignmentReasons.InvalidTime,
      `spec.endTime ${JSON.stringify(endTime)} is not a time`,
    );
  }
  return undefined;
}

/** Steps 3–5: the exporters the lease may be assigned to, or why there are none. */
function candidates(
  input: AssignmentInput,
  policy: AccessPolicy,
): { approved: { exporter: Exporter; grant: AccessGrant }[] } | { ended: Assignment } {
  const { lease, exporters } = input;
  const { selector, exporterRef, allowDisabled } = lease.spec;
  const pin = exporterRef?.name ?? '';
  let enabled: Exporter[];
  if (pin !== '') {
    const exporter = exporters.find((e) => nameOf(e) === pin);
    if (exporter === undefined) {
      return {
        ended: end('Unsatisfiable', AssignmentReasons.ExporterNotFound, `exporter ${pin} does not exist`),
      };
    }
    if (isNonEmptySelector(selector) && !matchesSelector(selector, exporter.metadata.labels)) {
      return {
        ended: end(
          'Unsatisfiable',
          AssignmentReasons.SelectorMismatch,
          `exporter ${pin} does not match the lease's selector`,
        ),
      };
    }
    if (!isEnabled(exporter) && allowDisabled !== true) {
      return {
        ended: end(
          'Unsatisfiable',
          AssignmentReasons.ExporterDisabled,
          `exporter ${pin} is disabled (set allowDisabled to lease it anyway)`,
        ),
      };
    }
    enabled = [exporter];
  } else {
    const matched = exporters.filter((e) => matchesSelector(selector, e.metadata.labels));
    enabled = matched.filter(isEnabled);
    if (matched.length > 0 && enabled.length === 0) {
      return {
        ended: end(
          'Unsatisfiable',
          AssignmentReasons.AllDisabled,
          `all ${matched.length} exporters matching the selector are disabled`,
        ),
      };
    }
  }
  const approved: { exporter: Exporter; grant: AccessGrant }[] = [];
  for (const exporter of enabled) {
    const grant = policy(exporter, lease);
    if (grant !== undefined) approved.push({ exporter, grant });
  }
  if (approved.length === 0) {
    return {
      ended: end(
        'Unsatisfiable',
        AssignmentReasons.NoAccess,
        enabled.length === 0
          ? 'no exporter matches the selector'
          : 'the client has access to none of the matching exporters',
      ),
    };
  }
  return { approved };
}

/** Decides one not-ended, unassigned lease, exactly as INTEROP §2 steps 1–9. */
export function decideAssignment(input: AssignmentInput): Assignment {
  const { lease, leasedExporters, now } = input;
  const policy = input.accessPolicy ?? allowAll;

  // 1. A future beginTime: wait, without a condition.
  const beginTime = lease.spec.beginTime;
  if (beginTime !== undefined) {
    const begin = Date.parse(beginTime);
    if (Number.isNaN(begin)) {
      return end(
        'Invalid',
        AssignmentReasons.InvalidTime,
        `spec.beginTime ${JSON.stringify(beginTime)} is not a time`,
      );
    }
    if (begin > now) return { action: 'wait', until: begin };
  }

  // 2. Empty selector and no pin (and other specs no exporter could ever serve).
  const invalid = invalidity(lease);
  if (invalid !== undefined) return invalid;

  // 3–5. Pinned exporter, or enabled matches; access policies; nothing at all ends the lease at once.
  const found = candidates(input, policy);
  if ('ended' in found) return found.ended;

  // 6. Registered and online only.
  const online = found.approved.filter((c) => isOnline(c.exporter));
  if (online.length === 0) {
    return {
      action: 'pending',
      reason: 'Offline',
      message: `none of the ${found.approved.length} matching exporters is online`,
    };
  }

  // 7. Not leased first, non-spot first, higher priority first, name ascending; then drop the leased.
  const leased = (c: { exporter: Exporter }): boolean => leasedExporters.has(nameOf(c.exporter));
  const ordered = [...online].sort(
    (a, b) =>
      Number(leased(a)) - Number(leased(b)) ||
      Number(a.grant.spotAccess) - Number(b.grant.spotAccess) ||
      b.grant.priority - a.grant.priority ||
      (nameOf(a.exporter) < nameOf(b.exporter) ? -1 : nameOf(a.exporter) > nameOf(b.exporter) ? 1 : 0),
  );
  const free = ordered.filter((c) => !leased(c));
  if (free.length === 0) {
    return {
      action: 'pending',
      reason: 'NotAvailable',
      message: `all ${online.length} online matching exporters are leased`,
    };
  }

  // 8. Only exporters that report a state accepting a lease.
  const ready = free.filter((c) => isReadyForLease(c.exporter));
  if (ready.length === 0) {
    return {
      action: 'pending',
      reason: 'NotReady',
      message: `none of the ${free.length} free matching exporters reports Available`,
    };
  }

  // 9. The first one.
  return { action: 'assign', exporter: ready[0].exporter, grant: ready[0].grant };
}
