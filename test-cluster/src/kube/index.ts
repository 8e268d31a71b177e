// The real cluster: kube-apiserver, etcd and kube-controller-manager built from kube/ (SPEC §5).
export * from './audit';
export * from './binaries';
export * from './cluster';
export { SERVICE_ACCOUNT_ISSUER } from './components';
export { createPki, type ClientCredential, type ClusterPki } from './pki';
