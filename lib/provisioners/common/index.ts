export {
  buildInstancePod,
  configVolume,
  exporterContainer,
  RESTRICTED,
  type ExporterContainerOptions,
  type InstancePodInput,
  type InstancePodParts,
} from './exporter-pod';
export * from './render';
export * from './implicit-driver';
