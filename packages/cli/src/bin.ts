#!/usr/bin/env node
import { runCli } from './program.js';
import { exitQuietlyOnClosedPipe } from './quiet-pipe.js';

exitQuietlyOnClosedPipe();

const code = await runCli(process.argv);
process.exitCode = code;
// Everything is closed by now; a stray timer in a dependency must not keep a finished command alive.
setTimeout(() => process.exit(code), 2_000).unref();
