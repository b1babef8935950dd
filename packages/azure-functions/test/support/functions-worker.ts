import { randomUUID } from 'node:crypto';
import Module from 'node:module';

// Plays the Functions worker's part for `@azure/functions`: the worker provides the `@azure/functions-core` module
// through which the library registers functions and its programming model; here it is a module of this file.

export interface Registration {
  readonly metadata: { readonly name: string; readonly bindings: Record<string, { type: string }> };
  readonly callback: (...args: unknown[]) => unknown;
}

interface InvocationModel {
  getArguments(): Promise<{ context: unknown; inputs: unknown[] }>;
  invokeFunction(context: unknown, inputs: unknown[], callback: Registration['callback']): Promise<unknown>;
  getResponse(context: unknown, result: unknown): Promise<unknown>;
}

export const registrations = new Map<string, Registration>();
let programmingModel: { getInvocationModel(coreContext: unknown): InvocationModel } | null = null;
export const workerLog: string[] = [];

const coreApi = {
  version: '3.10.1',
  setProgrammingModel(model: typeof programmingModel) {
    programmingModel = model;
  },
  registerFunction(metadata: Registration['metadata'], callback: Registration['callback']) {
    registrations.set(metadata.name, { metadata, callback });
    return { dispose: () => registrations.delete(metadata.name) };
  },
  log(level: string, category: string, message: string) {
    workerLog.push(`${level} ${category} ${message}`);
  },
};

const CORE = '@azure/functions-core';
const fakePath = `/${CORE}/index.cjs`;
const mod = Module as unknown as {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
  _cache: Record<string, unknown>;
};
const resolve = mod._resolveFilename;
mod._resolveFilename = (request, ...rest) => (request === CORE ? fakePath : resolve(request, ...rest));
const cached = new Module(fakePath);
cached.exports = coreApi;
cached.loaded = true;
mod._cache[fakePath] = cached;

/** The trigger binding's name in a registration (the key the host sends the trigger's input under). */
function triggerName(registration: Registration): string {
  const entry = Object.entries(registration.metadata.bindings).find(([, b]) => /trigger$/i.test(b.type));
  if (!entry) throw new Error(`function '${registration.metadata.name}' has no trigger binding`);
  return entry[0];
}

/**
 * Invokes a registered function as the worker does on an InvocationRequest: `@azure/functions` builds the
 * InvocationContext and converts the inputs (model binding data through the registered SDK-binding factory).
 */
export async function invoke(
  name: string,
  input: { readonly content: Buffer; readonly triggerMetadata: Record<string, unknown> },
): Promise<unknown> {
  const registration = registrations.get(name);
  if (!registration) throw new Error(`no function '${name}' is registered`);
  if (!programmingModel) throw new Error('@azure/functions set no programming model');
  const invocationId = randomUUID();
  const triggerMetadata = Object.fromEntries(
    Object.entries(input.triggerMetadata).map(([key, value]) => [key, { json: JSON.stringify(value) }]),
  );
  const model = programmingModel.getInvocationModel({
    invocationId,
    metadata: registration.metadata,
    state: undefined,
    log: (level: string, category: string, message: string) => coreApi.log(level, category, message),
    request: {
      invocationId,
      triggerMetadata,
      traceContext: {
        traceParent: `00-${randomUUID().replace(/-/g, '')}-${randomUUID().slice(0, 16).replace(/-/g, '0')}-01`,
      },
      inputData: [
        {
          name: triggerName(registration),
          data: {
            modelBindingData: {
              content: input.content,
              source: 'AzureServiceBusReceivedMessage',
              contentType: 'application/octet-stream',
              version: '1.0',
            },
          },
        },
      ],
    },
  });
  const { context, inputs } = await model.getArguments();
  const result = await model.invokeFunction(context, inputs, registration.callback);
  return model.getResponse(context, result);
}
