/**
 * What Kubernetes grants every authenticated user (the default ClusterRole system:basic-user), so the
 * installer's roles need no rule for it: the startup RBAC check's SelfSubjectAccessReviews
 * (controller/src/operations/permissions.ts). The RBAC replays of the scenarios allow it.
 */
const GRANTED_TO_EVERYONE = new Set(['create authorization.k8s.io/selfsubjectaccessreviews']);

export function grantedToEveryone(request: {
  readonly verb: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
}): boolean {
  const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  return GRANTED_TO_EVERYONE.has(`${request.verb} ${request.group}/${resource}`);
}
