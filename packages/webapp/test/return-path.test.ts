import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../ui/src/return-path.js';

const ORIGIN = 'https://nimbus.example';

describe('safeReturnPath (the sign-in page’s return path)', () => {
  it.each([
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '//evil.example',
    '///evil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/\n/evil.example',
    '/%5Cevil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    ' /x',
    'evil.example',
    '/%2F%2Fevil.example',
    '',
  ])('sends %j to / (never another origin)', (raw) => {
    const result = safeReturnPath(raw, ORIGIN);
    expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
    expect(result.startsWith('//')).toBe(false);
  });

  it.each([
    ['/', '/'],
    ['/endpoints/Erp?tab=failed#top', '/endpoints/Erp?tab=failed#top'],
    ['/events/a/../b', '/events/b'],
  ])('keeps the local path %j as %j', (raw, expected) => {
    expect(safeReturnPath(raw, ORIGIN)).toBe(expected);
  });

  it('refuses the variants that slipped through the old startsWith check', () => {
    for (const raw of ['/\\evil.example', '/\t/evil.example', '/\n/evil.example'])
      expect(safeReturnPath(raw, ORIGIN)).toBe('/');
  });
});
