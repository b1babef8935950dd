export { type Quotas, TIER_QUOTAS, type Tier } from './broker/limits.js';
export { Namespace } from './broker/namespace.js';
export { type EmulatorCertificates, generateCertificates } from './http/certificates.js';
export { type EmulatorOptions, type RunningEmulator, startEmulator } from './start.js';
export { BrokerError, Condition } from './wire/errors.js';
