import { ProvisionerNames } from '../api';
import { androidProvisioner } from './android/provisioner';
import { corelliumProvisioner } from './corellium/provisioner';
import type { Provisioner } from './provisioner';
import { qemuProvisioner } from './qemu/provisioner';
import { qemuBaremetalProvisioner, qemuSshProvisioner } from './qemu-ssh/provisioner';

/** The provisioners this version implements (`qemu-baremetal` is the JEP's name for `qemu-ssh`). */
export const builtinProvisioners: readonly Provisioner[] = [
  qemuProvisioner,
  qemuSshProvisioner,
  qemuBaremetalProvisioner,
  corelliumProvisioner,
  androidProvisioner,
];

/**
 * Provisioner names from the JEP that this version knows but does not implement yet. Classes and sets
 * naming them are accepted as they are (no parameter validation), so manifests for another
 * controller's provisioner can be written with this library; a plug-in may still register one.
 */
export const RESERVED_PROVISIONERS: readonly string[] = [ProvisionerNames.ec2];

/** A set of provisioners by name. The functions below use one shared instance. */
export class ProvisionerRegistry {
  private readonly byName = new Map<string, Provisioner>();

  constructor(provisioners: readonly Provisioner[] = builtinProvisioners) {
    for (const p of provisioners) this.register(p);
  }

  get(name: string): Provisioner | undefined {
    return this.byName.get(name);
  }

  /** Implemented (registered) names, sorted. */
  implementedNames(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** Implemented (registered) names, then the reserved ones not registered, each sorted. */
  knownNames(): string[] {
    const registered = [...this.byName.keys()].sort();
    const reserved = RESERVED_PROVISIONERS.filter((n) => !this.byName.has(n)).sort();
    return [...registered, ...reserved];
  }

  /**
   * Adds a plug-in. Refuses a malformed plug-in and a name that is already registered (a plug-in can
   * take a reserved name, since that is how a JEP provisioner gets implemented outside this library).
   * Returns a function that removes it again.
   */
  register(provisioner: Provisioner): () => void {
    assertProvisioner(provisioner);
    if (this.byName.has(provisioner.name)) {
      throw new Error(
        `provisioner "${provisioner.name}" is already registered; a plug-in needs a name of its own, ` +
          `such as "<name>.<your-domain>"`,
      );
    }
    this.byName.set(provisioner.name, provisioner);
    return () => {
      if (this.byName.get(provisioner.name) === provisioner) this.byName.delete(provisioner.name);
    };
  }
}

function assertProvisioner(p: unknown): asserts p is Provisioner {
  const candidate = p as Partial<Provisioner> | null | undefined;
  if (typeof candidate?.name !== 'string' || candidate.name.trim().length === 0) {
    throw new TypeError('a provisioner needs a non-empty name, such as "qemu.jumpstarter.dev"');
  }
  for (const method of ['validate', 'render'] as const) {
    if (typeof candidate[method] !== 'function') {
      throw new TypeError(
        `provisioner "${candidate.name}" has no ${method}() function; a provisioner implements validate and render`,
      );
    }
  }
}

const defaultRegistry = new ProvisionerRegistry();

/** The provisioner registered under `name`, or undefined (reserved names included, unless registered). */
export function getProvisioner(name: string): Provisioner | undefined {
  return defaultRegistry.get(name);
}

/** Every name a class may use: registered provisioners first, then reserved ones. */
export function knownProvisionerNames(): string[] {
  return defaultRegistry.knownNames();
}

/** The provisioners this build implements: what a controller Deployment can run with `--provisioner`. */
export function implementedProvisionerNames(): string[] {
  return defaultRegistry.implementedNames();
}

/** True for a JEP name this version accepts without validating its parameters. */
export function isReservedProvisioner(name: string): boolean {
  return RESERVED_PROVISIONERS.includes(name) && defaultRegistry.get(name) === undefined;
}

/** Registers a user plug-in in the shared registry; see {@link ProvisionerRegistry.register}. */
export function registerProvisioner(provisioner: Provisioner): () => void {
  return defaultRegistry.register(provisioner);
}
