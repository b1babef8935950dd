import { EventValidationError } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../src/exit-codes.js';
import { type CliIo, exitCodeFor, runCli } from '../src/program.js';

function capture(): CliIo & { out_: string[]; err_: string[] } {
  const out_: string[] = [];
  const err_: string[] = [];
  return { out_, err_, out: (line) => out_.push(line), err: (text) => err_.push(text) };
}

const argv = (...args: string[]) => ['node', 'nimbus', ...args];

describe('nimbus exit codes', () => {
  it('help and version exit 0', async () => {
    const io = capture();
    expect(await runCli(argv('--help'), io)).toBe(0);
    expect(io.out_.join('\n')).toContain('Usage: nimbus');
    expect(await runCli(argv('--version'), capture())).toBe(0);
    const sub = capture();
    expect(await runCli(argv('events', 'resubmit', '--help'), sub)).toBe(0);
    expect(sub.out_.join('\n')).toContain('--set <field=value...>');
  });

  it('bad usage exits 2: a bare group, an unknown command or option, a missing argument, a bad choice', async () => {
    expect(await runCli(argv('store'), capture())).toBe(ExitCode.Usage);
    expect(await runCli(argv('bogus'), capture())).toBe(ExitCode.Usage);
    expect(await runCli(argv('store', 'verify', '--bogus'), capture())).toBe(ExitCode.Usage);
    expect(await runCli(argv('events', 'show', 'Erp'), capture())).toBe(ExitCode.Usage);
    const io = capture();
    expect(await runCli(argv('store', 'verify', '--store', 'mysql'), io)).toBe(ExitCode.Usage);
    expect(io.err_.join('')).toContain('mysql');
  });

  it('configuration and input errors exit 2 with one line naming the problem', async () => {
    const io = capture();
    expect(await runCli(argv('topology', 'export', '--platform', './no/such/module.js'), io)).toBe(
      ExitCode.Usage,
    );
    expect(io.err_.join('')).toMatch(/^nimbus: Could not load platform module '\.\/no\/such\/module\.js'/);
    const empty = capture();
    expect(await runCli(argv('store', 'migrate', '--store', 'memory'), empty)).toBe(ExitCode.Usage);
    expect(empty.err_.join('')).toContain('The memory store has no schema');
  });

  it('topology export prints the platform as JSON', async () => {
    const io = capture();
    expect(await runCli(argv('topology', 'export', '--platform', '@nimbus/example-crm-erp'), io)).toBe(0);
    const doc = JSON.parse(io.out_.join('\n')) as {
      endpoints: { id: string; consumes: { id: string }[] }[];
      topology: { routes: unknown[] };
    };
    expect(doc.endpoints.map((e) => e.id)).toEqual(['Credit', 'Crm', 'Erp']);
    expect(doc.endpoints.find((e) => e.id === 'Erp')?.consumes).toEqual([
      { id: 'CustomerUpserted', kind: 'event' },
    ]);
    expect(doc.topology.routes).toContainEqual({
      source: 'Crm',
      eventTypeId: 'CustomerUpserted',
      target: 'Erp',
    });
  });

  it('maps thrown errors to codes', () => {
    const io = capture();
    expect(exitCodeFor(new CliError('gone', ExitCode.NotFound), io)).toBe(4);
    expect(exitCodeFor(new EventValidationError('T', [{ path: 'sku', message: 'Required' }]), io)).toBe(2);
    expect(exitCodeFor(new Error('database is locked'), io)).toBe(1);
    expect(io.err_).toEqual([
      'nimbus: gone\n',
      expect.stringContaining('nimbus: '),
      'nimbus: database is locked\n',
    ]);
  });
});
