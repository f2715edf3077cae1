/** Which of the organisation's sales accounts a line of each treatment posts to (Sage's set-up roles). */
import type { AccountRole } from '../reference/chart-defaults.ts';
import type { TaxTreatmentKind } from './enums.ts';

export type SalesAccountRole = Extract<AccountRole, 'saleProducts' | 'intracommunity' | 'foreign'>;

const ROLE: Readonly<Record<TaxTreatmentKind, SalesAccountRole>> = {
  DOMESTIC: 'saleProducts',
  EXEMPT: 'saleProducts',
  INTRA_EU_GOODS: 'intracommunity',
  INTRA_EU_SERVICES: 'intracommunity',
  EXPORT: 'foreign',
  // Services to a business abroad (GB): sold outside the country, like an export.
  OUTSIDE_SCOPE: 'foreign',
};

/** The account role a sales line of this treatment posts its net amount to, when its product names no account. */
export const salesAccountRoleFor = (kind: TaxTreatmentKind): SalesAccountRole => ROLE[kind];
