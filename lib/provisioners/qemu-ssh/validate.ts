import { RuleMessages } from '../../api';
import type { ValidationIssue } from '../../core/issue';
import { tryParseQuantity } from '../../core/quantity';
import type { ValidationContext } from '../provisioner';
import { QEMU_ARCHES, isQemuArch } from '../qemu/parameters';
import { isPlainObject } from '../../core/plain-object';
import { MAX_SIZE_BYTES, MIN_SIZE_BYTES, QemuRuleMessages, validateQemuParameters } from '../qemu/validate';
import { knownHostsIssues } from './known-hosts';

/** Most instances one host may be given: far beyond any real host, it catches a slip such as 1e9. */
export const MAX_SLOTS = 1000;

/** Host names: a DNS name or an IP address (IPv6 without brackets). */
const HOST_NAME = /^[A-Za-z0-9:]([A-Za-z0-9.:%_-]*[A-Za-z0-9])?$/;
/** POSIX portable user names (what `useradd` accepts by default). */
const USER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/;
/** Device paths: absolute, no spaces or control characters (they go into a unit file line). */
const DEVICE_PATH = /^\/[A-Za-z0-9._/:+-]+$/;

/** The rules, in words, each with the fix; every issue carries its path (relative to the parameters). */
export const QemuSshRuleMessages = {
  ssh: 'must be an object with optional user and port, such as {user: root, port: 22}',
  user: 'must be a user name on the host (letters, digits, _ . -, up to 32, not starting with a digit or -), such as "root" or "jumpstarter"',
  port: 'must be a whole number from 1 to 65535, the port sshd listens on (22 unless changed)',
  hostsRequired: 'is required: the hosts instances run on, such as [{name: bench-01.example.com, slots: 2}]',
  hosts: 'must be a non-empty list of hosts, such as [{name: bench-01.example.com, slots: 2}]',
  host: 'must be an object with name and optional arch, slots, user and port',
  hostNameRequired: 'is required: the host\'s DNS name or IP address, such as "bench-01.example.com"',
  hostName:
    'must be a DNS name or an IP address (letters, digits, . - : _ %; up to 253), such as "bench-01.example.com" or "192.0.2.10"',
  hostNameUnique: 'must be unique: another entry of hosts has this name; merge the two entries into one',
  hostArch: `must be one of ${QEMU_ARCHES.map((a) => `"${a}"`).join(', ')} (the host's architecture)`,
  slots: `must be a whole number from 1 to ${MAX_SLOTS}: how many instances the host runs at once`,
  runtime: 'must be an object with optional kvm (true or false) and devices (a list of device paths)',
  kvm: 'must be true or false (true passes /dev/kvm into the runtime container)',
  devices: 'must be a list of device paths, such as ["/dev/vhost-net"]',
  device: 'must be an absolute device path without spaces, such as "/dev/vhost-net"',
  storage: 'must be an object with an optional size, such as {size: 16Gi}',
  knownHosts:
    'must be OpenSSH known_hosts text (one "host keytype base64-key" entry per line), such as the output of ssh-keyscan',
} as const;

/**
 * Validates merged `qemu-ssh.jumpstarter.dev` parameters. Never throws, whatever the input. `arch` and
 * `resources.cpu` / `.memory` follow `qemu.jumpstarter.dev`'s rules and messages; `hosts` is required.
 * `null` counts as absent for optional fields; unknown keys are kept and not reported. With
 * `context.drivers`, also reports a user driver in the way of the `tcp` driver the provisioner adds
 * (those paths are relative to the ExporterSet).
 */
export function validateQemuSshParameters(
  parameters: unknown,
  context?: ValidationContext,
): ValidationIssue[] {
  if (parameters === undefined || parameters === null) {
    return [
      { path: 'hosts', message: QemuSshRuleMessages.hostsRequired },
      ...validateQemuParameters(undefined, context),
    ];
  }
  if (!isPlainObject(parameters)) {
    return [
      { path: '', value: parameters, message: RuleMessages.parametersObject },
      ...validateQemuParameters(undefined, context),
    ];
  }
  const p = parameters;
  // arch and resources share the in-cluster provisioner's rules (and the tcp driver check).
  const issues = validateQemuParameters({ arch: p.arch, resources: p.resources }, context);
  const fail = (path: string, value: unknown, message: string) => issues.push({ path, value, message });

  if (present(p.ssh)) {
    if (!isPlainObject(p.ssh)) fail('ssh', p.ssh, QemuSshRuleMessages.ssh);
    else checkConnection(p.ssh, 'ssh', fail);
  }

  if (!present(p.hosts)) issues.push({ path: 'hosts', message: QemuSshRuleMessages.hostsRequired });
  else if (!Array.isArray(p.hosts) || p.hosts.length === 0) fail('hosts', p.hosts, QemuSshRuleMessages.hosts);
  else {
    const seen = new Set<string>();
    p.hosts.forEach((host: unknown, index: number) => {
      const at = `hosts[${index}]`;
      if (!isPlainObject(host)) return fail(at, host, QemuSshRuleMessages.host);
      if (!present(host.name))
        issues.push({ path: `${at}.name`, message: QemuSshRuleMessages.hostNameRequired });
      else if (!isHostName(host.name)) fail(`${at}.name`, host.name, QemuSshRuleMessages.hostName);
      else {
        const key = host.name.toLowerCase();
        if (seen.has(key)) fail(`${at}.name`, host.name, QemuSshRuleMessages.hostNameUnique);
        seen.add(key);
      }
      if (present(host.arch) && !isQemuArch(host.arch))
        fail(`${at}.arch`, host.arch, QemuSshRuleMessages.hostArch);
      if (present(host.slots) && !isWholeIn(host.slots, 1, MAX_SLOTS)) {
        fail(`${at}.slots`, host.slots, QemuSshRuleMessages.slots);
      }
      checkConnection(host, at, fail);
    });
  }

  if (present(p.runtime)) {
    if (!isPlainObject(p.runtime)) fail('runtime', p.runtime, QemuSshRuleMessages.runtime);
    else {
      const { kvm, devices } = p.runtime;
      if (present(kvm) && typeof kvm !== 'boolean') fail('runtime.kvm', kvm, QemuSshRuleMessages.kvm);
      if (present(devices)) {
        if (!Array.isArray(devices)) fail('runtime.devices', devices, QemuSshRuleMessages.devices);
        else
          devices.forEach((d: unknown, i: number) => {
            if (typeof d !== 'string' || !DEVICE_PATH.test(d) || d.split('/').includes('..')) {
              fail(`runtime.devices[${i}]`, d, QemuSshRuleMessages.device);
            }
          });
      }
    }
  }

  if (present(p.storage)) {
    if (!isPlainObject(p.storage)) fail('storage', p.storage, QemuSshRuleMessages.storage);
    else if (present(p.storage.size)) {
      const bytes = tryParseQuantity(p.storage.size)?.value;
      if (bytes === undefined || bytes < MIN_SIZE_BYTES)
        fail('storage.size', p.storage.size, QemuRuleMessages.size);
      else if (bytes > MAX_SIZE_BYTES) fail('storage.size', p.storage.size, QemuRuleMessages.sizeTooLarge);
    }
  }

  if (present(p.knownHosts)) {
    if (typeof p.knownHosts !== 'string') fail('knownHosts', p.knownHosts, QemuSshRuleMessages.knownHosts);
    else issues.push(...knownHostsIssues(p.knownHosts, 'knownHosts'));
  }
  return issues;
}

function checkConnection(
  o: Record<string, unknown>,
  at: string,
  fail: (path: string, value: unknown, message: string) => void,
): void {
  if (present(o.user) && !(typeof o.user === 'string' && USER_NAME.test(o.user))) {
    fail(`${at}.user`, o.user, QemuSshRuleMessages.user);
  }
  if (present(o.port) && !isWholeIn(o.port, 1, 65535)) fail(`${at}.port`, o.port, QemuSshRuleMessages.port);
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function isWholeIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function isHostName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 253 && HOST_NAME.test(value);
}
