import type { TrustStore } from '../provisioner';

/**
 * A TrustStore in memory: what a lifecycle uses when it is handed none (synth-time tools, tests). It
 * lasts as long as the object, so trust kept here does not survive a restart.
 */
export class MemoryTrustStore implements TrustStore {
  private document: string | undefined;

  constructor(readonly location = 'the memory of this controller process') {}

  async read(): Promise<string | undefined> {
    return this.document;
  }

  async replace(expected: string | undefined, next: string): Promise<boolean> {
    if (this.document !== expected) return false;
    this.document = next;
    return true;
  }
}
