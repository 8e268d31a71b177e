import { ProvisionerNames } from '../../api';

/** The Exporter annotation that records an instance's host; its placement. */
export const HOST_ANNOTATION = `${ProvisionerNames.qemuSsh}/host`;

/** The class credentials Secret key holding the SSH private key (a `kubernetes.io/ssh-auth` Secret). */
export const SSH_PRIVATE_KEY = 'ssh-privatekey';
