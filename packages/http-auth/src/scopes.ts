/** The `.default` scope of a resource: every permission granted to the application on it. */
export function defaultScopeOf(resource: string | URL): string {
  const url = new URL(resource);
  if (url.protocol !== 'https:')
    throw new TypeError(`An Entra resource must be an https URL, got ${url.href}.`);
  return `${url.origin}/.default`;
}

/** Dataverse (Dynamics 365 Sales, Customer Service…): `https://{org}.crm.dynamics.com/.default`. */
export function dataverseScope(environmentUrl: string | URL): string {
  return defaultScopeOf(environmentUrl);
}

/** Business Central: one scope for every tenant and environment. */
export const BUSINESS_CENTRAL_SCOPE = 'https://api.businesscentral.dynamics.com/.default';

/** Finance and Operations: `https://{env}.operations.dynamics.com/.default`. */
export function financeAndOperationsScope(environmentUrl: string | URL): string {
  return defaultScopeOf(environmentUrl);
}
