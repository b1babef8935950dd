export { ConfigError, type ConfigOverrides, loadConfig, type NimbusConfig } from './config.js';
export { CliError, ExitCode } from './exit-codes.js';
export { loadPlatformModule, PlatformModuleError } from './load-platform.js';
export { buildProgram, CLI_VERSION, type CliIo, exitCodeFor, runCli } from './program.js';
