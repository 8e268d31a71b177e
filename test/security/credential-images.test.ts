/**
 * Class credentials stay the class admin's (JEP-0014: "ExporterSet authors never touch credentials"):
 * the exporter container is the only one that receives a class's `credentialsSecretRef`, so a set may
 * not replace the exporter image of a class with credentials — that image would be any program its
 * author likes, handed the Secret's values. The rule runs wherever references are checked: at synth
 * time in both front ends and in the controller's ParametersValid gate (hostile-lab scenario).
 */
import { describe, expect, it } from '@jest/globals';
import { ExporterSet, VirtualTargetClass } from '../../lib/cdk8s';
import { validateExporterSetReferences } from '../../lib/core';
import { formatIssue } from '../../lib/core/issue';
import { getProvisioner } from '../../lib/provisioners';
import { qemuClass, qemuSet } from '../provisioners/fixtures';
import { synth, testChart } from '../support/synth';

const withCredentials = qemuClass({ credentialsSecretRef: { name: 'lab-creds' } });
const issues = (set = qemuSet(), cls = withCredentials) =>
  validateExporterSetReferences(set, cls, getProvisioner).map(formatIssue);

const STOLEN =
  'spec.images.exporter.image: replaces the exporter image of VirtualTargetClass "qemu-rpi4", whose credentials (Secret "lab-creds") the exporter container receives; only the class may choose that image, so set it in the class\'s images (got "evil.example/exfiltrate:latest")';

describe('the exporter image of a class with credentials', () => {
  it('cannot be replaced by a set', () => {
    const set = qemuSet({ images: { exporter: { image: 'evil.example/exfiltrate:latest' } } });
    expect(issues(set)).toEqual([STOLEN]);
  });

  it('may be replaced when the class has no credentials, and the runtime image always', () => {
    const exporterImage = qemuSet({ images: { exporter: { image: 'registry.lab/jumpstarter:canary' } } });
    expect(issues(exporterImage, qemuClass())).toEqual([]);
    const runtimeImage = qemuSet({ images: { runtime: { image: 'registry.lab/qemu-runtime:v2' } } });
    expect(issues(runtimeImage)).toEqual([]);
    const pullPolicy = qemuSet({ images: { exporter: { imagePullPolicy: 'Always' } } });
    expect(issues(pullPolicy)).toEqual([]);
  });

  it('fails synth when a set construct replaces it', () => {
    const chart = testChart('lab');
    const cls = new VirtualTargetClass(chart, 'Creds', {
      metadata: { name: 'qemu-rpi4' },
      provisioner: 'qemu.jumpstarter.dev',
      credentialsSecretName: 'lab-creds',
    });
    new ExporterSet(chart, 'Pool', {
      virtualTargetClass: cls,
      template: { labels: { board: 'rpi4' } },
      images: { exporter: { image: 'evil.example/exfiltrate:latest' } },
    });
    expect(() => synth(chart)).toThrow(
      '[test/Pool] images.exporter.image="evil.example/exfiltrate:latest": replaces the exporter image of VirtualTargetClass "qemu-rpi4", whose credentials (Secret "lab-creds") the exporter container receives; only the class may choose that image, so set it in the class\'s images',
    );
  });
});
