/**
 * Resources the API server does not serve: when a CRD the controller watches is not installed
 * (Jumpstarter's Exporter and Lease, or our ExporterSet and VirtualTargetClass), every list of it
 * answers 404 and its informer cache can never sync, so no worker starts and no set gets a status.
 *
 * This turns that state into something an operator sees: an error-level log line per missing
 * resource naming its group, version and resource and how to install it, and a failing `/readyz`
 * check with the same reason. The informers keep retrying with backoff; the first successful list
 * of a resource clears it (an info line says so), the caches sync and the workers start, so the
 * controller recovers by itself once the CRDs are applied.
 */
import { GROUP, JUMPSTARTER_GROUP } from 'virtual-exporters/internal';
import { isNotFound } from '../kube/api-errors';
import {
  ExporterOperationResource,
  ControllerRevisionResource,
  ExporterResource,
  ExporterSetResource,
  JumpstarterLeaseResource,
  PodResource,
  SecretResource,
  VirtualTargetClassResource,
  type ApiResource,
} from '../kube/resources';
import type { HealthCheck } from './health';
import type { Logger } from './logger';

/** Every resource the informers watch, by plural (the name informer errors carry). */
const WATCHED: ReadonlyMap<string, ApiResource> = new Map(
  [
    ExporterSetResource,
    VirtualTargetClassResource,
    ExporterResource,
    JumpstarterLeaseResource,
    PodResource,
    SecretResource,
    ExporterOperationResource,
    ControllerRevisionResource,
  ].map((resource) => [resource.plural, resource]),
);

/** `exporters.jumpstarter.dev/v1alpha1`, as kubectl names a resource (`pods/v1` for core). */
export function qualifiedName(resource: ApiResource): string {
  return resource.group === ''
    ? `${resource.plural}/${resource.version}`
    : `${resource.plural}.${resource.group}/${resource.version}`;
}

/** Where the CRD of `resource` comes from, as an instruction. */
export function installHint(resource: ApiResource): string {
  if (resource.group === JUMPSTARTER_GROUP) {
    return "Jumpstarter's CRDs come with the Jumpstarter installation: install Jumpstarter in this cluster (or, in a cluster without Jumpstarter, set installJumpstarterCrds on the ExporterSetController installer)";
  }
  if (resource.group === GROUP) {
    return 'the ExporterSet, VirtualTargetClass and ExporterOperation CRDs come with the ExporterSetController installer (installCrds, on by default): apply its CRDs';
  }
  return 'check that this is a Kubernetes API server';
}

export class ServedResources {
  private readonly missing = new Map<string, ApiResource>();

  constructor(private readonly logger: Logger) {}

  /**
   * An informer of `plural` failed; true when the error is "not served" (logged here: at error level
   * the first time, at debug level on each retry after that), false when the caller should report it.
   */
  failed(plural: string, error: unknown, retryInMs: number | undefined): boolean {
    // A 404 on a collection: its resource is not served.
    if (!isNotFound(error)) return false;
    const resource = WATCHED.get(plural) ?? { group: '?', version: '?', plural, kind: plural };
    const fields = { group: resource.group, version: resource.version, resource: plural, retryInMs };
    if (this.missing.has(plural)) {
      this.logger.debug(fields, `${qualifiedName(resource)} is still not served`);
    } else {
      this.missing.set(plural, resource);
      this.logger.error(fields, `${this.reason(resource)}; retrying until it is installed`);
    }
    return true;
  }

  /** An informer of `plural` listed its collection: the resource is served. */
  listed(plural: string): void {
    const resource = this.missing.get(plural);
    if (!resource) return;
    this.missing.delete(plural);
    this.logger.info(
      { group: resource.group, version: resource.version, resource: plural },
      `${qualifiedName(resource)} is served now`,
    );
  }

  /** The resources not served, as `qualifiedName`s. */
  notServed(): string[] {
    return [...this.missing.values()].map(qualifiedName);
  }

  /** A readiness check that fails while any watched resource is not served, saying which and why. */
  check(): HealthCheck {
    return () => this.missing.size === 0 || [...this.missing.values()].map((r) => this.reason(r)).join('; ');
  }

  private reason(resource: ApiResource): string {
    const crd = resource.group === '' ? '' : ` (its CustomResourceDefinition is not installed)`;
    return `the API server does not serve ${qualifiedName(resource)}${crd}: ${installHint(resource)}`;
  }
}
