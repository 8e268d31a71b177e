import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatIssue } from '../../../lib/core/issue';
import {
  fingerprint,
  getProvisioner,
  knownKeysFor,
  parseKnownHosts,
  validateQemuSshParameters,
} from '../../../lib/provisioners';
import { sshdMode } from '../../support/sshd-host';
import { sshParameters } from './fixtures';

const lines = (parameters: unknown) => validateQemuSshParameters(parameters).map(formatIssue);

describe('qemu-ssh parameters › valid input', () => {
  it('accepts every documented field, unknown keys included', () => {
    expect(lines(sshParameters)).toEqual([]);
  });

  it('accepts the minimum: one host by name', () => {
    expect(lines({ hosts: [{ name: '192.0.2.10' }] })).toEqual([]);
    expect(lines({ hosts: [{ name: '::1' }] })).toEqual([]);
  });

  it('is the validation of both names, qemu-ssh and the qemu-baremetal alias', () => {
    const bad = { hosts: [{ name: 'a', slots: 0 }] };
    expect(getProvisioner('qemu-ssh.jumpstarter.dev')!.validate(bad).map(formatIssue)).toEqual(lines(bad));
    expect(getProvisioner('qemu-baremetal.jumpstarter.dev')!.validate(bad).map(formatIssue)).toEqual(
      lines(bad),
    );
    expect(lines(bad)).toHaveLength(1);
  });
});

describe('qemu-ssh parameters › precise messages', () => {
  it('requires hosts', () => {
    expect(lines({})).toEqual([
      'hosts: is required: the hosts instances run on, such as [{name: bench-01.example.com, slots: 2}]',
    ]);
    expect(lines(undefined)).toEqual(lines({}));
    expect(lines({ hosts: [] })).toEqual([
      'hosts: must be a non-empty list of hosts, such as [{name: bench-01.example.com, slots: 2}] (got [])',
    ]);
  });

  it('names the path, the value and the rule of each host field', () => {
    expect(
      lines({
        hosts: [
          { slots: 1 },
          { name: 'bench 1' },
          { name: 'b', slots: 0 },
          { name: 'c', slots: 1.5, arch: 'riscv', user: '1x; rm', port: 70000 },
          { name: 'B' },
          'd',
        ],
      }),
    ).toEqual([
      'hosts[0].name: is required: the host\'s DNS name or IP address, such as "bench-01.example.com"',
      'hosts[1].name: must be a DNS name or an IP address (letters, digits, . - : _ %; up to 253), such as "bench-01.example.com" or "192.0.2.10" (got "bench 1")',
      'hosts[2].slots: must be a whole number from 1 to 1000: how many instances the host runs at once (got 0)',
      'hosts[3].arch: must be one of "x86_64", "aarch64" (the host\'s architecture) (got "riscv")',
      'hosts[3].slots: must be a whole number from 1 to 1000: how many instances the host runs at once (got 1.5)',
      'hosts[3].user: must be a user name on the host (letters, digits, _ . -, up to 32, not starting with a digit or -), such as "root" or "jumpstarter" (got "1x; rm")',
      'hosts[3].port: must be a whole number from 1 to 65535, the port sshd listens on (22 unless changed) (got 70000)',
      'hosts[4].name: must be unique: another entry of hosts has this name; merge the two entries into one (got "B")',
      'hosts[5]: must be an object with name and optional arch, slots, user and port (got "d")',
    ]);
  });

  it("checks ssh, runtime, arch, resources and storage with the QEMU provisioner's words", () => {
    expect(
      lines({
        hosts: [{ name: 'a' }],
        ssh: { user: '', port: '22' },
        runtime: { kvm: 'yes', devices: ['/dev/kvm', 'dev/x', '/dev/../etc'] },
        arch: 'arm',
        resources: { cpu: 0.5, memory: '1Ki' },
        storage: { size: '3Pi' },
      }),
    ).toEqual([
      'arch: must be one of "x86_64", "aarch64" (the guest architecture) (got "arm")',
      'resources.cpu: must be a positive whole number of CPU cores, such as 2 or "4" (QEMU\'s smp option takes whole CPUs) (got 0.5)',
      'resources.memory: must be a Kubernetes quantity of at least 1Mi, such as 512Mi or 16Gi (a bare number means bytes) (got "1Ki")',
      'ssh.user: must be a user name on the host (letters, digits, _ . -, up to 32, not starting with a digit or -), such as "root" or "jumpstarter" (got "")',
      'ssh.port: must be a whole number from 1 to 65535, the port sshd listens on (22 unless changed) (got "22")',
      'runtime.kvm: must be true or false (true passes /dev/kvm into the runtime container) (got "yes")',
      'runtime.devices[1]: must be an absolute device path without spaces, such as "/dev/vhost-net" (got "dev/x")',
      'runtime.devices[2]: must be an absolute device path without spaces, such as "/dev/vhost-net" (got "/dev/../etc")',
      'storage.size: must be at most 1Pi (1125899906842624 bytes) (got "3Pi")',
    ]);
  });

  it('reports malformed knownHosts lines by number, never echoing a key', () => {
    const out = lines({
      hosts: [{ name: 'a' }],
      knownHosts:
        '# comment\n\na ssh-ed25519\nb ssh-foo AAAA\n@cert-authority *.x ssh-ed25519 AAAA\nc ssh-ed25519 !!!\n',
    });
    expect(out).toEqual([
      'knownHosts: needs three fields: host patterns, key type and base64 key (OpenSSH known_hosts: "host keytype base64-key") (got "line 3")',
      'knownHosts: unknown key type ssh-foo (OpenSSH known_hosts: "host keytype base64-key") (got "line 4")',
      'knownHosts: @cert-authority entries are not supported; pin the host keys themselves (OpenSSH known_hosts: "host keytype base64-key") (got "line 5")',
      'knownHosts: the key is not base64 (OpenSSH known_hosts: "host keytype base64-key") (got "line 6")',
    ]);
  });

  it('never throws on hostile input', () => {
    for (const p of [null, 1, 'x', [], { hosts: {} }, { hosts: [null] }, { runtime: [] }, { storage: 1 }]) {
      expect(() => validateQemuSshParameters(p)).not.toThrow();
      expect(validateQemuSshParameters(p).length).toBeGreaterThan(0);
    }
  });
});

describe('known_hosts › lookup', () => {
  const dir = mkdtempSync(join(tmpdir(), 've-kh-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'k')]);
  const [type, base64] = readFileSync(join(dir, 'k.pub'), 'utf8').split(' ');
  const key = Buffer.from(base64!, 'base64');
  rmSync(dir, { recursive: true, force: true });

  it('matches plain names, [host]:port, wildcards and negation', () => {
    const text = `bench-01,10.0.0.1 ${type} ${base64}\n[bench-02]:2022 ${type} ${base64}\n*.lab,!bad.lab ${type} ${base64}\n`;
    const entries = parseKnownHosts(text);
    expect(entries).toHaveLength(3);
    expect(knownKeysFor(entries, 'bench-01', 22).keys).toEqual([key]);
    expect(knownKeysFor(entries, 'bench-01', 2022).keys).toEqual([]);
    expect(knownKeysFor(entries, 'bench-02', 2022).keys).toEqual([key]);
    expect(knownKeysFor(entries, 'x.lab', 22).keys).toEqual([key]);
    expect(knownKeysFor(entries, 'bad.lab', 22).keys).toEqual([]);
  });

  it('matches hashed entries as ssh-keygen -H writes them', () => {
    const dir2 = mkdtempSync(join(tmpdir(), 've-kh-'));
    const file = join(dir2, 'known_hosts');
    writeFileSync(file, `[127.0.0.1]:2200 ${type} ${base64}\n`);
    execFileSync('ssh-keygen', ['-q', '-H', '-f', file], { stdio: 'ignore' });
    const hashed = readFileSync(file, 'utf8');
    rmSync(dir2, { recursive: true, force: true });
    expect(hashed.startsWith('|1|')).toBe(true);
    const entries = parseKnownHosts(hashed);
    expect(knownKeysFor(entries, '127.0.0.1', 2200).keys).toEqual([key]);
    expect(knownKeysFor(entries, '127.0.0.1', 22).keys).toEqual([]);
  });

  it('fingerprints as ssh-keygen -l does', () => {
    const dir3 = mkdtempSync(join(tmpdir(), 've-kh-'));
    const pub = join(dir3, 'k.pub');
    writeFileSync(pub, `${type} ${base64}\n`);
    const listed = execFileSync('ssh-keygen', ['-l', '-f', pub], { encoding: 'utf8' });
    rmSync(dir3, { recursive: true, force: true });
    expect(listed.split(' ')[1]).toBe(fingerprint(key));
  });
});

describe('sshd tests › run, skip or fail', () => {
  it('run with sshd, skip without it, and fail without it when VIRTUAL_EXPORTERS_REQUIRE_SSHD=1', () => {
    expect(sshdMode(true, {})).toBe('run');
    expect(sshdMode(true, { VIRTUAL_EXPORTERS_REQUIRE_SSHD: '1' })).toBe('run');
    expect(sshdMode(false, {})).toBe('skip');
    expect(sshdMode(false, { VIRTUAL_EXPORTERS_REQUIRE_SSHD: '0' })).toBe('skip');
    expect(sshdMode(false, { VIRTUAL_EXPORTERS_REQUIRE_SSHD: '1' })).toBe('fail');
  });
});
