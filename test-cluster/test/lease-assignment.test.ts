/**
 * INTEROP §2 steps 1–9, one table per step, on the pure assignment function the Jumpstarter
 * simulator uses: our controller is built against exactly this behaviour (notably NoAccess at once
 * when nothing matches, which is why pools keep a standby Exporter).
 */
import { describe, expect, it } from '@jest/globals';
import type {
  Exporter,
  ExporterStatusValue,
  LabelSelector,
  Lease,
  LeaseSpec,
} from 'virtual-exporters/internal';
import { decideAssignment, type AccessPolicy, type Assignment } from '../src/jumpstarter/lease-assignment';

const NOW = Date.UTC(2025, 0, 1, 12);
const T = '2025-01-01T00:00:00.000Z';

interface ExporterOptions {
  labels?: Record<string, string>;
  enabled?: boolean;
  registered?: boolean;
  online?: boolean;
  exporterStatus?: ExporterStatusValue | '';
}

function exporter(name: string, options: ExporterOptions = {}): Exporter {
  const {
    labels = { board: 'rpi4' },
    enabled,
    registered = true,
    online = true,
    exporterStatus = 'Available',
  } = options;
  const condition = (type: string, ok: boolean) => ({
    type,
    status: ok ? ('True' as const) : ('False' as const),
    reason: ok ? 'Seen' : 'Offline',
    message: '',
    lastTransitionTime: T,
  });
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Exporter',
    metadata: { name, namespace: 'lab', uid: `uid-${name}`, labels },
    spec: enabled === undefined ? {} : { enabled },
    status: {
      conditions: [condition('Registered', registered), condition('Online', online)],
      ...(exporterStatus === '' ? {} : { exporterStatus: exporterStatus as ExporterStatusValue }),
    },
  };
}

function lease(spec: Partial<LeaseSpec> = {}): Lease {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l1', namespace: 'lab', creationTimestamp: T },
    spec: { clientRef: { name: 'client' }, selector: { matchLabels: { board: 'rpi4' } }, ...spec },
  };
}

function decide(
  l: Lease,
  exporters: Exporter[],
  leased: string[] = [],
  accessPolicy?: AccessPolicy,
): Assignment {
  return decideAssignment({
    lease: l,
    exporters,
    leasedExporters: new Set(leased),
    now: NOW,
    ...(accessPolicy ? { accessPolicy } : {}),
  });
}

/** One test per row, named `<first column> → <last column>` (the case and its expected outcome). */
function cases<R extends [string, ...unknown[]]>(rows: R[], test: (...row: R) => void): void {
  for (const row of rows) it(`${row[0]} → ${String(row[row.length - 1])}`, () => test(...row));
}

/** The decision without messages: what a table row asserts. */
function outcome(a: Assignment): string {
  switch (a.action) {
    case 'wait':
      return `wait until ${new Date(a.until).toISOString()}`;
    case 'end':
      return `end ${a.condition}/${a.reason}`;
    case 'pending':
      return `pending ${a.reason}`;
    case 'assign':
      return `assign ${a.exporter.metadata.name}`;
  }
}

describe('step 1: a future beginTime waits without a condition', () => {
  cases<[string, string, string]>(
    [
      ['an hour ahead', '2025-01-01T13:00:00.000Z', 'wait until 2025-01-01T13:00:00.000Z'],
      ['a millisecond ahead', '2025-01-01T12:00:00.001Z', 'wait until 2025-01-01T12:00:00.001Z'],
      ['exactly now', '2025-01-01T12:00:00.000Z', 'assign e1'],
      ['in the past', '2025-01-01T11:00:00.000Z', 'assign e1'],
    ],
    (_label, beginTime, expected) => {
      expect(outcome(decide(lease({ beginTime }), [exporter('e1')]))).toBe(expected);
    },
  );

  it('waits even when no exporter could ever serve the lease (steps 2–5 come after)', () => {
    expect(outcome(decide(lease({ beginTime: '2025-01-02T00:00:00Z', selector: {} }), []))).toBe(
      'wait until 2025-01-02T00:00:00.000Z',
    );
  });
});

describe('step 2: an empty selector without a pin is Invalid and ends', () => {
  cases<[string, LabelSelector, string]>(
    [
      ['no selector entries', {}, 'end Invalid/EmptySelector'],
      [
        'empty matchLabels and matchExpressions',
        { matchLabels: {}, matchExpressions: [] },
        'end Invalid/EmptySelector',
      ],
      [
        'an unknown operator',
        { matchExpressions: [{ key: 'board', operator: 'Is' as never }] },
        'end Invalid/InvalidSelector',
      ],
    ],
    (_label, selector, expected) => {
      expect(outcome(decide(lease({ selector }), [exporter('e1')]))).toBe(expected);
    },
  );

  it('accepts an empty selector when the lease pins an exporter', () => {
    expect(outcome(decide(lease({ selector: {}, exporterRef: { name: 'e1' } }), [exporter('e1')]))).toBe(
      'assign e1',
    );
  });

  cases<[string, string]>(
    [
      ['duration 0s', 'end Invalid/InvalidDuration'],
      ['duration soon', 'end Invalid/InvalidDuration'],
      ['duration -5m', 'end Invalid/InvalidDuration'],
    ],
    (label, expected) => {
      const duration = label.slice('duration '.length);
      expect(outcome(decide(lease({ duration }), [exporter('e1')]))).toBe(expected);
    },
  );
});

describe('step 3: a pinned lease takes its exporter or ends Unsatisfiable', () => {
  const rpi = exporter('e1');
  const disabled = exporter('e1', { enabled: false });
  cases<[string, Partial<LeaseSpec>, Exporter[], string[], string]>(
    [
      [
        'the exporter exists and matches',
        { exporterRef: { name: 'e1' } },
        [rpi, exporter('e0')],
        [],
        'assign e1',
      ],
      [
        'the exporter does not exist',
        { exporterRef: { name: 'gone' } },
        [rpi],
        [],
        'end Unsatisfiable/ExporterNotFound',
      ],
      [
        'the exporter misses the non-empty selector',
        { exporterRef: { name: 'e1' }, selector: { matchLabels: { board: 'sa8295' } } },
        [rpi],
        [],
        'end Unsatisfiable/SelectorMismatch',
      ],
      [
        'the exporter is disabled',
        { exporterRef: { name: 'e1' } },
        [disabled],
        [],
        'end Unsatisfiable/ExporterDisabled',
      ],
      [
        'the exporter is disabled but allowDisabled is set',
        { exporterRef: { name: 'e1' }, allowDisabled: true },
        [disabled],
        [],
        'assign e1',
      ],
      [
        'the exporter is offline',
        { exporterRef: { name: 'e1' } },
        [exporter('e1', { online: false })],
        [],
        'pending Offline',
      ],
      [
        'the exporter is leased (another is free)',
        { exporterRef: { name: 'e1' } },
        [rpi, exporter('e2')],
        ['e1'],
        'pending NotAvailable',
      ],
    ],
    (_label, spec, exporters, leased, expected) => {
      expect(outcome(decide(lease(spec), exporters, leased))).toBe(expected);
    },
  );

  it('ignores allowDisabled for selector leases', () => {
    expect(outcome(decide(lease({ allowDisabled: true }), [exporter('e1', { enabled: false })]))).toBe(
      'end Unsatisfiable/AllDisabled',
    );
  });
});

describe('step 4: disabled exporters are no candidates', () => {
  cases<[string, Exporter[], string]>(
    [
      ['one of two matching is disabled', [exporter('e1', { enabled: false }), exporter('e2')], 'assign e2'],
      [
        'all matching are disabled',
        [exporter('e1', { enabled: false }), exporter('e2', { enabled: false })],
        'end Unsatisfiable/AllDisabled',
      ],
      [
        'the only enabled one does not match',
        [exporter('e1', { enabled: false }), exporter('e2', { labels: { board: 'other' } })],
        'end Unsatisfiable/AllDisabled',
      ],
      ['enabled: true explicitly', [exporter('e1', { enabled: true })], 'assign e1'],
    ],
    (_label, exporters, expected) => {
      expect(outcome(decide(lease(), exporters))).toBe(expected);
    },
  );
});

describe('step 5: no candidate at all ends the lease Unsatisfiable/NoAccess at once', () => {
  cases<[string, Exporter[], AccessPolicy | undefined, string]>(
    [
      ['no exporters in the namespace', [], undefined, 'end Unsatisfiable/NoAccess'],
      [
        'exporters that match nothing',
        [exporter('e1', { labels: { board: 'other' } })],
        undefined,
        'end Unsatisfiable/NoAccess',
      ],
      [
        'an exporter without labels',
        [exporter('e1', { labels: {} })],
        undefined,
        'end Unsatisfiable/NoAccess',
      ],
      [
        'a policy that denies every exporter',
        [exporter('e1')],
        () => undefined,
        'end Unsatisfiable/NoAccess',
      ],
      [
        'a policy that denies some',
        [exporter('e1'), exporter('e2')],
        (e) => (e.metadata.name === 'e2' ? { priority: 0, spotAccess: false } : undefined),
        'assign e2',
      ],
    ],
    (_label, exporters, policy, expected) => {
      expect(outcome(decide(lease(), exporters, [], policy))).toBe(expected);
    },
  );

  it('ends at once even when the matching exporters would be offline (NoAccess comes before step 6)', () => {
    expect(outcome(decide(lease(), [exporter('e1', { online: false })], [], () => undefined))).toBe(
      'end Unsatisfiable/NoAccess',
    );
  });
});

describe('step 6: only Registered and Online exporters; none → Pending/Offline', () => {
  cases<[string, Exporter[], string]>(
    [
      ['the only one is offline', [exporter('e1', { online: false })], 'pending Offline'],
      ['the only one is not registered', [exporter('e1', { registered: false })], 'pending Offline'],
      ['a standby (never seen)', [exporter('e1', { registered: false, online: false })], 'pending Offline'],
      ['one offline, one online', [exporter('a', { online: false }), exporter('b')], 'assign b'],
    ],
    (_label, exporters, expected) => {
      expect(outcome(decide(lease(), exporters))).toBe(expected);
    },
  );

  it('is Offline, not NotAvailable, when the offline exporters are also leased', () => {
    expect(outcome(decide(lease(), [exporter('e1', { online: false })], ['e1']))).toBe('pending Offline');
  });
});

describe('step 7: ordering and leased candidates', () => {
  const grants: Record<string, { priority: number; spotAccess: boolean }> = {};
  const policy: AccessPolicy = (e) => grants[e.metadata.name ?? ''] ?? { priority: 0, spotAccess: false };

  cases<[string, string[], Record<string, { priority: number; spotAccess: boolean }>, string[], string]>(
    [
      ['name ascending among equals', ['c', 'a', 'b'], {}, [], 'assign a'],
      ['leased candidates are dropped', ['a', 'b'], {}, ['a'], 'assign b'],
      ['all online candidates leased', ['a', 'b'], {}, ['a', 'b'], 'pending NotAvailable'],
      ['non-spot before spot', ['a', 'b'], { a: { priority: 0, spotAccess: true } }, [], 'assign b'],
      ['higher priority first', ['a', 'b'], { b: { priority: 10, spotAccess: false } }, [], 'assign b'],
      [
        'non-spot wins over a higher-priority spot grant',
        ['a', 'b'],
        { a: { priority: 100, spotAccess: true }, b: { priority: 1, spotAccess: false } },
        [],
        'assign b',
      ],
      [
        'priority decides among spot grants',
        ['a', 'b'],
        { a: { priority: 1, spotAccess: true }, b: { priority: 5, spotAccess: true } },
        [],
        'assign b',
      ],
      [
        'a leased high-priority exporter is dropped, not waited for',
        ['a', 'b'],
        { a: { priority: 9, spotAccess: false } },
        ['a'],
        'assign b',
      ],
    ],
    (_label, names, granted, leased, expected) => {
      for (const key of Object.keys(grants)) delete grants[key];
      Object.assign(grants, granted);
      expect(
        outcome(
          decide(
            lease(),
            names.map((n) => exporter(n)),
            leased,
            policy,
          ),
        ),
      ).toBe(expected);
    },
  );

  it('returns the grant of the chosen exporter', () => {
    const decision = decide(lease(), [exporter('a')], [], () => ({ priority: 7, spotAccess: true }));
    expect(decision).toMatchObject({ action: 'assign', grant: { priority: 7, spotAccess: true } });
  });
});

describe('step 8: exporterStatus must accept a lease', () => {
  cases<[string, string]>(
    [
      ['Available', 'assign e1'],
      ['Unspecified', 'assign e1'],
      ['(absent)', 'assign e1'],
      ['LeaseReady', 'pending NotReady'],
      ['BeforeLeaseHook', 'pending NotReady'],
      ['AfterLeaseHook', 'pending NotReady'],
      ['BeforeLeaseHookFailed', 'pending NotReady'],
      ['AfterLeaseHookFailed', 'pending NotReady'],
      ['Offline', 'pending NotReady'],
    ],
    (shown, expected) => {
      const exporterStatus = shown === '(absent)' ? '' : (shown as ExporterStatusValue);
      expect(outcome(decide(lease(), [exporter('e1', { exporterStatus })]))).toBe(expected);
    },
  );

  it('skips a busy exporter for a ready one later in the order', () => {
    expect(
      outcome(decide(lease(), [exporter('a', { exporterStatus: 'AfterLeaseHook' }), exporter('b')])),
    ).toBe('assign b');
  });
});

describe('step 9: the first remaining candidate is assigned', () => {
  it('matches selectors with expressions as the API server does', () => {
    const l = lease({
      selector: {
        matchLabels: { board: 'rpi4' },
        matchExpressions: [{ key: 'pool', operator: 'In', values: ['ci', 'dev'] }],
      },
    });
    const exporters = [
      exporter('a', { labels: { board: 'rpi4', pool: 'prod' } }),
      exporter('b', { labels: { board: 'rpi4', pool: 'dev' } }),
    ];
    expect(outcome(decide(l, exporters))).toBe('assign b');
  });
});
