import type { Transport } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { createEndpointHost, type EndpointHost, type EndpointHostOptions } from '@nimbus/sdk';
import { type FunctionsApp, registerSessionTrigger, type SessionAdopter } from './session-trigger.js';

export interface EndpointFunctionsOptions extends Omit<EndpointHostOptions, 'transport' | 'processor'> {
  /** A `ServiceBusTransport` on the namespace the trigger's connection points at. */
  readonly transport: Transport & SessionAdopter;
  /** The app setting holding the Service Bus connection (e.g. `NimbusServiceBus`). */
  readonly connection: string;
  /** The function's name; default `nimbus-<endpoint id>` (characters other than letters, digits, `-`, `_` become `-`). */
  readonly functionName?: string;
}

/**
 * Hosts a NimBus endpoint in Azure Functions: builds the same `EndpointHost` the SDK runs (engine, publisher,
 * handoff client, inbox, circuit breaker; its own session processor is never started, the Functions host
 * takes sessions instead) and registers a session-enabled Service Bus trigger on the endpoint's input whose
 * invocations run that engine. Returns the host for its publisher and handoff client.
 */
export function registerEndpointFunctions(
  app: FunctionsApp,
  options: EndpointFunctionsOptions,
): EndpointHost {
  if (typeof options.connection !== 'string' || options.connection.trim() === '') {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'registerEndpointFunctions: connection must name the app setting of the Service Bus connection.',
    );
  }
  if (typeof options.transport?.adoptSession !== 'function') {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      'registerEndpointFunctions: transport must be a ServiceBusTransport (@nimbus/transport-azure-service-bus): the trigger settles through the Functions host on Service Bus.',
    );
  }
  const host = createEndpointHost(options);
  registerSessionTrigger(app, {
    name: options.functionName ?? `nimbus-${host.endpoint.id.replace(/[^A-Za-z0-9_-]/g, '-')}`,
    input: host.endpoint.id,
    connection: options.connection,
    sessions: options.transport,
    handler: host.engine,
  });
  return host;
}
