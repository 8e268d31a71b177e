/**
 * The installer's RBAC is least privilege (issue 7, SPEC §4), checked on every Role and ClusterRole
 * it writes rather than on the rule list alone:
 * - no wildcard apiGroup, resource, verb or resource name;
 * - namespaced Roles when namespaces are given: nothing cluster-scoped at all, so no cluster-wide
 *   Secrets access; a ClusterRole only when the controller watches every namespace;
 * - Secrets: exactly list, watch, create and patch. The controller caches only the Secrets an
 *   Exporter owns or that carry the set label and reads tokens from that cache, so it never needs
 *   `get` (which would read any Secret by name), `update` or `delete` — except an installation that
 *   runs a lifecycle provisioner (qemu-ssh), which reads its class's credentials Secret by name (`get`);
 * - no verb or resource that could raise its own privileges or reach into workloads (RBAC objects,
 *   escalate/bind/impersonate, service account tokens, exec, attach, port-forward, nodes);
 * - bindings name only the controller's ServiceAccount.
 * The RBAC replay scenario (controller/test/scenarios/rbac-replay.test.ts) proves the controller
 * needs every verb granted here.
 */
import { describe, expect, it } from '@jest/globals';
import { buildExporterSetController } from '../../lib/manifests';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
type RbacObject = Record<string, any> & { kind: string; metadata: { name: string; namespace?: string } };

const rbac = (input: Parameters<typeof buildExporterSetController>[0]) =>
  (buildExporterSetController(input) as unknown as RbacObject[]).filter((o) =>
    ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].includes(o.kind),
  );

const rulesOf = (objects: readonly RbacObject[]): Rule[] =>
  objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').flatMap((o) => o.rules as Rule[]);

/** `verb group/resource` for every grant, e.g. `patch /secrets`. */
const grants = (rules: readonly Rule[]) =>
  rules.flatMap((r) =>
    r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${v} ${g}/${res}`))),
  );

const INSTALL = 'jumpstarter';
const NAMESPACED = { namespace: INSTALL, watchNamespaces: ['lab', 'ci'] };
const CLUSTER_WIDE = { namespace: INSTALL };

/** Grants that would let the controller raise its privileges or reach into other workloads. */
const DANGEROUS = [
  /^(escalate|bind|impersonate) /,
  / rbac\.authorization\.k8s\.io\//,
  / \/serviceaccounts\/token$/,
  / \/pods\/(exec|attach|portforward|ephemeralcontainers)$/,
  / \/nodes/,
  / \/(persistentvolumes|namespaces)$/,
  / admissionregistration\.k8s\.io\//,
];

describe.each([
  ['namespaced', NAMESPACED],
  ['all namespaces', CLUSTER_WIDE],
])('installer RBAC (%s)', (_mode, input) => {
  const objects = rbac(input);
  const rules = rulesOf(objects);

  it('uses no wildcard', () => {
    const wild = rules.filter((r) =>
      [...r.apiGroups, ...r.resources, ...r.verbs, ...(r.resourceNames ?? [])].some((x) => x.includes('*')),
    );
    expect(wild).toEqual([]);
  });

  it('grants exactly list, watch, create and patch on Secrets, in each role that grants any', () => {
    const roles = objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole');
    const perRole = roles
      .map((o) => grants(o.rules as Rule[]).filter((g) => g.endsWith(' /secrets')))
      .filter((secrets) => secrets.length > 0);
    expect(perRole.length).toBeGreaterThan(0);
    for (const secrets of perRole) {
      expect(secrets.sort()).toEqual([
        'create /secrets',
        'list /secrets',
        'patch /secrets',
        'watch /secrets',
      ]);
    }
  });

  it('grants nothing that raises privileges or reaches into other workloads', () => {
    expect(grants(rules).filter((g) => DANGEROUS.some((d) => d.test(g)))).toEqual([]);
  });

  it('never writes Jumpstarter Leases or classes, and only patches ExporterSets (the drain finalizer)', () => {
    const writes = grants(rules).filter((g) =>
      /^(create|update|patch|delete|deletecollection) (jumpstarter\.dev\/leases|virtualtarget\.jumpstarter\.dev\/virtualtargetclasses|virtualtarget\.jumpstarter\.dev\/exportersets)$/.test(
        g,
      ),
    );
    expect(writes.filter((g) => !g.startsWith('patch virtualtarget.jumpstarter.dev/exportersets'))).toEqual(
      [],
    );
  });

  it('binds its roles to the controller ServiceAccount alone', () => {
    const bindings = objects.filter((o) => o.kind.endsWith('Binding'));
    expect(bindings.length).toBeGreaterThan(0);
    for (const binding of bindings) {
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'exporter-set-controller', namespace: INSTALL },
      ]);
      // A RoleBinding grants its namespace's Role; a ClusterRoleBinding its ClusterRole.
      const role = objects.find(
        (o) =>
          o.kind === binding.roleRef.kind &&
          o.metadata.name === binding.roleRef.name &&
          o.metadata.namespace === binding.metadata.namespace,
      );
      expect(role).toBeDefined();
    }
  });

  it('keeps leader election to coordination Leases in its own namespace', () => {
    const election = objects.filter((o) => o.metadata.name === 'exporter-set-controller-leader-election');
    expect(election.map((o) => `${o.kind}/${o.metadata.namespace}`)).toEqual([
      `Role/${INSTALL}`,
      `RoleBinding/${INSTALL}`,
    ]);
    expect(grants(rulesOf(election)).sort()).toEqual([
      'create coordination.k8s.io/leases',
      'get coordination.k8s.io/leases',
      'update coordination.k8s.io/leases',
    ]);
  });
});

describe('installer RBAC for a lifecycle provisioner (qemu-ssh)', () => {
  it('adds get on Secrets (the class credentials: the SSH key) and nothing else, only when such a provisioner runs', () => {
    const secretsOf = (provisioners: string[]) =>
      grants(rulesOf(rbac({ ...NAMESPACED, provisioners })))
        .filter((g) => g.endsWith(' /secrets'))
        .sort();
    const base = ['create /secrets', 'list /secrets', 'patch /secrets', 'watch /secrets'];
    expect(secretsOf(['qemu.jumpstarter.dev'])).toEqual([...base, ...base].sort());
    const withSsh = [...base, 'get /secrets'].sort();
    expect(secretsOf(['qemu.jumpstarter.dev', 'qemu-ssh.jumpstarter.dev'])).toEqual(
      [...withSsh, ...withSsh].sort(),
    );
    expect(secretsOf(['qemu-baremetal.jumpstarter.dev'])).toEqual([...withSsh, ...withSsh].sort());
    const others = (provisioners: string[]) =>
      grants(rulesOf(rbac({ ...NAMESPACED, provisioners }))).filter((g) => !g.endsWith(' /secrets'));
    expect(others(['qemu-ssh.jumpstarter.dev'])).toEqual(others(['qemu.jumpstarter.dev']));
  });
});

describe('installer RBAC scope', () => {
  it('is namespaced when namespaces are given: a Role per watched namespace and nothing cluster-wide', () => {
    const objects = rbac(NAMESPACED);
    expect(objects.filter((o) => o.kind.startsWith('Cluster'))).toEqual([]);
    const secretsRoles = objects.filter(
      (o) => o.kind === 'Role' && grants(o.rules as Rule[]).some((g) => g.endsWith(' /secrets')),
    );
    expect(secretsRoles.map((o) => o.metadata.namespace).sort()).toEqual(['ci', 'lab']);
  });

  it('uses a ClusterRole only when it watches every namespace', () => {
    const objects = rbac(CLUSTER_WIDE);
    expect(objects.filter((o) => o.kind.startsWith('Cluster')).map((o) => o.kind)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
    ]);
  });
});
