/**
 * How the lab points off-cluster pools at its sshd hosts (off-cluster.ts): pure rewrites of the app's
 * classes and sets, and the credentials Secret they read.
 */
import { describe, expect, it } from '@jest/globals';
import { buildGitopsApp } from '../../../examples/gitops/app';
import type { KubeObject } from 'virtual-exporters-test-cluster';
import { validateQemuSshParameters } from 'virtual-exporters/internal';
import { labManifests } from '../../src/lab/manifests';
import {
  credentialsSecretNameOf,
  localiseOffCluster,
  localiseParameters,
  planOffCluster,
  type LabHost,
} from '../../src/lab/off-cluster';
import { offClusterLine, unservedPoolLine } from '../../src/lab/report';

/** An ed25519 public key blob as OpenSSH writes it (type, then 32 key bytes), base64. */
function ed25519(fill: number): string {
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.alloc(32, fill))]).toString('base64');
}
const KEY1 = `ssh-ed25519 ${ed25519(1)}`;
const KEY2 = `ssh-ed25519 ${ed25519(2)}`;
const HOSTS: LabHost[] = [
  { name: '127.0.0.1', port: 40001, knownHostsLine: `[127.0.0.1]:40001 ${KEY1}` },
  { name: '127.0.0.2', port: 40002, knownHostsLine: `[127.0.0.2]:40002 ${KEY2}` },
];
const KNOWN_HOSTS = `[127.0.0.1]:40001 ${KEY1}\n[127.0.0.2]:40002 ${KEY2}\n`;

const app = buildGitopsApp().charts.flatMap((chart) => chart.toJson()) as KubeObject[];
const manifests = labManifests(app, { speedUp: 10 });

describe('lab › off-cluster pools', () => {
  it('starts one sshd host per host the example lists', () => {
    expect(planOffCluster(manifests.objects, manifests.pools)).toEqual({ hostCount: 2 });
    const inClusterOnly = manifests.pools.filter((p) => p.provisioner === 'qemu.jumpstarter.dev');
    expect(planOffCluster(manifests.objects, inClusterOnly)).toEqual({ hostCount: 0 });
  });

  it('moves a class to the lab hosts, keeping slots and arch, and pins their keys', () => {
    const local = localiseParameters(
      {
        hosts: [
          { name: 'bench-01.example.com', arch: 'aarch64', slots: 2, port: 2222, user: 'ops' },
          { name: 'bench-02.example.com' },
        ],
        ssh: { user: 'root', port: 22 },
        board: { soc: 'sa8295' },
      },
      HOSTS,
      'tester',
      'class',
    );
    expect(local).toEqual({
      hosts: [
        { name: '127.0.0.1', port: 40001, user: 'tester', slots: 2, arch: 'aarch64' },
        { name: '127.0.0.2', port: 40002, user: 'tester' },
      ],
      ssh: { user: 'tester' },
      knownHosts: KNOWN_HOSTS,
      board: { soc: 'sa8295' },
    });
  });

  it('leaves set parameters alone unless they name hosts, ssh settings or host keys', () => {
    const fidelity = { board: { fidelity: 'high' } };
    expect(localiseParameters(fidelity, HOSTS, 'tester', 'set')).toBe(fidelity);
    expect(localiseParameters(undefined, HOSTS, 'tester', 'set')).toBeUndefined();
    expect(localiseParameters({ knownHosts: 'stale' }, HOSTS, 'tester', 'set')).toEqual({
      ssh: { user: 'tester' },
      knownHosts: KNOWN_HOSTS,
    });
    expect(
      localiseParameters({ hosts: [{ name: 'only.example.com', slots: 3 }] }, HOSTS, 'tester', 'set'),
    ).toMatchObject({ hosts: [{ name: '127.0.0.1', port: 40001, user: 'tester', slots: 3 }] });
  });

  it('rewrites the example class into valid parameters and a Secret holding the key', () => {
    const { objects, secrets } = localiseOffCluster(
      manifests.objects,
      manifests.pools,
      HOSTS,
      'tester',
      'KEY',
    );
    expect(objects).toHaveLength(manifests.objects.length);
    const cls = objects.find((o) => o.metadata.name === 'qcom-sa8295-baremetal')!;
    const spec = cls.spec as { parameters: unknown; credentialsSecretRef: { name: string } };
    expect(validateQemuSshParameters(spec.parameters)).toEqual([]);
    expect(spec.credentialsSecretRef).toEqual({ name: 'automotive-lab-ssh' });
    expect(secrets).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'automotive-lab-ssh', namespace: 'jumpstarter' },
        type: 'kubernetes.io/ssh-auth',
        data: { 'ssh-privatekey': Buffer.from('KEY').toString('base64') },
      },
    ]);
    // Objects of other provisioners are the same objects.
    const rpi4 = manifests.objects.find((o) => o.metadata.name === 'qemu-rpi4');
    expect(objects).toContain(rpi4);
  });

  it('names a Secret for a class that names none', () => {
    expect(
      credentialsSecretNameOf({ apiVersion: 'x', kind: 'VirtualTargetClass', metadata: { name: 'c' } }),
    ).toBe('c-lab-ssh');
  });

  it('says why an off-cluster pool is not served, and where a served one runs', () => {
    const pool = { name: 'qcom-sa8295-hifi', provisioner: 'qemu-baremetal.jumpstarter.dev' };
    expect(
      unservedPoolLine(pool, {
        unavailable: '/usr/sbin/sshd is missing (apt-get install -y openssh-server)',
      }),
    ).toBe(
      'pool qcom-sa8295-hifi: provisioner qemu-baremetal.jumpstarter.dev is served on local sshd hosts, and ' +
        '/usr/sbin/sshd is missing (apt-get install -y openssh-server); no instances will be created',
    );
    expect(offClusterLine({ hosts: HOSTS }, [pool])).toBe(
      'off-cluster pools qcom-sa8295-hifi served over SSH on 2 sshd hosts on loopback ' +
        '(127.0.0.1:40001, 127.0.0.2:40002); systemctl and podman there are stand-ins',
    );
  });
});
