import type { paths } from './generated/openapi.js';

export type NimbusPath = keyof paths;
type Method = 'get' | 'post' | 'put' | 'delete';

type SuccessJson<Responses> = {
  [Status in keyof Responses]: Status extends 200 | 201 | 202
    ? Responses[Status] extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never;
}[keyof Responses];

/** The JSON an operation answers with on success: `ResponseBody<'/api/endpoints'>`. */
export type ResponseBody<Path extends NimbusPath, M extends Method = 'get'> = paths[Path][M] extends {
  responses: infer Responses;
}
  ? SuccessJson<Responses>
  : never;

/** The JSON body an operation takes: `RequestBody<'/api/account/tokens'>`. */
export type RequestBody<Path extends NimbusPath, M extends Method = 'post'> = paths[Path][M] extends {
  requestBody?: { content: { 'application/json': infer Json } };
}
  ? Json
  : never;

/** The query parameters of an operation: `QueryOf<'/api/endpoints/{endpointId}/events'>`. */
export type QueryOf<Path extends NimbusPath, M extends Method = 'get'> = paths[Path][M] extends {
  parameters: { query?: infer Query };
}
  ? NonNullable<Query>
  : never;
