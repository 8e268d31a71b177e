import { RuleMessages } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import type { ValidationContext } from '../provisioner';
import { isPlainObject } from '../../core/plain-object';
import { corelliumDriverCollisions } from './exporter-config';

/** Longest host name DNS allows. */
export const MAX_HOST_LENGTH = 253;
/** Longest flavor, OS version or build accepted: far beyond any real one, short enough for a message. */
export const MAX_DEVICE_FIELD_LENGTH = 256;

/** The rules, in words, with the fix; each issue carries its path (relative to the parameters) and value. */
export const CorelliumRuleMessages = {
  api: 'must be an object with host and projectId, such as {host: app.corellium.com, projectId: <project UUID>}',
  apiRequired:
    'is required: the Corellium API, as {host: app.corellium.com, projectId: <project UUID>}, in the class parameters',
  host:
    `must be a host name, optionally with a port, of at most ${MAX_HOST_LENGTH} characters and without ` +
    'scheme or path, such as "app.corellium.com" (write "https://app.corellium.com/" as "app.corellium.com")',
  hostRequired: 'is required: the Corellium API host, such as "app.corellium.com"',
  projectId:
    'must be the UUID of a Corellium project, as a string, such as "778f00af-5e9b-40e6-8e7f-c4f14b632e9c" ' +
    '(the id is shown in the project settings of the Corellium web UI)',
  projectIdRequired:
    'is required: the UUID of the Corellium project the devices are created in, such as "778f00af-5e9b-40e6-8e7f-c4f14b632e9c"',
  device: 'must be an object with flavor and optional os and build, such as {flavor: kronos, os: "1.1.1"}',
  deviceRequired: 'is required: the device to create, as {flavor: <flavor>, os: <version>, build: <build>}',
  flavor:
    `must be a Corellium device flavor: letters, digits, ".", "_" or "-", at most ${MAX_DEVICE_FIELD_LENGTH} ` +
    'characters, such as "kronos"',
  flavorRequired: 'is required: the Corellium device flavor to create, such as "kronos"',
  os:
    `must be a non-empty string of at most ${MAX_DEVICE_FIELD_LENGTH} characters naming the OS version, such ` +
    'as "1.1.1" (quote it in YAML: 1.1 unquoted is a number)',
  build: `must be a non-empty string of at most ${MAX_DEVICE_FIELD_LENGTH} characters naming the firmware build`,
} as const;

const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = new RegExp(`^${HOST_LABEL}(?:\\.${HOST_LABEL})*(?::([0-9]{1,5}))?$`);
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const FLAVOR = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Validates merged `corellium.jumpstarter.dev` parameters. Never throws, whatever the input.
 * `api.host`, `api.projectId` and `device.flavor` are required (the driver cannot create a device
 * without them) and reported when missing; `device.os` and `device.build` are optional. `null` counts
 * as absent; unknown keys, at the top and inside `api` and `device`, are kept and not reported.
 *
 * With `context.drivers`, also reports a user driver named `corellium` (given or derived) that is not
 * the Corellium driver and would collide with the one the provisioner adds; those issues have paths
 * relative to the ExporterSet (`spec.template.spec.drivers[i].name`), all others to the parameters.
 */
export function validateCorelliumParameters(
  parameters: unknown,
  context?: ValidationContext,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (parameters === undefined || parameters === null) {
    validateFields({}, issues);
  } else if (!isPlainObject(parameters)) {
    issues.push({ path: '', value: parameters, message: RuleMessages.parametersObject });
  } else {
    validateFields(parameters, issues);
  }
  if (context?.drivers !== undefined) issues.push(...corelliumDriverCollisions(context.drivers));
  return issues;
}

function validateFields(p: Record<string, unknown>, issues: ValidationIssue[]): void {
  const fail = (path: string, value: unknown, message: string) => issues.push({ path, value, message });
  const missing = (path: string, message: string) => issues.push({ path, message });

  if (!present(p.api)) {
    missing('api', CorelliumRuleMessages.apiRequired);
  } else if (!isPlainObject(p.api)) {
    fail('api', p.api, CorelliumRuleMessages.api);
  } else {
    const { host, projectId } = p.api;
    if (!present(host)) missing('api.host', CorelliumRuleMessages.hostRequired);
    else if (!isHost(host)) fail('api.host', host, CorelliumRuleMessages.host);
    if (!present(projectId)) missing('api.projectId', CorelliumRuleMessages.projectIdRequired);
    else if (typeof projectId !== 'string' || !UUID.test(projectId)) {
      fail('api.projectId', projectId, CorelliumRuleMessages.projectId);
    }
  }

  if (!present(p.device)) {
    missing('device', CorelliumRuleMessages.deviceRequired);
  } else if (!isPlainObject(p.device)) {
    fail('device', p.device, CorelliumRuleMessages.device);
  } else {
    const { flavor, os, build } = p.device;
    if (!present(flavor)) missing('device.flavor', CorelliumRuleMessages.flavorRequired);
    else if (!isBounded(flavor) || !FLAVOR.test(flavor))
      fail('device.flavor', flavor, CorelliumRuleMessages.flavor);
    if (present(os) && !isBounded(os)) fail('device.os', os, CorelliumRuleMessages.os);
    if (present(build) && !isBounded(build)) fail('device.build', build, CorelliumRuleMessages.build);
  }
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isBounded(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= MAX_DEVICE_FIELD_LENGTH;
}

function isHost(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > MAX_HOST_LENGTH) return false;
  const match = HOST.exec(value);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}
