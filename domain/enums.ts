/**
 * Enumerations no single business area owns (each area's own are in domain/<area>/enums.ts). The spec
 * names them without values; the values are ours (DESIGN.md leaves them open).
 */
export const OrganisationCountry = ['ES', 'FR', 'DE', 'GB', 'IE', 'US', 'CA'] as const;
export type OrganisationCountry = (typeof OrganisationCountry)[number];

