export * from '../src/e2e/platform.js';
