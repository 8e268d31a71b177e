import { RuleMessages } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import type { ValidationContext } from '../provisioner';
import { isPlainObject } from '../../core/plain-object';
import { resourcesIssues } from '../qemu/validate';
import { androidDriverCollisions } from './exporter-config';
import {
  ANDROID_ABIS,
  MAX_API_LEVEL,
  MAX_DEVICE_LENGTH,
  MIN_API_LEVEL,
  isAndroidAbi,
  isApiLevel,
  isDevice,
} from './parameters';

/** The rules, in words, with the fix; each issue carries its path (relative to the parameters) and value. */
export const AndroidRuleMessages = {
  apiLevel:
    `must be a whole number from ${MIN_API_LEVEL} to ${MAX_API_LEVEL}: the Android API level of the system ` +
    'image, such as 34 for Android 14 (write it as a number, not "android-34")',
  device:
    `must be an AVD hardware profile id of at most ${MAX_DEVICE_LENGTH} characters (letters, digits, ".", ` +
    '"_", "-"), such as "pixel_6" (avdmanager list device shows them)',
  abi: `must be one of ${ANDROID_ABIS.map((a) => `"${a}"`).join(', ')} (the system image ABI; match the node's architecture)`,
  kvm: 'must be true or false',
} as const;

/**
 * Validates merged `android.jumpstarter.dev` parameters. Never throws, whatever the input. Every field
 * is optional; `null` counts as absent; unknown keys are kept and not reported. `resources` has the
 * QEMU provisioner's checks (whole cores up to 1024, sizes from 1Mi to 1Pi).
 *
 * With `context.drivers`, also reports a user driver named `emulator` (given or derived) that would
 * collide with the emulator driver the provisioner adds; those issues have paths relative to the
 * ExporterSet, all others to the parameters.
 */
export function validateAndroidParameters(
  parameters: unknown,
  context?: ValidationContext,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (parameters !== undefined && parameters !== null) {
    if (!isPlainObject(parameters)) {
      issues.push({ path: '', value: parameters, message: RuleMessages.parametersObject });
    } else {
      validateFields(parameters, issues);
    }
  }
  if (context?.drivers !== undefined) issues.push(...androidDriverCollisions(context.drivers));
  return issues;
}

function validateFields(p: Record<string, unknown>, issues: ValidationIssue[]): void {
  const fail = (path: string, value: unknown, message: string) => issues.push({ path, value, message });
  if (present(p.apiLevel) && !isApiLevel(p.apiLevel))
    fail('apiLevel', p.apiLevel, AndroidRuleMessages.apiLevel);
  if (present(p.device) && !isDevice(p.device)) fail('device', p.device, AndroidRuleMessages.device);
  if (present(p.abi) && !isAndroidAbi(p.abi)) fail('abi', p.abi, AndroidRuleMessages.abi);
  issues.push(...resourcesIssues(p.resources));
  if (present(p.kvm) && typeof p.kvm !== 'boolean') fail('kvm', p.kvm, AndroidRuleMessages.kvm);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}
