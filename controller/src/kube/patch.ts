/**
 * Patch calls with the right Content-Type. client-node's generated patch methods send JSON patch
 * unless told otherwise, and an object sent as a JSON patch is a 400 — so every patch here names its
 * strategy: a merge patch (an object merged into the resource; `null` deletes a key) or a JSON patch
 * (RFC 6902 operations; `test` gives a precondition, e.g. on a finalizer's index). Status is written
 * only through the `/status` subresource (SPEC §1), never with the main resource.
 */
import {
  PatchStrategy,
  setHeaderOptions,
  type CoreV1Api,
  type CustomObjectsApi,
} from '@kubernetes/client-node';
import type { ApiResource } from './resources';
import { toWire, type PodObject, type SecretObject } from './wire';

/** One RFC 6902 operation. */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

export type Patch =
  | { readonly type: 'merge'; readonly body: object }
  | { readonly type: 'json'; readonly operations: readonly JsonPatchOperation[] };

/** A JSON merge patch (RFC 7386). */
export function mergePatch(body: object): Patch {
  return { type: 'merge', body };
}

/** A JSON patch (RFC 6902). */
export function jsonPatch(operations: readonly JsonPatchOperation[]): Patch {
  return { type: 'json', operations };
}

/** Request options that send the body with the patch's Content-Type. */
export function patchOptions(patch: Patch): ReturnType<typeof setHeaderOptions> {
  return setHeaderOptions(
    'Content-Type',
    patch.type === 'merge' ? PatchStrategy.MergePatch : PatchStrategy.JsonPatch,
  );
}

function bodyOf(patch: Patch): object {
  return patch.type === 'merge' ? patch.body : patch.operations;
}

/**
 * A JSON pointer (RFC 6901) from path segments, escaping `~` and `/`: label keys such as
 * `exporterset.jumpstarter.dev/name` become `exporterset.jumpstarter.dev~1name`.
 */
export function jsonPointer(...segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** A patch of a namespaced custom object, or of its `/status` subresource. */
function customPatcher(target: 'object' | 'status') {
  return async <T>(
    api: CustomObjectsApi,
    { group, version, plural }: ApiResource,
    namespace: string,
    name: string,
    patch: Patch,
  ): Promise<T> => {
    const request = { group, version, plural, namespace, name, body: bodyOf(patch) };
    const options = patchOptions(patch);
    return (await (target === 'status'
      ? api.patchNamespacedCustomObjectStatus(request, options)
      : api.patchNamespacedCustomObject(request, options))) as T;
  };
}

/** Patches a namespaced custom object (not its status). */
export const patchCustomObject = customPatcher('object');

/** Patches the `/status` subresource of a namespaced custom object. */
export const patchCustomObjectStatus = customPatcher('status');

/** Patches a Secret (the per-instance exporter config) and returns its wire form. */
export async function patchSecret(
  core: Pick<CoreV1Api, 'patchNamespacedSecret'>,
  namespace: string,
  name: string,
  patch: Patch,
): Promise<SecretObject> {
  return toWire(
    await core.patchNamespacedSecret({ namespace, name, body: bodyOf(patch) }, patchOptions(patch)),
  );
}

/** Patches a Pod (an adopted instance's labels) and returns its wire form. */
export async function patchPod(
  core: CoreV1Api,
  namespace: string,
  name: string,
  patch: Patch,
): Promise<PodObject> {
  return toWire(await core.patchNamespacedPod({ namespace, name, body: bodyOf(patch) }, patchOptions(patch)));
}
