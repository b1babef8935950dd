import { describe, expect, it } from 'vitest';
import { EventValidationError, PermanentFailureClassifier } from '../../src/index.js';

class InvalidPayloadError extends Error {}
class SpecificInvalidPayloadError extends InvalidPayloadError {}
class DataSerializationError extends Error {
  override name = 'DataSerializationError';
}
class HttpRequestError extends Error {
  override name = 'HttpRequestError';
}

describe('PermanentFailureClassifier', () => {
  const classifier = new PermanentFailureClassifier({
    errorTypes: [InvalidPayloadError],
    namePatterns: ['Rejected'],
  });

  it('7.7-42/43 dead-letters the JavaScript defaults: SyntaxError and Validation/Serialization names', () => {
    expect(classifier.classify(new SyntaxError('bad json'))).toBe('deadLetter');
    expect(classifier.classify(new EventValidationError('X', []))).toBe('deadLetter');
    expect(classifier.classify(new DataSerializationError('x'))).toBe('deadLetter');
  });

  it('7.7-44 retries everything else', () => {
    expect(classifier.classify(new HttpRequestError('503'))).toBe('retry');
    expect(classifier.classify('a string')).toBe('retry');
  });

  it('7.7-45 custom types (and subclasses) and name patterns are permanent', () => {
    expect(classifier.classify(new SpecificInvalidPayloadError('x'))).toBe('deadLetter');
    const rejected = new Error('x');
    rejected.name = 'OrderRejectedError';
    expect(classifier.classify(rejected)).toBe('deadLetter');
  });

  it('defaults can be switched off; blank patterns are refused', () => {
    expect(new PermanentFailureClassifier({ includeDefaults: false }).classify(new SyntaxError('x'))).toBe(
      'retry',
    );
    expect(() => new PermanentFailureClassifier().addNamePattern('  ')).toThrow(/non-blank/);
  });
});
