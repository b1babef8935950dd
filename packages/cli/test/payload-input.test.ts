import { describe, expect, it } from 'vitest';
import { applyEdits, readPayload } from '../src/commands/payload-input.js';
import { ExitCode } from '../src/exit-codes.js';

describe('payload input', () => {
  it('reads --payload and refuses text that is not JSON, or both sources at once', () => {
    expect(readPayload({ payload: ' {"a":1} ' })).toBe('{"a":1}');
    expect(readPayload({})).toBeNull();
    expect(() => readPayload({ payload: '{a:1}' })).toThrow(/--payload is not valid JSON/);
    expect(() => readPayload({ payload: '{}', payloadFile: 'x.json' })).toThrow(
      /either --payload or --payload-file/,
    );
    try {
      readPayload({ payloadFile: '/no/such/file.json' });
      expect.unreachable();
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(ExitCode.Usage);
      expect((error as Error).message).toContain('/no/such/file.json');
    }
  });

  it('--set edits top-level fields, parsing JSON values and keeping other text as strings', () => {
    const edited = applyEdits('{"vatNumber":"DK-BAD","quantity":50,"name":"A"}', [
      'vatNumber=DK12345678',
      'quantity=5',
      'active=true',
    ]);
    expect(JSON.parse(edited)).toEqual({ vatNumber: 'DK12345678', quantity: 5, name: 'A', active: true });
    expect(() => applyEdits('{}', ['novalue'])).toThrow("--set expects field=value; got 'novalue'");
    expect(() => applyEdits('[1]', ['a=1'])).toThrow(/JSON object/);
  });
});
