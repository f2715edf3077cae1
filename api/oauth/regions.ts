/**
 * Country groups (spec 4.3): each organisation's codes and refresh tokens are redeemed only at the
 * token endpoint of its country's group, `/oauth/{na,eu,uk}/token`.
 */
export const REGIONS = ['na', 'eu', 'uk'] as const;
export type Region = (typeof REGIONS)[number];

const REGION_OF_COUNTRY: Readonly<Record<string, Region>> = Object.freeze({
  CA: 'na', US: 'na',
  DE: 'eu', ES: 'eu', FR: 'eu',
  GB: 'uk', IE: 'uk',
});

export function regionOf(country: string): Region | undefined {
  return REGION_OF_COUNTRY[country];
}

export const tokenPath = (region: Region) => `/oauth/${region}/token`;
export const revokePath = (region: Region) => `/oauth/${region}/revoke`;
