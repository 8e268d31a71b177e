export * from './sshd-host';
export * from './host-agent';
