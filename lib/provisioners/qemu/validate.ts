import { RuleMessages } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import { tryParseQuantity } from '../../core/quantity';
import type { ValidationContext } from '../provisioner';
import { QEMU_ARCHES, isQemuArch } from './parameters';
import { isPlainObject } from '../../core/plain-object';
import { tcpDriverCollisions } from './tcp-driver';

/** Smallest memory and storage accepted: a bare number means bytes, so `4096` is almost surely a slip. */
export const MIN_SIZE_BYTES = 2 ** 20;

/**
 * Largest memory and storage accepted (1Pi). Sizes are rendered as exact quantities (the shared
 * volume's `sizeLimit`, QEMU's `mem` and `disk_size`); far beyond this a JavaScript number no longer
 * holds every byte and `1e300` would render as `9.09e+287Ti`, which Kubernetes refuses, so a
 * hostile or mistyped size would stop every new instance at the Pod create instead of here.
 */
export const MAX_SIZE_BYTES = 2 ** 50;

/** Most CPUs accepted: QEMU's own ceiling for one guest (`q35` with x2APIC). */
export const MAX_CPUS = 1024;

/** Digest algorithms of the OCI image spec; firmware is fetched like an image. */
export const DIGEST_ALGORITHMS = ['sha256', 'sha384', 'sha512'] as const;

/** The rules, in words; each issue carries its path (relative to the parameters) and the value. */
export const QemuRuleMessages = {
  arch: `must be one of ${QEMU_ARCHES.map((a) => `"${a}"`).join(', ')} (the guest architecture)`,
  machineType: 'must be a non-empty string naming a QEMU machine type, such as "virt" or "q35"',
  resources: 'must be an object with optional cpu, memory and storage quantities',
  cpu: 'must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs)',
  size: 'must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes)',
  sizeTooLarge: `must be at most 1Pi (${MAX_SIZE_BYTES} bytes)`,
  cpuTooMany: `must be at most ${MAX_CPUS} cores, the most a QEMU guest can have`,
  firmware: 'must be an object with url and an optional digest',
  firmwareUrl: 'must be a non-empty string: the URL or OCI reference of the firmware image',
  firmwareUrlRequired: 'is required when firmware is given: the URL or OCI reference of the firmware image',
  digest:
    `must be "<algorithm>:<digest>" with algorithm ${DIGEST_ALGORITHMS.join(', ')} and no spaces, ` +
    'such as "sha256:" followed by 64 hex digits',
  kvm: 'must be true or false',
} as const;

/**
 * Validates merged `qemu.jumpstarter.dev` parameters. Never throws, whatever the input.
 * `null` counts as absent for every optional field (the deep merge lets a set clear a class value
 * with `null`); unknown keys are kept and not reported. Memory and storage must be from 1Mi to 1Pi
 * and cpu a whole number of cores up to 1024. The firmware digest is checked for a known algorithm
 * and a non-empty encoded part only, because the JEP's own examples write placeholders such as
 * `sha256:abc...`.
 *
 * With `context.drivers`, also reports a user driver named `tcp` (given or derived) that would collide
 * with the TcpNetwork driver the provisioner adds; those issues have paths relative to the
 * ExporterSet (`spec.template.spec.drivers[i].name`), all others are relative to the parameters.
 */
export function validateQemuParameters(parameters: unknown, context?: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (parameters !== undefined) {
    if (!isPlainObject(parameters)) {
      issues.push({ path: '', value: parameters, message: RuleMessages.parametersObject });
    } else {
      validateFields(parameters, issues);
    }
  }
  if (context?.drivers !== undefined) issues.push(...tcpDriverCollisions(context.drivers));
  return issues;
}

function validateFields(p: Record<string, unknown>, issues: ValidationIssue[]): void {
  const fail = (path: string, value: unknown, message: string) => issues.push({ path, value, message });

  if (present(p.arch) && !isQemuArch(p.arch)) fail('arch', p.arch, QemuRuleMessages.arch);
  if (present(p.machineType) && !isNonEmptyString(p.machineType)) {
    fail('machineType', p.machineType, QemuRuleMessages.machineType);
  }

  issues.push(...resourcesIssues(p.resources));

  if (present(p.firmware)) {
    if (!isPlainObject(p.firmware)) {
      fail('firmware', p.firmware, QemuRuleMessages.firmware);
    } else {
      const { url, digest } = p.firmware;
      if (!present(url)) issues.push({ path: 'firmware.url', message: QemuRuleMessages.firmwareUrlRequired });
      else if (!isNonEmptyString(url)) fail('firmware.url', url, QemuRuleMessages.firmwareUrl);
      if (present(digest) && !isDigest(digest)) fail('firmware.digest', digest, QemuRuleMessages.digest);
    }
  }

  if (present(p.kvm) && typeof p.kvm !== 'boolean') fail('kvm', p.kvm, QemuRuleMessages.kvm);
}

/**
 * Findings for a `resources {cpu, memory, storage}` parameter (paths `resources…`): whole cores up to
 * 1024, sizes from 1Mi to 1Pi; absent or `null` is fine. Shared by the provisioners that size a guest.
 */
export function resourcesIssues(resources: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const fail = (path: string, value: unknown, message: string) => issues.push({ path, value, message });
  if (!present(resources)) return issues;
  if (!isPlainObject(resources)) {
    fail('resources', resources, QemuRuleMessages.resources);
    return issues;
  }
  const { cpu, memory, storage } = resources;
  if (present(cpu)) {
    if (!isWholeCores(cpu)) fail('resources.cpu', cpu, QemuRuleMessages.cpu);
    else if (tryParseQuantity(cpu)!.value > MAX_CPUS) {
      fail('resources.cpu', cpu, QemuRuleMessages.cpuTooMany);
    }
  }
  for (const [field, value] of [
    ['memory', memory],
    ['storage', storage],
  ] as const) {
    if (!present(value)) continue;
    if (!isSize(value)) fail(`resources.${field}`, value, QemuRuleMessages.size);
    else if (tryParseQuantity(value)!.value > MAX_SIZE_BYTES) {
      fail(`resources.${field}`, value, QemuRuleMessages.sizeTooLarge);
    }
  }
  return issues;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** Whole cores, in any quantity form (`4`, `"4"`, `"4000m"`); float noise from `m` is tolerated. */
export function isWholeCores(value: unknown): boolean {
  const cores = tryParseQuantity(value)?.value;
  if (cores === undefined || cores < 1) return false;
  return Math.abs(cores - Math.round(cores)) < 1e-9;
}

function isSize(value: unknown): boolean {
  const bytes = tryParseQuantity(value)?.value;
  return bytes !== undefined && bytes >= MIN_SIZE_BYTES;
}

function isDigest(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const colon = value.indexOf(':');
  if (colon < 0) return false;
  const algorithm = value.slice(0, colon);
  const encoded = value.slice(colon + 1);
  return (DIGEST_ALGORITHMS as readonly string[]).includes(algorithm) && /^\S+$/.test(encoded);
}
