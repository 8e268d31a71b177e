/**
 * The random lab of a seed: the same seed always plans the same lab, different seeds differ, and every
 * plan is one our CRDs admit (floors within ceilings) with operations in time order inside the chaos.
 */
import { describe, expect, it } from '@jest/globals';
import { planLab, type LabOperation } from '../../src/simulation/lab-plan';
import { seededRandom } from '../../src/simulation/random';

describe('simulation › lab plan', () => {
  it('is a pure function of the seed', () => {
    expect(planLab(42)).toEqual(planLab(42));
    expect(planLab(42)).not.toEqual(planLab(43));
  });

  it('plans admissible sets and ordered operations within the chaos phase', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const plan = planLab(seed, { chaosMs: 30_000 });
      expect(plan.sets.length).toBeGreaterThanOrEqual(1);
      for (const s of plan.sets) {
        if (s.maxReplicas > 0) {
          expect(s.minAvailableReplicas).toBeLessThanOrEqual(s.maxReplicas);
          expect(s.minReplicas).toBeLessThanOrEqual(s.maxReplicas);
        }
        const classes = [...plan.classes, ...(plan.overlapClass ? [plan.overlapClass] : [])];
        expect(classes.map((c) => c.name)).toContain(s.className);
        // The overlapping pair grows only for leases: no floor, no warm buffer.
        if (s.overlap) expect([s.minReplicas, s.minAvailableReplicas]).toEqual([0, 0]);
      }
      const times = plan.operations.map((o) => o.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times.every((t) => t >= 0 && t < 30_000)).toBe(true);
      for (const { operation } of plan.operations) {
        if (operation.kind === 'resize' && operation.maxReplicas > 0) {
          const set = plan.sets.find((s) => s.name === operation.set)!;
          expect(operation.minAvailableReplicas).toBeLessThanOrEqual(operation.maxReplicas);
          expect(set.minReplicas).toBeLessThanOrEqual(operation.maxReplicas);
        }
      }
    }
  });

  it('covers every kind of operation and fault over a few seeds', () => {
    const kinds = new Set<string>();
    let faulty = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const plan = planLab(seed);
      plan.operations.forEach((o) => kinds.add(o.operation.kind));
      if (plan.faults.errorRate > 0 && plan.faults.dropWatches + plan.faults.expireWatches > 0) faulty += 1;
    }
    expect([...kinds].sort()).toEqual(
      [
        'class-edit',
        'clock-skew',
        'crash-pod',
        'delete-set',
        'exporter-operation',
        'lease',
        'lease-crd-appears',
        'never-ready',
        'pause',
        'pool-ops',
        'pin',
        'release',
        'resize',
        'restart-controller',
        'shared-lease',
        'tamper-status',
        'template',
      ].sort(),
    );
    expect(faulty).toBeGreaterThan(0);
  });

  it('plans ExporterOperations from their own stream: every operation, each Disable followed by an Enable after its deadline, or on a set deleted by then', () => {
    const names = new Set<string>();
    for (let seed = 1; seed <= 30; seed++) {
      const plan = planLab(seed);
      const ops = plan.operations.filter((o) => o.operation.kind === 'exporter-operation');
      for (const o of ops) {
        const op = o.operation as Extract<LabOperation, { kind: 'exporter-operation' }>;
        names.add(op.operation);
        if (op.operation !== 'Disable') continue;
        const enabledAfterDeadline = ops.some(
          (e) =>
            (e.operation as typeof op).operation === 'Enable' &&
            (e.operation as typeof op).set === op.set &&
            e.atMs - o.atMs >= (op.deadlineSeconds! + 5) * 1000,
        );
        // A set deleted before it, or right after, drains the instance: nothing stays disabled.
        const deleted = plan.operations.some(
          (d) => d.operation.kind === 'delete-set' && d.operation.set === op.set && d.atMs - o.atMs <= 3_000,
        );
        expect(enabledAfterDeadline || deleted).toBe(true);
      }
    }
    expect([...names].sort()).toEqual(['Disable', 'Drain', 'Enable', 'Recycle']);
  });

  it('gives forecasts to plain sets only, with a seeded peak, mostly in mode Apply', () => {
    const modes: string[] = [];
    for (let seed = 1; seed <= 100; seed++) {
      for (const s of planLab(seed).sets) {
        if (!s.forecast) continue;
        expect(s.overlap).toBeUndefined();
        expect(s.forecast.peak).toBeGreaterThanOrEqual(1);
        modes.push(s.forecast.mode);
      }
    }
    expect(modes.filter((m) => m === 'Apply').length).toBeGreaterThan(40);
    expect(modes).toContain('ForecastOnly');
  });

  it('puts windows on both overlapping sets at once in most seeds that have them', () => {
    let withPair = 0;
    let both = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const plan = planLab(seed);
      if (!plan.overlapClass) continue;
      withPair += 1;
      const windowed = new Set(
        plan.operations.flatMap(({ operation: o }) =>
          o.kind === 'pool-ops' && o.change.field === 'schedules' && o.change.value !== null ? [o.set] : [],
        ),
      );
      if (windowed.has('overlap-a') && windowed.has('overlap-b')) both += 1;
    }
    expect(both).toBeGreaterThan(withPair / 2);
  });

  it('deletes a set between two ExporterOperations on it in some seeds', () => {
    let seeds = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const ops = planLab(seed).operations;
      const deleted = ops.filter((o) => o.operation.kind === 'delete-set');
      const around = deleted.some(({ atMs, operation: d }) => {
        const on = (o: (typeof ops)[number]) =>
          o.operation.kind === 'exporter-operation' && o.operation.set === (d as { set: string }).set;
        return (
          ops.some((o) => on(o) && o.atMs < atMs && atMs - o.atMs <= 3_000) &&
          ops.some((o) => on(o) && o.atMs > atMs && o.atMs - atMs <= 8_000)
        );
      });
      if (around) seeds += 1;
    }
    expect(seeds).toBeGreaterThan(25);
  });

  it('draws uniformly enough from the seeded generator', () => {
    const random = seededRandom(7);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[random.int(0, 3)] += 1;
    for (const c of counts) expect(c).toBeGreaterThan(850);
  });

  it('refuses writes for a stretch in a minority of seeds, each kind in dozens of 300, lifted within the chaos', () => {
    const codes: number[] = [];
    let withRefusals = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const { faults, chaosMs } = planLab(seed);
      if (faults.refusals.length > 0) withRefusals += 1;
      for (const r of faults.refusals) {
        codes.push(r.code);
        expect(r.fromMs).toBeLessThanOrEqual(r.toMs);
        expect(r.toMs).toBeLessThan(chaosMs);
      }
    }
    expect(withRefusals).toBeLessThan(200);
    expect(codes.filter((c) => c === 403).length).toBeGreaterThan(24);
    expect(codes.filter((c) => c === 422).length).toBeGreaterThan(24);
  });
});
