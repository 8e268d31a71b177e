/**
 * The startup check of the controller's RBAC: for every permission of the installer's rules
 * (`controllerRules`, and `LEADER_ELECTION_RULES` with `--leader-elect`) a SelfSubjectAccessReview
 * asks the API server whether this process may use it, in each watched namespace (cluster-wide when
 * it watches all). A permission the server denies is logged as an error naming the verb, resource,
 * namespace and the rule's reason, and keeps `/readyz` failing with the same sentence — so a role
 * edited by hand shows what it lacks at start instead of as 403s in the middle of a drain.
 *
 * An API server that does not serve SelfSubjectAccessReviews (the test cluster) leaves nothing to
 * check: discovery says so first, so such a server sees no review request (a create) at all. A
 * review that fails otherwise is retried with backoff and named in `/readyz` meanwhile.
 */
import { ApisApi, AuthorizationV1Api } from '@kubernetes/client-node';
import type { ControllerRule } from 'virtual-exporters/internal';
import type { KubeClients } from '../kube/clients';
import type { Clock } from '../queue/clock';
import type { HealthCheck } from './health';
import type { Logger } from './logger';

/** One permission to review: a verb on a resource (with its subresource) in a namespace or cluster-wide. */
export interface Permission {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  /** undefined: cluster-wide */
  readonly namespace?: string;
  readonly why: string;
}

/** The permissions `rules` grant, in each of `namespaces` (undefined: cluster-wide). */
export function permissionsOf(
  rules: readonly ControllerRule[],
  namespaces: readonly string[] | undefined,
): Permission[] {
  const out: Permission[] = [];
  for (const rule of rules) {
    for (const group of rule.apiGroups) {
      for (const path of rule.resources) {
        const [resource = path, subresource] = path.split('/');
        for (const verb of rule.verbs) {
          for (const namespace of namespaces ?? [undefined]) {
            out.push({
              verb,
              group,
              resource,
              ...(subresource ? { subresource } : {}),
              ...(namespace !== undefined ? { namespace } : {}),
              why: rule.why,
            });
          }
        }
      }
    }
  }
  return out;
}

/** The sentence an operator reads: what is missing, where, and why the controller needs it. */
export function describePermission(p: Permission): string {
  const resource = `${p.resource}${p.subresource ? `/${p.subresource}` : ''}`;
  const group = p.group === '' ? 'core' : p.group;
  const where = p.namespace === undefined ? 'cluster-wide' : `in namespace ${p.namespace}`;
  return `${p.verb} ${resource} (API group ${group}) ${where}, needed for: ${p.why}`;
}

type Verdict = 'allowed' | 'denied' | 'unverifiable';

export class PermissionCheck {
  private readonly api: AuthorizationV1Api;
  private readonly apis: ApisApi;
  private denied: Permission[] = [];
  private pending: string | undefined = 'the RBAC permission check has not run yet';
  private stopped = false;

  constructor(
    clients: Pick<KubeClients, 'apiClient'>,
    private readonly permissions: readonly Permission[],
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.api = clients.apiClient(AuthorizationV1Api);
    this.apis = clients.apiClient(ApisApi);
  }

  /** Whether the server serves authorization.k8s.io/v1 (discovery: a read, no review made). */
  private async reviewsServed(): Promise<boolean> {
    const groups = await this.apis.getAPIVersions();
    return groups.groups.some(
      (g) => g.name === 'authorization.k8s.io' && g.versions.some((v) => v.version === 'v1'),
    );
  }

  /** Reviews every permission; retries (1 s doubling to 30 s) while the reviews themselves fail. */
  async run(): Promise<void> {
    for (let delayMs = 1000; !this.stopped; delayMs = Math.min(delayMs * 2, 30_000)) {
      try {
        if (!(await this.reviewsServed())) {
          this.logger.debug('SelfSubjectAccessReviews are not served: RBAC permissions not checked');
          this.pending = undefined;
          return;
        }
        const verdicts = await Promise.all(this.permissions.map((p) => this.review(p)));
        if (verdicts.includes('unverifiable')) {
          this.logger.debug('SelfSubjectAccessReviews are not served: RBAC permissions not checked');
        }
        this.denied = this.permissions.filter((_, i) => verdicts[i] === 'denied');
        for (const p of this.denied) {
          this.logger.error({ permission: describePermission(p) }, 'missing RBAC permission');
        }
        this.pending = undefined;
        return;
      } catch (error) {
        this.pending = `the RBAC permission check failed (retrying): ${(error as Error).message}`;
        this.logger.warn({ err: error, retryInMs: delayMs }, 'RBAC permission check failed');
        await new Promise<void>((resolve) => this.clock.setTimeout(resolve, delayMs));
      }
    }
  }

  stop(): void {
    this.stopped = true;
  }

  /** The permissions the server denied (empty before the check ran). */
  missing(): readonly Permission[] {
    return this.denied;
  }

  /** The `/readyz` check: ready once every permission is granted. */
  readiness(): HealthCheck {
    return () => {
      if (this.pending) return this.pending;
      if (this.denied.length === 0) return true;
      return `missing RBAC permissions: ${this.denied.map(describePermission).join('; ')}`;
    };
  }

  private async review(p: Permission): Promise<Verdict> {
    try {
      const review = await this.api.createSelfSubjectAccessReview({
        body: {
          spec: {
            resourceAttributes: {
              verb: p.verb,
              group: p.group,
              resource: p.resource,
              ...(p.subresource ? { subresource: p.subresource } : {}),
              ...(p.namespace !== undefined ? { namespace: p.namespace } : {}),
            },
          },
        },
      });
      return review.status?.allowed ? 'allowed' : 'denied';
    } catch (error) {
      if ((error as { code?: number }).code === 404) return 'unverifiable';
      throw error;
    }
  }
}
