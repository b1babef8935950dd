import { describe, expect, it } from 'vitest';
import { failureSignature, normaliseErrorMessage } from '../src/index.js';

describe('failure signature', () => {
  it('puts one cause with different values in one group', () => {
    const a = failureSignature('ValidationError', "VAT number 'DK12345678' rejected for order 1001");
    const b = failureSignature('ValidationError', "VAT number 'SE987654321001' rejected for order 77");
    expect(a.key).toBe(b.key);
    expect(a.key).toBe('ValidationError: VAT number <value> rejected for order <n>');
  });

  it('keeps different causes and different error types apart', () => {
    const vat = failureSignature('ValidationError', 'VAT number missing');
    const stock = failureSignature('ValidationError', 'Stock level too low');
    const typed = failureSignature('TypeError', 'VAT number missing');
    expect(new Set([vat.key, stock.key, typed.key]).size).toBe(3);
  });

  it('strips ids, urls, e-mail addresses, timestamps and uses the first line only', () => {
    expect(
      normaliseErrorMessage(
        'Customer 3f2b8c1e-9d4a-4b6e-8f00-1234567890ab (ord-7781x) at https://erp.example/api/1 by a@b.com on 2026-12-01T10:00:00Z\n  at stack line',
      ),
    ).toBe('Customer <id> (<id>) at <url> by <email> on <time>');
  });

  it("keeps an example the message's author wrote in, and still groups the values around it (#26)", () => {
    const a = failureSignature('ErpRejectedError', "'XX-1' is not a valid VAT number (e.g. DK12345678)");
    const b = failureSignature('ErpRejectedError', "'12' is not a valid VAT number (e.g. DK12345678)");
    expect(a.key).toBe(b.key);
    expect(a.normalisedMessage).toBe('<value> is not a valid VAT number (e.g. DK12345678)');
    expect(
      normaliseErrorMessage('Order 1001 refused (for example SKU ab12cd34) at 2026-12-01T10:00:00Z'),
    ).toBe('Order <n> refused (for example SKU ab12cd34) at <time>');
  });

  it('names a missing error type Error and bounds the key', () => {
    const signature = failureSignature(null, 'x'.repeat(1000));
    expect(signature.errorType).toBe('Error');
    expect(signature.key.length).toBe(400);
  });
});
