/**
 * INTEROP §2 "Ends" on the pure function the Jumpstarter simulator uses: release, and expiry by
 * `endTime`, else the actual begin plus `duration`.
 */
import { describe, expect, it } from '@jest/globals';
import type { Lease, LeaseSpec, LeaseStatus } from 'virtual-exporters/internal';
import { decideLeaseEnd } from '../src/jumpstarter/lease-end';

const NOW = Date.UTC(2025, 0, 1, 12);
const at = (hh: number, mm = 0): string => new Date(Date.UTC(2025, 0, 1, hh, mm)).toISOString();

function lease(spec: Partial<LeaseSpec>, status?: Partial<LeaseStatus>): Lease {
  return {
    apiVersion: 'jumpstarter.dev/v1alpha1',
    kind: 'Lease',
    metadata: { name: 'l1', namespace: 'lab' },
    spec: { clientRef: { name: 'client' }, selector: { matchLabels: { board: 'rpi4' } }, ...spec },
    ...(status ? { status: { ended: false, ...status } } : {}),
  };
}

const assigned = (begin: string): Partial<LeaseStatus> => ({ exporterRef: { name: 'e1' }, beginTime: begin });

describe('lease ends', () => {
  it.each<[string, Lease, string]>([
    [
      'spec.release ends an assigned lease → Released',
      lease({ release: true }, assigned(at(11))),
      'Released',
    ],
    ['spec.release ends a lease never assigned → Released', lease({ release: true }), 'Released'],
    [
      'release wins over a later expiry → Released',
      lease({ release: true, duration: '1h' }, assigned(at(11, 30))),
      'Released',
    ],
    ['begin + duration reached → Expired', lease({ duration: '1h' }, assigned(at(11))), 'Expired'],
    ['begin + duration passed → Expired', lease({ duration: '30m' }, assigned(at(10))), 'Expired'],
    ['endTime reached → Expired', lease({ endTime: at(12) }, assigned(at(11))), 'Expired'],
    [
      'endTime wins over a longer duration → Expired',
      lease({ endTime: at(11, 30), duration: '5h' }, assigned(at(11))),
      'Expired',
    ],
    ['an unassigned lease past its endTime → Expired', lease({ endTime: at(11) }), 'Expired'],
  ])('%s', (_label, l, reason) => {
    expect(decideLeaseEnd(l, NOW)).toMatchObject({ ended: true, reason });
  });

  it.each<[string, Lease, number | undefined]>([
    [
      'an assigned lease within its duration',
      lease({ duration: '2h' }, assigned(at(11))),
      Date.UTC(2025, 0, 1, 13),
    ],
    [
      'endTime wins over a shorter duration',
      lease({ endTime: at(14), duration: '1m' }, assigned(at(11))),
      Date.UTC(2025, 0, 1, 14),
    ],
    ['an unassigned lease with a duration has no expiry yet', lease({ duration: '1m' }), undefined],
    [
      'an unassigned lease waits for its future endTime',
      lease({ endTime: at(13) }),
      Date.UTC(2025, 0, 1, 13),
    ],
    ['neither endTime nor duration: runs until released', lease({}, assigned(at(1))), undefined],
  ])('%s', (_label, l, expiresAt) => {
    expect(decideLeaseEnd(l, NOW)).toEqual(
      expiresAt === undefined ? { ended: false } : { ended: false, expiresAt },
    );
  });
});
