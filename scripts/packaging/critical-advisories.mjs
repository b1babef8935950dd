#!/usr/bin/env node
// No package with a known critical advisory in the app's runtime tree. Asks the registry's audit
// (`npm audit --omit=dev --json`); when the audit service does not answer, says so and scans the app's lockfile for
// a short list of packages with critical advisories that older dependency chains are known to carry (each entry
// names its advisory). Usage: node critical-advisories.mjs <app dir>
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const appDir = process.argv[2];
/** name → [first fixed version (null: every version), advisory]. */
const KNOWN_CRITICAL = {
  '@babel/traverse': ['7.23.2', 'CVE-2023-45133 (arbitrary code execution compiling crafted code)'],
  vm2: [null, 'CVE-2023-37466 and others (sandbox escape; the package is abandoned)'],
  'shell-quote': ['1.7.3', 'CVE-2021-42740 (command injection)'],
  minimist: ['1.2.6', 'CVE-2021-44906 (prototype pollution)'],
  'loader-utils': ['2.0.3', 'CVE-2022-37601 (prototype pollution)'],
};

function older(version, fixed) {
  const a = version.split(/[.+-]/).map(Number);
  const b = fixed.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

let report;
try {
  report = execFileSync('npm', ['audit', '--omit=dev', '--json'], {
    cwd: appDir,
    encoding: 'utf8',
    stdio: 'pipe',
  });
} catch (error) {
  report = error.stdout ?? '';
}
let audit = null;
try {
  audit = JSON.parse(report);
} catch {
  audit = null;
}
const critical = audit?.metadata?.vulnerabilities?.critical;
if (typeof critical === 'number') {
  if (critical > 0) {
    const names = Object.values(audit.vulnerabilities ?? {})
      .filter((v) => v.severity === 'critical')
      .map((v) => v.name);
    console.error(`npm audit: ${critical} critical advisories in the runtime tree: ${names.join(', ')}`);
    process.exit(1);
  }
  console.log('npm audit (registry): no critical advisory in the runtime tree');
  process.exit(0);
}
console.log(
  `npm audit did not answer (${audit?.error?.summary ?? audit?.message ?? 'no report'}); scanning the lockfile for known critical advisories instead`,
);
const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8'));
const found = [];
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  if (entry.dev || !path.includes('node_modules/')) continue;
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const known = KNOWN_CRITICAL[name];
  if (!known) continue;
  const [fixed, advisory] = known;
  if (fixed === null || older(entry.version, fixed)) found.push(`${name}@${entry.version}: ${advisory}`);
}
if (found.length > 0) {
  console.error(`known critical advisories in the runtime tree:\n${found.join('\n')}`);
  process.exit(1);
}
console.log(`lockfile scan: none of ${Object.keys(KNOWN_CRITICAL).join(', ')} at an affected version`);
