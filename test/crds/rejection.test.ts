/**
 * Our CRDs at admission, through the test cluster's admission (test/support/crd-validator): every case
 * of the shared table (test/admission/cases.ts) gets exactly its errors. The same cases run through
 * synth-time validation (test/core/agreement.test.ts) and on a real kube-apiserver
 * (test/admission/real-server.kube.test.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { leaseCrd } from '../../lib/crds';
import { ADMISSION_CASES, lease, testClusterErrors } from '../admission/cases';
import { admit, type AdmissionError } from '../support/crd-validator';

const sorted = (errors: readonly AdmissionError[]) =>
  [...errors].sort((a, b) => `${a.path} ${a.message}`.localeCompare(`${b.path} ${b.message}`));

const groups = [...new Set(ADMISSION_CASES.map((c) => c.group))];

describe.each(groups)('%s', (group) => {
  it.each(ADMISSION_CASES.filter((c) => c.group === group).map((c) => [c.name, c] as const))(
    '%s',
    (_name, c) => {
      // Exactly these errors, in any order.
      expect(sorted(testClusterErrors(c))).toEqual(sorted(c.errors));
    },
  );
});

describe('Lease admission › defaulting', () => {
  it('defaults the selector to {} before the rule that requires a selector or an exporterRef runs', () => {
    expect((admit(leaseCrd, lease({})).object.spec as Record<string, unknown>).selector).toEqual({});
  });
});
