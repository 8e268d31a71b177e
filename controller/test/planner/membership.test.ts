/**
 * Membership (SPEC §3.16): which set an Exporter, a Pod or a Secret belongs to — the controlling
 * ExporterSet first, the set label second — and which Exporters the controller's cache keeps.
 */
import { describe, expect, it } from '@jest/globals';
import { API_VERSION, JUMPSTARTER_API_VERSION, Labels, type Exporter } from 'virtual-exporters/internal';
import { keepExporter } from '../../src/kube/informers';
import {
  concernsSet,
  controllingSetName,
  owningExporterName,
  ownedByExporter,
  setNameOfExporter,
  type OwnedMetadata,
} from '../../src/planner';
import { makeSet } from './builders';

const setRef = (name: string, extra: object = {}) => ({
  apiVersion: API_VERSION,
  kind: 'ExporterSet',
  name,
  uid: `uid-${name}`,
  controller: true,
  ...extra,
});
const exporterRef = (name: string, extra: object = {}) => ({
  apiVersion: JUMPSTARTER_API_VERSION,
  kind: 'Exporter',
  name,
  uid: `uid-${name}`,
  ...extra,
});
const object = (labels: Record<string, string>, ownerReferences: object[]): OwnedMetadata =>
  ({ metadata: { name: 'x', labels, ownerReferences } }) as OwnedMetadata;

describe('membership › the set of an Exporter', () => {
  const cases: [string, OwnedMetadata, string | undefined, boolean][] = [
    ['controlled, no labels (upstream-made)', object({ board: 'rpi4' }, [setRef('pool')]), 'pool', true],
    ['labelled, no owner (detached)', object({ [Labels.exporterSetName]: 'pool' }, []), 'pool', true],
    [
      'controlled by one set, labelled with another',
      object({ [Labels.exporterSetName]: 'old' }, [setRef('pool')]),
      'pool',
      true,
    ],
    ['owned, not as controller', object({}, [setRef('pool', { controller: false })]), undefined, false],
    [
      'an owner of another group',
      object({}, [setRef('pool', { apiVersion: 'example.com/v1' })]),
      undefined,
      false,
    ],
    ['an owner of another kind', object({}, [setRef('pool', { kind: 'ReplicaSet' })]), undefined, false],
    ['an empty set label', object({ [Labels.exporterSetName]: '' }, []), undefined, true],
    ['neither (hardware)', object({ board: 'rpi4' }, []), undefined, false],
    [
      'malformed owner references',
      { metadata: { ownerReferences: 'no' } } as unknown as OwnedMetadata,
      undefined,
      false,
    ],
  ];
  it.each(cases)('%s', (_what, exporter, set, kept) => {
    expect(setNameOfExporter(exporter)).toBe(set);
    expect(keepExporter(exporter as never)).toBe(kept);
  });

  it('concerns the set it is controlled by or labelled with, by name', () => {
    const set = makeSet();
    expect(concernsSet(object({}, [setRef('pool')]) as Exporter, set)).toBe(true);
    expect(concernsSet(object({ [Labels.exporterSetName]: 'pool' }, []) as Exporter, set)).toBe(true);
    expect(concernsSet(object({}, [setRef('other')]) as Exporter, set)).toBe(false);
    expect(controllingSetName(object({}, [setRef('other'), setRef('pool', { controller: false })]))).toBe(
      'other',
    );
  });
});

describe('membership › the Exporter of a Pod or a Secret', () => {
  it('is the controlling Exporter owner, else the first Exporter owner', () => {
    expect(owningExporterName(object({}, [exporterRef('a'), exporterRef('b', { controller: true })]))).toBe(
      'b',
    );
    expect(owningExporterName(object({}, [exporterRef('a')]))).toBe('a');
    expect(owningExporterName(object({}, [setRef('pool')]))).toBeUndefined();
  });

  it('owns it when the reference names it, by uid when both have one', () => {
    const exporter = { metadata: { name: 'a', uid: 'uid-a' } } as Exporter;
    expect(ownedByExporter(object({}, [exporterRef('a')]), exporter)).toBe(true);
    expect(ownedByExporter(object({}, [exporterRef('a', { uid: 'uid-earlier-a' })]), exporter)).toBe(false);
    expect(ownedByExporter(object({}, [exporterRef('b')]), exporter)).toBe(false);
    expect(ownedByExporter(object({}, []), exporter)).toBe(false);
  });
});
