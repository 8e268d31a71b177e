/**
 * What an unfinished operation of this controller does this pass: a spec that breaks the CRD's rules
 * or an operation this controller does not know (a provisioner-specific `<domain>/<Name>`) fails it;
 * otherwise the operation on one instance or the selector over a set decides, unless the deadline
 * passed first.
 */
import {
  OperationNames,
  OperationReasons as R,
  formatIssue,
  validateExporterOperation,
  type OperationName,
} from 'virtual-exporters/internal';
import { deadlineExceeded, deadlineOf } from './deadline';
import { decideInstance } from './instance/decide-instance';
import { failed, isFinishedState, type Outcome } from './outcome';
import { decideSelector } from './selector/decide-selector';
import type { OperationSnapshot } from './snapshot';

export function isSupportedOperation(name: string): name is OperationName {
  return (OperationNames as readonly string[]).includes(name);
}

export function decide(s: OperationSnapshot, start: number): Outcome {
  const { spec } = s.operation;
  const recorded = s.operation.status?.instances ?? [];
  const issues = validateExporterOperation(s.operation);
  if (issues.length > 0) {
    return failed(
      R.InvalidSpec,
      `the spec breaks the CRD's rules: ${issues.map(formatIssue).join('; ')}`,
      recorded,
    );
  }
  if (!isSupportedOperation(spec.operation)) {
    return failed(
      R.UnsupportedOperation,
      `operation ${JSON.stringify(spec.operation)} is not supported by this controller (provisioner ${s.provisioner}); it carries out ${OperationNames.join(', ')}`,
      recorded,
    );
  }
  const deadline = deadlineOf(spec, start);
  const outcome =
    spec.exporterName !== undefined
      ? decideInstance(s, spec.operation, spec.exporterName)
      : decideSelector(s, spec.exporterSetName ?? '', start);
  if (isFinishedState(outcome.state) || deadline === undefined || s.now < deadline) return outcome;
  return deadlineExceeded(spec, outcome);
}
