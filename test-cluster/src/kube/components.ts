/**
 * The command lines of the real cluster's components, in one place so a reader sees the whole
 * cluster: etcd (no fsync: a test cluster's data lives as long as the run), kube-apiserver on
 * loopback with RBAC, x509 client identities, a service-account issuer and an audit log, and
 * kube-controller-manager with the controllers the project relies on.
 */
import { join } from 'node:path';

export interface ComponentPorts {
  readonly etcdClient: number;
  readonly etcdPeer: number;
  readonly apiServer: number;
}

/** The controllers of kube-controller-manager the suite needs (SPEC §5: GC, namespaces, tokens). */
export const CONTROLLERS = ['garbagecollector', 'namespace', 'serviceaccount', 'serviceaccount-token'];

export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export function etcdArgs(dir: string, ports: ComponentPorts): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return [
    '--name=default',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

export interface ApiServerFiles {
  readonly caCertFile: string;
  readonly serviceAccountKeyFile: string;
  readonly serviceAccountPublicKeyFile: string;
  readonly auditPolicyFile: string;
  readonly auditLogFile: string;
}

export function apiServerArgs(dir: string, ports: ComponentPorts, files: ApiServerFiles): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    // The `kubernetes` Service's endpoints may not be loopback, and nothing in the tests dials it.
    '--endpoint-reconciler-type=none',
    `--secure-port=${ports.apiServer}`,
    `--cert-dir=${join(dir, 'serving')}`,
    `--client-ca-file=${files.caCertFile}`,
    '--authorization-mode=RBAC',
    `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
    `--service-account-key-file=${files.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${files.serviceAccountKeyFile}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--allow-privileged=true',
    `--audit-policy-file=${files.auditPolicyFile}`,
    `--audit-log-path=${files.auditLogFile}`,
    '--audit-log-mode=blocking',
    '--profiling=false',
  ];
}

export function controllerManagerArgs(
  kubeconfigFile: string,
  files: Pick<ApiServerFiles, 'serviceAccountKeyFile'>,
  rootCaFile: string,
): string[] {
  return [
    `--kubeconfig=${kubeconfigFile}`,
    `--controllers=${CONTROLLERS.join(',')}`,
    `--service-account-private-key-file=${files.serviceAccountKeyFile}`,
    `--root-ca-file=${rootCaFile}`,
    '--leader-elect=false',
    '--secure-port=0',
    '--profiling=false',
  ];
}
