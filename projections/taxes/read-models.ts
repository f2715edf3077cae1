/**
 * The organisation's taxes, tax treatments and tax groups as read models, in Sage's names (sage-names.md §5,
 * S1 15). Installed from the country's catalogue with the organisation (projections.ts); a field Sage names
 * that we keep nothing for is null (absent), never invented.
 */
import { RegimeType, TAX_ENUMS, TaxType } from '../../domain/taxes/enums.ts';
import { f, type Resource } from '../engine/resource.ts';
import { AccountingAccount } from '../accounting/read-models.ts';

export const TaxGroup: Resource = {
  typeName: 'TaxGroup',
  table: 'tax_groups',
  scope: 'organisation',
  query: { field: 'taxGroups', connection: 'TaxGroupsConnection' },
  defaultOrder: ['code'],
  fields: [f.string('code'), f.dateTime('creationDate'), f.uuid('id'), f.dateTime('modificationDate'), f.string('name')],
};

/** Sage's Tax: one rate of one tax, in its group. */
export const Tax: Resource = {
  typeName: 'Tax',
  table: 'taxes',
  scope: 'organisation',
  query: { field: 'taxes', connection: 'TaxesConnection' },
  indexes: [['organisation_id', 'tax_group_id']],
  defaultOrder: ['code'],
  fields: [
    f.string('code'),
    f.dateTime('creationDate'),
    f.decimal('equivalenceSurchargePercentage'),
    f.ref('group', 'TaxGroup', () => TaxGroup, 'taxGroupId'),
    f.string('groupName'),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.decimal('percentage'),
    f.uuid('taxGroupId'),
    f.enum('taxType', 'TaxType', TaxType),
  ],
};

/** Sage's TaxTreatment: how a line is taxed, the tax it charges (taxCode) and the accounts it posts to. */
export const TaxTreatment: Resource = {
  typeName: 'TaxTreatment',
  table: 'tax_treatments',
  scope: 'organisation',
  query: { field: 'taxTreatments', connection: 'TaxTreatmentsConnection' },
  defaultOrder: ['code'],
  fields: [
    f.bool('admitsCashVAT', { column: 'admits_cash_vat' }),
    f.string('code'),
    f.dateTime('creationDate'),
    f.string('description'),
    f.bool('hasPercentageCompensation'),
    f.bool('hasSurcharge'),
    f.uuid('id'),
    f.bool('inactive'),
    f.ref('inputAccountingAccount', 'AccountingAccount', () => AccountingAccount, 'inputAccountingAccountId'),
    f.uuid('inputAccountingAccountId'),
    f.string('intraKey'),
    f.absent('invoiceTypeId', 'UUID'),
    f.bool('isImplicit'),
    f.bool('isIntracomunity'),
    f.bool('isService'),
    f.absent('isState', 'Boolean'),
    // Ours: how the treatment taxes a line (domain/taxes/enums.ts TaxTreatmentKind), what the sales posting reads.
    f.string('kind', { hidden: true, rest: false }),
    f.dateTime('modificationDate'),
    f.ref('outputAccountingAccount', 'AccountingAccount', () => AccountingAccount, 'outputAccountingAccountId'),
    f.uuid('outputAccountingAccountId'),
    f.enum('regimeType', 'RegimeType', RegimeType),
    f.enum('registerType', 'RegisterType', TAX_ENUMS.RegisterType),
    f.string('taxCode'),
    f.uuid('taxGroupId'),
    f.string('taxGroupName'),
    f.absent('taxOperationTypeId', 'UUID'),
    f.absent('taxOperationTypeName', 'String'),
    f.enum('taxType', 'TaxType', TaxType),
    f.string('transcendenceKey'),
  ],
};

export const TAX_RESOURCES: Resource[] = [TaxGroup, Tax, TaxTreatment];
