export { startEmulator, type EmulatorOptions, type RunningEmulator } from './start.js';
export { Namespace } from './broker/namespace.js';
export { BrokerError, Condition } from './wire/errors.js';
