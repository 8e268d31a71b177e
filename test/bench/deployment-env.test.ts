/**
 * The benchmarks run the controller with the runtime settings its Deployment ships, read from the
 * rendered Deployment (bench/support/deployment-env.ts), not a hand-kept copy.
 */
import { describe, expect, it } from '@jest/globals';
import { CONTROLLER_RUNTIME_ENV, buildExporterSetController } from 'virtual-exporters/internal';
import { controllerEnv } from '../../bench/support/controller-child';
import { deploymentEnv } from '../../bench/support/deployment-env';

describe('the controller runtime environment of the benchmarks', () => {
  it('is the plain env of the rendered Deployment', () => {
    const deployment = buildExporterSetController({}).find((o) => o.kind === 'Deployment') as {
      spec: { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } };
    };
    const env = deployment.spec.template.spec.containers[0]!.env;
    expect(env).toEqual(
      expect.arrayContaining(
        Object.entries(CONTROLLER_RUNTIME_ENV).map(([name, value]) => ({ name, value })),
      ),
    );
    expect(deploymentEnv()).toEqual(CONTROLLER_RUNTIME_ENV);
    expect(deploymentEnv().NAMESPACE).toBeUndefined(); // from the Pod (valueFrom), not a setting
  });

  it('reaches the controller child, under the variables a benchmark sets itself', () => {
    const env = controllerEnv({ env: { MALLOC_ARENA_MAX: '8' } });
    expect(env.NODE_OPTIONS).toBe(CONTROLLER_RUNTIME_ENV.NODE_OPTIONS);
    expect(env.MALLOC_ARENA_MAX).toBe('8');
  });
});
