import type * as components from '../../../lib/pulumi';
import { classPropsOf, propsOf, type InvalidPropsCase } from '../../support/invalid-props';

/** Starts the line on which deploy-invalid-props.ts prints its result (the SDK may print notes around it). */
export const RESULT_MARKER = 'invalid-props-failures: ';

/** Installer args that decide which resources exist: always plain values (see ExporterSetControllerArgs). */
const LAYOUT_ARGS = new Set([
  'provisioners',
  'watchNamespaces',
  'installCrds',
  'installJumpstarterCrds',
  'opsPack',
]);

function wrapArgs(props: Record<string, unknown>, wrap: (value: unknown) => unknown): any {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, LAYOUT_ARGS.has(k) ? v : wrap(v)]));
}

/**
 * Builds one case of the shared invalid-props table as Pulumi components named `name`, each arg passed
 * through `wrap` (the identity for plain args, `pulumi.output` for Outputs).
 */
export function buildCase(
  api: typeof components,
  c: InvalidPropsCase,
  name: string,
  wrap: (value: unknown) => unknown,
): void {
  const args = wrapArgs(propsOf(c), wrap);
  switch (c.construct) {
    case 'VirtualTargetClass':
      new api.VirtualTargetClass(name, args);
      return;
    case 'ExporterSet': {
      const cls = new api.VirtualTargetClass(`${name}-class`, wrapArgs(classPropsOf(c), wrap));
      new api.ExporterSet(name, { ...args, virtualTargetClass: cls });
      return;
    }
    case 'QemuPool':
      new api.QemuPool(name, args);
      return;
    case 'ExporterSetController':
      new api.ExporterSetController(name, args);
  }
}
