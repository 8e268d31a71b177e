/**
 * Properties of scheduled warm buffers against the scaling rules, over random pools and times around a
 * window: the ceiling holds, a schedule never removes an instance the same pool without it would keep,
 * and the buffer is raised exactly from the lead time to the window's close.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { ExporterSetStatus, Lease } from 'virtual-exporters/internal';
import { plan, type Plan, type PlannerSnapshot } from '../../src/planner';
import { at, instance, lease, makeSet, ofType, snapshot, SET, type Shape } from './builders';

const MIN = 60_000;
// T0 is 12:00 UTC; the window opens daily at 13:00 for two hours.
const OPEN = 60 * MIN;
const CLOSE = 3 * 60 * MIN;

const pool = fc.record({
  minReplicas: fc.integer({ min: 0, max: 4 }),
  maxReplicas: fc.integer({ min: 0, max: 8 }),
  minAvailable: fc.integer({ min: 0, max: 4 }),
  raise: fc.integer({ min: 0, max: 12 }),
  raiseFloor: fc.option(fc.integer({ min: 0, max: 12 })),
  leadMin: fc.integer({ min: 0, max: 30 }),
  /** Minutes after T0: before, during the lead, open, and after the close. */
  nowMin: fc.integer({ min: 0, max: 240 }),
  shapes: fc.array(fc.constantFrom<Shape>('available', 'available', 'starting', 'standby', 'offline'), {
    maxLength: 10,
  }),
  leased: fc.array(fc.boolean(), { maxLength: 10 }),
  pending: fc.integer({ min: 0, max: 3 }),
  window: fc.option(
    fc.record({ agoMin: fc.integer({ min: 0, max: 10 }), target: fc.integer({ min: 0, max: 6 }) }),
  ),
});
type Pool = typeof pool extends fc.Arbitrary<infer P> ? P : never;

function build(p: Pool, withSchedule: boolean): PlannerSnapshot {
  const leases: Lease[] = [];
  const instances = p.shapes.map((shape, i) => {
    if (p.leased[i] && shape === 'available') leases.push(lease(`l-${i}`, { exporter: `${SET}-${i}` }));
    return instance(i, shape);
  });
  for (let i = 0; i < p.pending; i++) leases.push(lease(`pending-${i}`));
  const status: Partial<ExporterSetStatus> = {
    nextOrdinal: p.shapes.length,
    ...(p.window
      ? { scaleDownWindowStart: at(p.nowMin * MIN - p.window.agoMin * MIN), scaleDownTarget: p.window.target }
      : {}),
  };
  const set = makeSet(
    {
      minReplicas: p.minReplicas,
      maxReplicas: p.maxReplicas,
      minAvailableReplicas: p.minAvailable,
      scaleDownCooldown: '5m',
      ...(withSchedule
        ? {
            schedules: [
              {
                name: 'peak',
                cron: '0 13 * * *',
                duration: '2h',
                leadTime: `${p.leadMin}m`,
                minAvailableReplicas: p.raise,
                ...(p.raiseFloor !== null ? { minReplicas: p.raiseFloor } : {}),
              },
            ],
          }
        : {}),
    },
    { status },
  );
  return snapshot({ set, instances, leases, now: p.nowMin * MIN });
}

const removed = (result: Plan) =>
  new Set(
    result.actions
      .filter((a) => a.type === 'DeleteExporter' || a.type === 'DisableExporter')
      .map((a) => (a as { name: string }).name),
  );
/** Instances after the plan: those kept, and those it creates. */
const poolAfter = (s: PlannerSnapshot, result: Plan) =>
  s.instances.length - removed(result).size + ofType(result, 'CreateExporter').length;
/** The ready instances the plan removes. */
const readyRemoved = (result: Plan, p: Pool) =>
  [...removed(result)].filter((name) => p.shapes[Number(name.slice(SET.length + 1))] === 'available').length;

describe('scheduled warm buffers against the scaling rules', () => {
  it('never plans Pods above maxReplicas', () => {
    fc.assert(
      fc.property(pool, (p) => {
        if (p.maxReplicas === 0) return;
        const s = build(p, true);
        const realised = ofType(plan(s), 'CreateExporter').filter((c) => !c.standby).length;
        if (realised > 0) expect(s.instances.length + realised).toBeLessThanOrEqual(p.maxReplicas);
      }),
      { numRuns: 300 },
    );
  });

  // A higher buffer may replace a broken instance (an offline one leaves as surplus once a new one is
  // asked for), but it never leaves the pool smaller, nor removes a ready instance the pool would keep.
  it('never shrinks the pool nor removes a ready instance that the same pool without the schedule keeps', () => {
    fc.assert(
      fc.property(pool, (p) => {
        const [withIt, without] = [build(p, true), build(p, false)];
        const [planned, baseline] = [plan(withIt), plan(without)];
        expect(poolAfter(withIt, planned)).toBeGreaterThanOrEqual(poolAfter(without, baseline));
        expect(readyRemoved(planned, p)).toBeLessThanOrEqual(readyRemoved(baseline, p));
      }),
      { numRuns: 500 },
    );
  });

  it('raises the buffer from the lead time until the close, to the raise capped at maxReplicas', () => {
    fc.assert(
      fc.property(pool, (p) => {
        const status = plan(build(p, true)).status!;
        const now = p.nowMin * MIN;
        const raising = now >= OPEN - p.leadMin * MIN && now < CLOSE;
        const cap = p.maxReplicas === 0 ? Infinity : p.maxReplicas;
        const buffer = Math.max(p.minAvailable, Math.min(p.raise, cap));
        const floor = Math.max(p.minReplicas, Math.min(p.raiseFloor ?? 0, cap));
        const raised = raising && (buffer > p.minAvailable || floor > p.minReplicas);
        expect(status.effectiveMinAvailableReplicas).toBe(raised ? buffer : undefined);
        expect(status.schedules?.active?.length ?? 0).toBe(now >= OPEN && now < CLOSE ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});
