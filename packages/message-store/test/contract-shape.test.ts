import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The store contract's own rule (docs/message-store.md, "Contract v2"): every call with more than one parameter
 * takes one option bag, and every bag is a named type, so providers and callers say the same name instead of
 * restating the shape.
 */

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, '..', '..');
const CONTRACTS = join(packages, 'message-store', 'src', 'contracts');
/** Where the providers implement the contract methods. */
const PROVIDER_DIRS = [
  join(packages, 'message-store', 'src', 'memory'),
  join(packages, 'message-store-sql', 'src', 'store'),
  join(packages, 'message-store-cosmos', 'src', 'store'),
];

function sources(dir: string): ts.SourceFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => {
      const path = join(dir, name);
      return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    });
}

interface Method {
  readonly where: string;
  readonly name: string;
  readonly parameters: ts.NodeArray<ts.ParameterDeclaration>;
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line } = file.getLineAndCharacterOfPosition(node.getStart());
  return `${file.fileName.slice(packages.length + 1)}:${line + 1}`;
}

function contractMethods(): Method[] {
  const found: Method[] = [];
  for (const file of sources(CONTRACTS)) {
    file.forEachChild(function visit(node) {
      if (ts.isInterfaceDeclaration(node)) {
        for (const member of node.members) {
          if (ts.isMethodSignature(member) && member.name && ts.isIdentifier(member.name))
            found.push({ where: where(member), name: member.name.text, parameters: member.parameters });
        }
      }
    });
  }
  return found;
}

function providerMethods(names: ReadonlySet<string>): Method[] {
  const found: Method[] = [];
  for (const dir of PROVIDER_DIRS) {
    for (const file of sources(dir)) {
      const visit = (node: ts.Node): void => {
        if (
          (ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) &&
          ts.isIdentifier(node.name) &&
          names.has(node.name.text)
        )
          found.push({ where: where(node), name: node.name.text, parameters: node.parameters });
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
  }
  return found;
}

const inlineBag = (m: Method) =>
  m.parameters.some((p) => p.type !== undefined && ts.isTypeLiteralNode(p.type));

describe('the store contract', () => {
  const methods = contractMethods();

  it('is read from the contract files', () => {
    expect(methods.length).toBeGreaterThan(70);
    expect(methods.map((m) => m.name)).toContain('getEventInStatus');
  });

  it('takes at most one parameter per method: several values go in one option bag', () => {
    expect(methods.filter((m) => m.parameters.length > 1).map((m) => `${m.where} ${m.name}`)).toEqual([]);
  });

  it('names every option bag (no inline object type)', () => {
    expect(methods.filter(inlineBag).map((m) => `${m.where} ${m.name}`)).toEqual([]);
  });

  it('is implemented by the providers with the same named bags, not restated shapes', () => {
    const implemented = providerMethods(new Set(methods.map((m) => m.name)));
    expect(implemented.length).toBeGreaterThan(100);
    expect(implemented.filter(inlineBag).map((m) => `${m.where} ${m.name}`)).toEqual([]);
    expect(implemented.filter((m) => m.parameters.length > 1).map((m) => `${m.where} ${m.name}`)).toEqual([]);
  });
});
