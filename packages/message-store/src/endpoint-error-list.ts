/** Joins composite ids with `;` and a trailing `;` (`"a_s1;b_s2;"`); an empty list is `""`. */
export function formatEndpointErrorList(ids: readonly string[]): string {
  return ids.length === 0 ? '' : `${ids.join(';')};`;
}
