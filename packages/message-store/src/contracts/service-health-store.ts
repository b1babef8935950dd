import type { ServiceHealth } from '../entities/heartbeat.js';

/** `tryClaimServiceProbe`: the probe a service is about to be sent. */
export interface ServiceProbeClaim {
  readonly serviceId: string;
  readonly dueBefore: Date;
  readonly probeMessageId: string;
}

/** Liveness of the platform's own services, kept apart from endpoints so none reads as a phantom endpoint. */
export interface ServiceHealthStore {
  /** Every row, ordered by service id. */
  getServiceHealth(): Promise<ServiceHealth[]>;
  /**
   * Atomic: succeeds when the row is missing (created as Unknown) or no probe was sent since
   * `dueBefore`; then stamps `lastProbeSentUtc = now` and records the probe id.
   */
  tryClaimServiceProbe(claim: ServiceProbeClaim): Promise<boolean>;
  /** Records an outcome (status, version, last seen, round trip), clears the in-flight probe id; never changes `lastProbeSentUtc`. */
  setServiceHealth(health: ServiceHealth): Promise<boolean>;
  /** Settles in-flight probes sent at or before the cutoff to Off; returns the ids touched. */
  sweepTimedOutServiceProbes(cutoffUtc: Date): Promise<string[]>;
}
