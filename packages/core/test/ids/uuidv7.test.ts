import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/index.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7', () => {
  it('has the version 7 and RFC 4122 variant bits', () => {
    for (let i = 0; i < 1000; i++) expect(uuidv7()).toMatch(UUID_V7);
  });

  it('carries the creation time in its first 48 bits', () => {
    const at = Date.UTC(2031, 4, 6, 7, 8, 9, 123);
    const id = uuidv7(at + 1_000_000);
    const ms = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(ms).toBe(at + 1_000_000);
  });

  it('is unique and sorts in creation order, also many ids within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => uuidv7(Date.UTC(2032, 0, 1)));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
