/** Reported as the Resolver's version in service health. Kept in step with package.json. */
export const RESOLVER_VERSION = '0.1.0';

/** The id under which the Resolver's own liveness is recorded. */
export const RESOLVER_SERVICE_ID = 'Resolver';
