// Facade props → the library's props. Only what jsii cannot express differs (int-or-percent values,
// a class behind its facade); enum values are the library's strings, so everything else passes as is.
import type * as lib from 'virtual-exporters/cdk8s';
import type { UpdateStrategy } from './structs';
import type { IVirtualTargetClass } from './virtual-target-class';

type LibSetProps = lib.ExporterSetProps;

/** The library's class behind each facade class. */
const innerClasses = new WeakMap<IVirtualTargetClass, lib.IVirtualTargetClass>();

export function registerInnerClass(facade: IVirtualTargetClass, inner: lib.IVirtualTargetClass): void {
  innerClasses.set(facade, inner);
}

/**
 * What the library's ExporterSet takes for `cls`: the class behind a facade one, else the object itself
 * (a class imported by name, or the class of a QemuPool, are the library's own objects).
 */
export function libraryClass(cls: IVirtualTargetClass): lib.IVirtualTargetClass {
  return innerClasses.get(cls) ?? cls;
}

/** The library's update strategy: int-or-percent values as numbers or "25%" strings. */
export function libraryUpdateStrategy(strategy: UpdateStrategy | undefined): LibSetProps['updateStrategy'] {
  if (strategy === undefined) return undefined;
  const { maxSurge, maxUnavailable, ...rest } = strategy;
  return {
    ...rest,
    ...(maxSurge !== undefined ? { maxSurge: maxSurge.value } : {}),
    ...(maxUnavailable !== undefined ? { maxUnavailable: maxUnavailable.value } : {}),
  };
}

/** Drops the keys whose value is undefined, so the library sees the props a user wrote and no more. */
export function withoutUndefined<T extends object>(props: T): T {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined)) as T;
}
