/**
 * The environment the installer's Deployment gives the controller's container (its runtime settings:
 * V8 and malloc flags, lib/manifests/installer.ts), read from the rendered Deployment so the benchmarks
 * run the controller exactly as it ships rather than with a hand-kept copy of the flags. Entries taken
 * from the Pod (`valueFrom`) are left out: the benchmark sets what they stand for itself.
 */
import { buildExporterSetController } from 'virtual-exporters/internal';

interface EnvVar {
  readonly name: string;
  readonly value?: string;
}

export function deploymentEnv(): Record<string, string> {
  const deployment = buildExporterSetController({}).find((object) => object.kind === 'Deployment') as
    { spec: { template: { spec: { containers: { name: string; env?: EnvVar[] }[] } } } } | undefined;
  const container = deployment?.spec.template.spec.containers.find((c) => c.name === 'controller');
  if (!container) throw new Error('the installer renders no Deployment with a container named controller');
  const env: Record<string, string> = {};
  for (const variable of container.env ?? [])
    if (variable.value !== undefined) env[variable.name] = variable.value;
  return env;
}
