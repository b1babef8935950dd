#!/usr/bin/env node
// Fails when a package's source imports against the layer order, imports a package it does not declare,
// or declares a runtime dependency it never imports. Usage: node scripts/check-layers.mjs [repo-root]
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles, workspaceFolders } from './lib/source-files.mjs';

/**
 * The layer of every package, lowest first. A package may import only packages of a LOWER layer
 * (apps → sdk → core; providers → contracts). Examples are users of the product: nothing imports them.
 */
export const LAYERS = [
  ['@nimbus/core', '@nimbus/servicebus-emulator', '@nimbus/http-auth', '@nimbus/client'],
  ['@nimbus/sql', '@nimbus/message-store', '@nimbus/transport-memory', '@nimbus/sdk'],
  [
    '@nimbus/transport-sql',
    '@nimbus/transport-azure-service-bus',
    '@nimbus/message-store-sql',
    '@nimbus/message-store-cosmos',
    '@nimbus/reliability',
    '@nimbus/testing',
  ],
  ['@nimbus/resolver', '@nimbus/webapp', '@nimbus/azure-functions'],
  ['@nimbus/cli'],
];

/**
 * Providers implement contracts (providers → contracts): they may use core, sql and message-store, never the
 * application-facing SDK, even though it sits in a lower layer. A rule they share with applications belongs in
 * core (the payload-depth rule moved there from the SDK for this reason).
 */
export const PROVIDERS = [
  '@nimbus/transport-sql',
  '@nimbus/transport-azure-service-bus',
  '@nimbus/message-store-sql',
  '@nimbus/message-store-cosmos',
  '@nimbus/reliability',
];
const APPLICATION_FACING = ['@nimbus/sdk'];

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

function packageNameOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  if (builtins.has(specifier) || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function importsOf(path) {
  const text = readFileSync(path, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((file) => file.fileName);
}

function layerOf(name) {
  const index = LAYERS.findIndex((layer) => layer.includes(name));
  return index === -1 ? null : index;
}

/** Returns the list of problems found under `root` (empty when the layering holds). */
export function checkLayers(root) {
  const problems = [];
  const workspaces = [];
  for (const { dir, group } of workspaceFolders(root)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      workspaces.push({ dir, manifest, isExample: group === 'examples' });
    } catch {
      // not a package folder
    }
  }
  const examples = new Set(workspaces.filter((w) => w.isExample).map((w) => w.manifest.name));
  for (const { dir, manifest, isExample } of workspaces) {
    const name = manifest.name;
    const runtime = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ]);
    const used = new Set();
    const ownLayer = layerOf(name);
    if (!isExample && ownLayer === null) {
      problems.push(`${name}: has no layer in scripts/check-layers.mjs (add it to LAYERS)`);
    }
    for (const file of sourceFiles(join(dir, 'src'))) {
      const where = relative(root, file);
      // Conformance suites are test kits shipped for implementers; they may import their peer test runner.
      const isTestKit = where.includes('/conformance/');
      for (const specifier of importsOf(file)) {
        const target = packageNameOf(specifier);
        if (target === null || target === name) continue;
        used.add(target);
        if (examples.has(target)) {
          problems.push(`${where}: imports the example package ${target} (load it like any user platform)`);
          continue;
        }
        if (!runtime.has(target) && !(isTestKit && manifest.peerDependencies?.[target] !== undefined)) {
          problems.push(`${where}: imports ${target}, which ${name} does not declare as a dependency`);
        }
        if (PROVIDERS.includes(name) && APPLICATION_FACING.includes(target)) {
          problems.push(
            `${where}: ${name} is a provider and imports ${target}; providers depend on contracts (core, sql, message-store), not on the application-facing SDK`,
          );
        }
        const targetLayer = layerOf(target);
        if (!isExample && targetLayer !== null && ownLayer !== null && targetLayer >= ownLayer) {
          problems.push(
            `${where}: ${name} (layer ${ownLayer}) imports ${target} (layer ${targetLayer}); imports must point to a lower layer`,
          );
        }
      }
    }
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      if (!used.has(dependency) && !(manifest.nimbusRuntimeOnly ?? []).includes(dependency)) {
        problems.push(`${name}: declares the dependency ${dependency} but its src never imports it`);
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? process.cwd();
  const problems = checkLayers(root);
  if (problems.length > 0) {
    console.error(`Layer check failed (${problems.length}):`);
    for (const problem of problems) console.error(`- ${problem}`);
    process.exit(1);
  }
  console.log(
    'Layer check passed: every import points to a lower layer and every dependency is declared and used.',
  );
}
