import { type OutputUnit, Validator } from '@cfworker/json-schema';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, ok } from '../api.js';

export interface PayloadProblem {
  /** Where in the payload, e.g. `quantity` or `lines.0.sku`; empty for the payload as a whole. */
  readonly path: string;
  readonly message: string;
}

/** Errors that only say "a child did not match"; the child's own error says what is wrong. */
const SUMMARY_KEYWORDS = new Set(['properties', 'items', 'prefixItems', '$ref', 'allOf']);

function problemsOf(errors: readonly OutputUnit[]): PayloadProblem[] {
  return errors
    .filter((error) => !SUMMARY_KEYWORDS.has(error.keyword))
    .map((error) => ({
      path: error.instanceLocation.replace(/^#\/?/, '').replaceAll('/', '.'),
      message: error.error,
    }));
}

/**
 * Validates the edited payload as the operator types, against the event type's JSON Schema from the API
 * (derived from the platform's schema). The server checks again with the schema itself; this is the early word.
 */
export function usePayloadProblems(endpointId: string, eventTypeId: string | null, text: string | null) {
  const schema = useQuery({
    queryKey: ['endpoint', endpointId, 'event-type-schema', eventTypeId],
    enabled: eventTypeId !== null,
    retry: false,
    queryFn: () =>
      ok(
        api.GET('/api/endpoints/{endpointId}/event-types/{eventTypeId}/schema', {
          params: { path: { endpointId, eventTypeId: eventTypeId ?? '' } },
        }),
      ),
  });
  const validator = useMemo(
    () => (schema.data?.jsonSchema ? new Validator(schema.data.jsonSchema, '2020-12', false) : null),
    [schema.data],
  );
  return useMemo((): PayloadProblem[] => {
    if (text === null) return [];
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      return [{ path: '', message: `Not valid JSON: ${(error as Error).message}` }];
    }
    return validator ? problemsOf(validator.validate(payload).errors) : [];
  }, [text, validator]);
}

export function PayloadProblems({ problems }: { problems: readonly PayloadProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-errors" aria-label="payload problems">
      {problems.map((problem) => (
        <li key={`${problem.path}:${problem.message}`} className="error">
          <code>{problem.path || '(payload)'}</code> {problem.message}
        </li>
      ))}
    </ul>
  );
}
