/**
 * The install and RBAC, for real: dist/install.yaml applied with `kubectl apply --server-side` to an
 * empty kube-apiserver, the controller started under the installed ServiceAccount's token (so the
 * synthesized ClusterRole and Role are enforced by the real RBAC authorizer), and every single rule
 * taken out of those roles in turn: the controller's startup check names each permission it lost.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuthorizationV1Api } from '@kubernetes/client-node';
import { parseAllDocuments, stringify } from 'yaml';
import { jumpstarterCrds } from 'virtual-exporters/internal';
import { startKubeCluster, type KubeCluster } from 'virtual-exporters-test-cluster';
import type { Manager } from '../../src/manager';
import {
  INSTALL_NAMESPACE,
  SERVICE_ACCOUNT,
  installYaml,
  kubectlApply,
  startControllerAsServiceAccount,
} from './support';

const NS = 'lab';
let cluster: KubeCluster;

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
interface RoleDoc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules: Rule[];
}

/** The ClusterRole and Role of install.yaml, as written. */
function installedRoles(): RoleDoc[] {
  return parseAllDocuments(installYaml())
    .map((d) => d.toJS() as RoleDoc)
    .filter((o) => o?.kind === 'ClusterRole' || o?.kind === 'Role');
}

beforeAll(async () => {
  // Empty: no CRD, no namespace but the API server's own.
  cluster = await startKubeCluster({ crds: [], namespaces: [] });
}, 180_000);
afterAll(() => cluster?.stop());

describe('install › kubectl apply --server-side -f dist/install.yaml', () => {
  it('applies on an empty cluster, and again without changes', async () => {
    const first = await kubectlApply(cluster, installYaml());
    expect(first).toContain(
      'customresourcedefinition.apiextensions.k8s.io/exportersets.virtualtarget.jumpstarter.dev serverside-applied',
    );
    expect(first).toContain(`deployment.apps/exporter-set-controller-qemu serverside-applied`);
    const again = await kubectlApply(cluster, installYaml());
    expect(
      again
        .split('\n')
        .filter(Boolean)
        .every((l) => l.endsWith('serverside-applied')),
    ).toBe(true);
    const sa = await cluster.kubectl([
      'get',
      'serviceaccount',
      SERVICE_ACCOUNT,
      '-n',
      INSTALL_NAMESPACE,
      '-o',
      'name',
    ]);
    expect(sa.stdout.trim()).toBe(`serviceaccount/${SERVICE_ACCOUNT}`);
  });
});

/** /readyz of the manager's health server, verbose. */
async function readyz(manager: Manager): Promise<{ code: number; text: string }> {
  const response = await fetch(`${manager.healthEndpoint!.url}/readyz?verbose`);
  return { code: response.status, text: await response.text() };
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('install › RBAC enforced by kube-apiserver', () => {
  beforeAll(async () => {
    await cluster.installCrds(jumpstarterCrds); // as Jumpstarter's own install does
    await cluster.ensureNamespace(NS);
  }, 120_000);

  const options = { healthProbeBindAddress: '127.0.0.1:0', leaderElect: true };

  it('the synthesized roles grant every permission the controller checks at start', async () => {
    const manager = await startControllerAsServiceAccount(cluster, undefined, options);
    try {
      const ready = await until('the controller ready', async () => {
        const r = await readyz(manager);
        return r.code === 200 ? r : undefined;
      });
      expect(ready.text).toContain('[+]permissions ok');
      // The check covered every rule of both roles: it would have named any of them (next tests).
    } finally {
      await manager.stop();
    }
  }, 60_000);

  // Every rule of the ClusterRole and of the leader-election Role, one at a time.
  const cases = installedRoles().flatMap((role) => role.rules.map((rule, index) => ({ role, index, rule })));

  it.each(
    cases.map(
      (c) =>
        [
          `${c.role.kind} ${c.role.metadata.name} rule ${c.index} (${c.rule.resources.join(',')}: ${c.rule.verbs.join(',')})`,
          c,
        ] as const,
    ),
  )(
    'without %s the startup check names what is missing',
    async (_name, { role, index, rule }) => {
      const cut = { ...role, rules: role.rules.filter((_, i) => i !== index) };
      await kubectlApply(cluster, stringify(cut), ['--force-conflicts']);
      const sa = await cluster.serviceAccountKubeConfig(INSTALL_NAMESPACE, SERVICE_ACCOUNT);
      const authz = sa.kubeConfig.makeApiClient(AuthorizationV1Api);
      const [resource, subresource] = rule.resources[0]!.split('/');
      const allowed = async () =>
        (
          await authz.createSelfSubjectAccessReview({
            body: {
              spec: {
                resourceAttributes: {
                  verb: rule.verbs[0]!,
                  group: rule.apiGroups[0]!,
                  resource: resource!,
                  ...(subresource ? { subresource } : {}),
                  namespace: role.metadata.namespace ?? NS,
                },
              },
            },
          })
        ).status?.allowed;
      // The authorizer's caches see the edit within moments; the check must start after that.
      await until('the rule withdrawn', async () => ((await allowed()) ? undefined : true));
      const manager = await startControllerAsServiceAccount(cluster, undefined, options);
      try {
        const report = await until('the startup check', async () => {
          const r = await readyz(manager);
          return r.text.includes('missing RBAC permissions') ? r : undefined;
        });
        expect(report.code).toBe(503);
        for (const verb of rule.verbs) {
          for (const path of rule.resources) {
            expect(report.text).toContain(`${verb} ${path} (API group ${rule.apiGroups[0] || 'core'})`);
          }
        }
      } finally {
        await manager.stop();
        await kubectlApply(cluster, stringify(role), ['--force-conflicts']);
        await until('the rule restored', async () => ((await allowed()) ? true : undefined));
      }
    },
    60_000,
  );
});
