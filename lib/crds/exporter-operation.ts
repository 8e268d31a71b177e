/**
 * The ExporterOperation CRD: a Job-like, one-off operation on one instance of an
 * ExporterSet or on the instances of a set a selector picks. Ours alone (upstream has no such kind).
 * The spec is immutable, like a Job's; the controller reports progress in `status`.
 */
import { CATEGORY, GROUP, Kinds, Plurals, ShortNames } from '../api/constants';
import {
  OperationNames,
  OperationRuleMessages as M,
  OperationStates,
  PROVISIONER_OPERATION_PATTERN,
} from '../api/exporter-operation';
import { RuleMessages } from '../api/rules';
import { ExporterOperationBounds, ExporterSetBounds as Bounds } from '../core/bounds';
import { celString } from './cel';
import {
  array,
  conditionsSchema,
  dateTime,
  int64,
  labelSelectorSchema,
  namespacedCrd,
  object,
  str,
  stringMap,
  type CustomResourceDefinition,
  type JSONSchemaProps,
} from './schema';

const operationRule =
  `self.operation in [${OperationNames.map(celString).join(', ')}]` +
  ` || self.operation.matches(${celString(PROVISIONER_OPERATION_PATTERN)})`;

const specSchema: JSONSchemaProps = object(
  'What to do and to which instances: one Exporter by name, or the instances of a set a selector picks. Immutable.',
  {
    activeDeadlineSeconds: int64(
      'Seconds from the start of the operation after which it fails (DeadlineExceeded) if it has not finished, for example because an instance stayed leased. Unset: no deadline.',
      { minimum: 1 },
    ),
    exporterName: str(
      'The one Exporter to operate on; it must be an instance of an ExporterSet. Exclusive with exporterSetName.',
      { maxLength: ExporterOperationBounds.objectName, minLength: 1 },
    ),
    exporterSetName: str(
      'The ExporterSet whose instances the selector picks; the operation creates one child operation per instance. Exclusive with exporterName.',
      { maxLength: ExporterOperationBounds.objectName, minLength: 1 },
    ),
    operation: str(
      'Recycle (the set replaces the instance, warm buffer kept), Disable (spec.enabled=false, kept in the set), ' +
        'Enable (undoes Disable), Drain (the instance leaves the set, which refills by its rules), or a provisioner-specific ' +
        '<provisioner-domain>/<Name>, which fails as UnsupportedOperation when the controller does not know it. ' +
        'Every operation waits for a lease on the instance to end; none takes a leased instance away.',
      { maxLength: ExporterOperationBounds.operation, minLength: 1 },
    ),
    parameters: stringMap(
      `Settings of the operation, for provisioner-specific operations. At most ${ExporterOperationBounds.parameters} entries, values of up to ${ExporterOperationBounds.parameterValue} characters.`,
      { maxProperties: ExporterOperationBounds.parameters },
      { maxLength: ExporterOperationBounds.parameterValue },
    ),
    selector: labelSelectorSchema(
      'With exporterSetName: the labels of the instances to operate on. Unset or empty: every instance of the set.',
      {
        expressionMessages: { operator: RuleMessages.selectorOperator, values: RuleMessages.selectorValues },
        bounds: {
          matchLabels: Bounds.selectorMatchLabels,
          matchExpressions: Bounds.selectorMatchExpressions,
          key: Bounds.selectorKey,
          values: Bounds.selectorValues,
          value: Bounds.labelValue,
        },
      },
    ),
    ttlSecondsAfterFinished: int64(
      'Seconds after the operation finished (Complete or Failed) after which the controller deletes it, with its child operations. Unset: kept.',
      { minimum: 0 },
    ),
  },
  {
    required: ['operation'],
    'x-kubernetes-validations': [
      { rule: operationRule, message: M.operationName },
      { rule: 'has(self.exporterName) != has(self.exporterSetName)', message: M.oneTarget },
      { rule: '!has(self.selector) || has(self.exporterSetName)', message: M.selectorNeedsSet },
      { rule: 'self == oldSelf', message: M.specImmutable },
    ],
  },
);

const stateSchema = (description: string): JSONSchemaProps =>
  str(description, { enum: [...OperationStates] });

const statusSchema: JSONSchemaProps = object(
  'Progress of the operation, as the controller last saw it.',
  {
    completionTime: dateTime('When the operation became Complete or Failed.'),
    conditions: conditionsSchema(
      'Latest observations: WaitingForLease (an instance is leased; the operation acts after the lease ends), Complete, Failed, and WriteFailure (its last write failed; the message carries the API error, and it is retried).',
    ),
    instances: array(
      'One entry per targeted instance, in name order; chosen once, when the operation starts.',
      object(
        'The result of the operation on one instance.',
        {
          exporterName: str('The instance (Exporter).'),
          message: str('What happened or what the operation waits for.'),
          operationName: str('The child operation that works on this instance (selector operations).'),
          reason: str('Why the instance is in its state.'),
          state: stateSchema('Pending, InProgress, Complete or Failed.'),
          uid: str('The uid of the Exporter when the operation first saw it.'),
        },
        { required: ['exporterName', 'state'] },
      ),
      { 'x-kubernetes-list-type': 'atomic' },
    ),
    message: str('A sentence on the state: what happened, what it waits for, or why it failed.'),
    observedGeneration: int64('The generation the controller acted on.'),
    reason: str('Why the operation is in its state, in one CamelCase word.'),
    startTime: dateTime('When the controller started the operation; activeDeadlineSeconds counts from here.'),
    state: stateSchema('Pending (not started), InProgress, Complete or Failed.'),
  },
  { required: ['state'] },
);

export const exporterOperationCrd: CustomResourceDefinition = namespacedCrd({
  group: GROUP,
  kind: Kinds.ExporterOperation,
  plural: Plurals.ExporterOperation,
  shortNames: [ShortNames.ExporterOperation],
  categories: [CATEGORY],
  description:
    'A one-off operation (Recycle, Disable, Enable, Drain) on one instance of an ExporterSet or on the instances a selector picks; it never takes a leased instance away.',
  spec: specSchema,
  status: statusSchema,
  subresources: { status: {} },
  printerColumns: [
    { name: 'Operation', type: 'string', jsonPath: '.spec.operation' },
    { name: 'Exporter', type: 'string', jsonPath: '.spec.exporterName' },
    { name: 'Set', type: 'string', jsonPath: '.spec.exporterSetName' },
    { name: 'State', type: 'string', jsonPath: '.status.state' },
  ],
});
