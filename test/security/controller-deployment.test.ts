/**
 * The controller's Deployment meets the Pod Security "restricted" profile (issue 7, SPEC §4), so it
 * runs in a namespace that enforces it: for every installer shape (one or several provisioners, all
 * or some namespaces, any image and sizes) and as the cdk8s construct synthesizes it.
 */
import { describe, expect, it } from '@jest/globals';
import { ExporterSetController } from '../../lib/cdk8s';
import { buildExporterSetController, type ExporterSetControllerInput } from '../../lib/manifests';
import { synth, testChart } from '../support/synth';
import { restrictedViolations, type PodLike } from './pod-security';

const podTemplates = (objects: readonly Record<string, any>[]): [string, PodLike][] =>
  objects
    .filter((o) => o.kind === 'Deployment')
    .map((d) => [d.metadata.name as string, d.spec.template as PodLike]);

const inputs: [string, ExporterSetControllerInput][] = [
  ['the defaults', {}],
  ['watched namespaces', { watchNamespaces: ['lab', 'ci'] }],
  [
    'two provisioners',
    { provisioners: ['qemu.jumpstarter.dev', 'qemu-baremetal.jumpstarter.dev'], replicas: 2 },
  ],
  [
    'a custom image, sizes and flags',
    {
      image: 'registry.lab/controller:dev',
      imagePullPolicy: 'Always',
      resources: { limits: { cpu: '1', memory: '512Mi' } },
      leaderElect: false,
      logLevel: 'debug',
      maxBurst: 10,
      workers: 8,
    },
  ],
];

describe('the controller Deployment', () => {
  it.each(inputs)('meets "restricted" with %s', (_what, input) => {
    const templates = podTemplates(buildExporterSetController(input));
    expect(templates.length).toBe(input.provisioners?.length ?? 1);
    for (const [name, template] of templates)
      expect([name, restrictedViolations(template)]).toEqual([name, []]);
  });

  it('meets "restricted" as the cdk8s construct synthesizes it', () => {
    const chart = testChart('jumpstarter');
    new ExporterSetController(chart, 'Controller', { namespace: 'jumpstarter', watchNamespaces: ['lab'] });
    const templates = podTemplates(synth(chart));
    expect(templates.map(([name]) => name)).toEqual(['exporter-set-controller-qemu']);
    expect(restrictedViolations(templates[0][1])).toEqual([]);
  });

  it('runs as the image user, read-only, with nothing mounted from the node', () => {
    const [[, template]] = podTemplates(buildExporterSetController({}));
    const spec = template.spec;
    const [container] = spec.containers;
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 65532,
      readOnlyRootFilesystem: true,
    });
    expect(spec.volumes ?? []).toEqual([]);
    expect(container.ports.every((p: { hostPort?: number }) => p.hostPort === undefined)).toBe(true);
  });
});
