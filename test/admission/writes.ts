/**
 * The writes of an admission case, as data: what a client sends (create, replace, JSON merge patch,
 * of the object or of its `/status`), so one case runs unchanged on the test cluster's store, on the
 * test cluster over HTTP and on a real kube-apiserver (test/admission/judge.ts).
 */

/** The resources the cases write. */
export type Resource = 'exporterSets' | 'classes' | 'exporters' | 'leases' | 'operations';

type Json = Record<string, any>;

/** One write, in the case's namespace; every write of a case but the last must be admitted. */
export type Write =
  | { readonly verb: 'create'; readonly resource: Resource; readonly object: Json }
  /** PUT of the whole object over the stored one of the same name (an update). */
  | { readonly verb: 'replace'; readonly resource: Resource; readonly object: Json }
  | {
      readonly verb: 'patch';
      readonly resource: Resource;
      readonly name: string;
      readonly patch: Json;
      readonly subresource?: 'status';
    };

/** The resource of an object of one of our kinds or of Jumpstarter's. */
export function resourceOf(kind: string): Resource {
  const resource = (
    {
      ExporterSet: 'exporterSets',
      VirtualTargetClass: 'classes',
      Exporter: 'exporters',
      Lease: 'leases',
      ExporterOperation: 'operations',
    } as const
  )[kind];
  if (!resource) throw new Error(`no resource for kind ${kind}`);
  return resource;
}

/** Creating `object`; with `oldObject`, creating that and then replacing it with `object` (an update). */
export function writesOf(object: Json, oldObject?: Json): Write[] {
  const resource = resourceOf(object.kind);
  return oldObject
    ? [
        { verb: 'create', resource, object: oldObject },
        { verb: 'replace', resource, object },
      ]
    : [{ verb: 'create', resource, object }];
}
