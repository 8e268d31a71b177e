/**
 * The periodic lease load of a seed: some seeds keep the flat load, the others add a compressed
 * working day or week — busy working hours, quiet nights and weekends, a nightly burst.
 */
import { describe, expect, it } from '@jest/globals';
import { clockOf, hourlyRate, planLeaseLoad } from '../../src/simulation/lease-load';
import { planLab } from '../../src/simulation/lab-plan';

const CHAOS = 60_000;
const SETS = ['set-0', 'set-1'];

describe('simulation › lease load', () => {
  it('is a pure function of the seed, and every pattern occurs (flat for some seeds)', () => {
    expect(planLeaseLoad(7, SETS, CHAOS)).toEqual(planLeaseLoad(7, SETS, CHAOS));
    const patterns = new Map<string, number>();
    for (let seed = 1; seed <= 60; seed++) {
      const { pattern } = planLeaseLoad(seed, SETS, CHAOS);
      patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
    }
    expect([...patterns.keys()].sort()).toEqual(['daily', 'flat', 'weekly']);
    expect(patterns.get('flat')).toBeGreaterThan(10);
  });

  it('adds nothing for a flat seed, and leases within the chaos phase for the others', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const load = planLeaseLoad(seed, SETS, CHAOS);
      if (load.pattern === 'flat') expect(load.leases).toEqual([]);
      else expect(load.leases.length).toBeGreaterThan(0);
      for (const l of load.leases) {
        expect(l.atMs).toBeGreaterThanOrEqual(0);
        expect(l.atMs).toBeLessThan(CHAOS);
        expect(SETS).toContain(l.set);
      }
    }
  });

  it('follows the clock: working hours busier than nights, weekends quiet, a burst at 02:00', () => {
    expect(hourlyRate(10, false)).toBeGreaterThan(hourlyRate(3, false));
    expect(hourlyRate(10, true)).toBeLessThan(hourlyRate(10, false));
    // Over many weekly seeds: weekday working hours carry far more leases per hour than weekends.
    let workHours = 0;
    let weekend = 0;
    let nightlyBurst = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const load = planLeaseLoad(seed, SETS, CHAOS);
      if (load.pattern !== 'weekly') continue;
      for (const l of load.leases) {
        const { day, hour } = clockOf(l.atMs, load.dayMs!);
        if (day >= 5) weekend++;
        else if (hour >= 9 && hour < 17) workHours++;
        else if (hour === 2) nightlyBurst++;
      }
    }
    // 5 days × 8 working hours vs 2 days × 24 hours.
    expect(workHours / 40).toBeGreaterThan((weekend / 48) * 5);
    expect(nightlyBurst).toBeGreaterThan(0);
  });

  it('reaches the lab plan: its leases are operations and the pattern is recorded', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const plan = planLab(seed);
      const load = planLeaseLoad(
        seed,
        plan.sets.filter((s) => !s.overlap).map((s) => s.name),
        plan.chaosMs,
      );
      expect(plan.loadPattern).toBe(load.pattern);
      const planned = plan.operations.filter((o) => o.operation.kind === 'lease').map((o) => o.atMs);
      for (const l of load.leases) expect(planned).toContain(l.atMs);
    }
  });
});
