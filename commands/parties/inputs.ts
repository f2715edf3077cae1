/**
 * Inputs of the party mutations, validated with zod. Each schema is also the
 * GraphQL input type's definition (its name given with named(); api/graphql/input-sdl.ts generates
 * the SDL), so a field is typed once. Nested lists are replaced whole on update.
 */
import { z } from 'zod';
import {
  Courtesy, CustomerStatus, CustomerType, EmailUsage, EmployeeStatus, LanguageType, PhoneType, SupplierStatus, SupplierType,
} from '../../domain/parties/enums.ts';
import { gql, named } from '../input-types.ts';
import { PaymentTermLineInput } from '../settings/inputs.ts';

const text = (max: number) => z.string().max(max).nullish();
const name = (max = 200) => z.string().trim().min(1).max(max);
const ref = gql.uuid.nullish();
/** A flag the client may leave out: absent or null means "as it is" (create: the default). */
const flag = z.boolean().nullish().transform((v) => v ?? undefined);
/** A flag of a nested item: absent or null means false. */
const itemFlag = z.boolean().nullish().transform((v) => v ?? false);
const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max).nullish();

export const ENUM_SCHEMAS = {
  CustomerType: gql.enumOf('CustomerType', CustomerType),
  CustomerStatus: gql.enumOf('CustomerStatus', CustomerStatus),
  SupplierType: gql.enumOf('SupplierType', SupplierType),
  SupplierStatus: gql.enumOf('SupplierStatus', SupplierStatus),
  EmployeeStatus: gql.enumOf('EmployeeStatus', EmployeeStatus),
  LanguageType: gql.enumOf('LanguageType', LanguageType),
  Courtesy: gql.enumOf('Courtesy', Courtesy),
  EmailUsage: gql.enumOf('EmailUsage', EmailUsage),
  PhoneType: gql.enumOf('PhoneType', PhoneType),
};
const E = ENUM_SCHEMAS;

const addressLines = {
  name: text(200), firstLine: text(200), secondLine: text(200), city: text(100), province: text(100), zipCode: text(20),
  countryIsoCodeAlpha2: z.string().length(2).nullish(),
};
export const CompanyAddressInput = named('CompanyAddressCreateGLDtoInput', z.object({
  ...addressLines, isMainAddress: itemFlag, isDeliveryAddress: itemFlag, isDefaultDeliveryAddress: itemFlag,
}));
export const EmployeeAddressInput = named('EmployeeAddressCreateGLDtoInput', z.object(addressLines));

const EmailInput = named('ContactEmailCreateGLDtoInput', z.object({ emailAddress: z.string().max(254), usage: E.EmailUsage.nullish(), isDefault: itemFlag }));
const PhoneInput = named('ContactPhoneCreateGLDtoInput', z.object({ number: z.string().max(40), type: E.PhoneType.nullish(), isDefault: itemFlag }));
const SocialMediaInput = named('ContactSocialMediaCreateGLDtoInput', z.object({ name: text(100), link: z.string().max(500) }));
const contactFields = {
  courtesy: E.Courtesy.nullish(), name: text(100), surname: text(100), jobName: text(100), jobAreaId: ref, isDefault: itemFlag,
  emails: list(EmailInput, 10), phones: list(PhoneInput, 10), socialMedias: list(SocialMediaInput, 10),
};
export const CompanyContactInput = named('CompanyContactCreateGLDtoInput', z.object({ ...contactFields, isDefaultCustomer: itemFlag, isDefaultSupplier: itemFlag }));
export const EmployeeContactInput = named('EmployeeContactCreateGLDtoInput', z.object(contactFields));

/** What customers and suppliers share (a supplier is modelled on a customer). */
const company = {
  socialName: name(), tradeName: text(200), documentId: text(50), vatNumber: text(30), comments: text(2000),
  countryAcronym: z.string().length(2).nullish(), documentTypeId: ref, documentLanguage: E.LanguageType.nullish(),
  businessAreaId: ref, defaultAccountingAccountId: ref, defaultPrepaymentAccountingAccountId: ref,
  discount: gql.decimal.nullish(), hasEquivalenceSurcharge: flag, disabled: flag,
  addresses: list(CompanyAddressInput, 20), contacts: list(CompanyContactInput, 50), paymentTermLines: list(PaymentTermLineInput, 12),
};
const customerShape = {
  ...company, specialMention: text(500), eInvoicingAddress: text(200), eInvoicingAddressType: text(50), nafApeCode: text(10),
  customerType: E.CustomerType.nullish(), status: E.CustomerStatus.nullish(), salesDiscountGroupId: ref, salesTariffId: ref,
  nonIdentifiedCustomer: flag, printNameOnPdf: flag, blockDeliveryNoteEnabled: flag, blockInvoiceEnabled: flag, blockOrderEnabled: flag,
};
const supplierShape = { ...company, supplierType: E.SupplierType.nullish(), status: E.SupplierStatus.nullish(), defaultExpenseAccountingAccountId: ref };
const employeeShape = {
  name: name(), shortName: text(50), comments: text(2000), status: E.EmployeeStatus.nullish(), businessAreaId: ref, defaultAccountingAccountId: ref,
  disabled: flag, addresses: list(EmployeeAddressInput, 20), contacts: list(EmployeeContactInput, 50),
};

const code = z.string().min(1).max(20).nullish();
const withId = { id: gql.uuid };
export const IdOnly = (typeName: string) => named(typeName, z.object(withId));

export const CustomerCreateInput = named('CustomerCreateGLDtoInput', z.object({ code, ...customerShape }));
export const CustomerUpdateInput = named('CustomerUpdateGLDtoInput', z.object(withId).extend(z.object(customerShape).partial().shape));
export const SupplierCreateInput = named('SupplierCreateGLDtoInput', z.object({ code, ...supplierShape }));
export const SupplierUpdateInput = named('SupplierUpdateGLDtoInput', z.object(withId).extend(z.object(supplierShape).partial().shape));
export const EmployeeCreateInput = named('EmployeeCreateGLDtoInput', z.object({ code, ...employeeShape }));
export const EmployeeUpdateInput = named('EmployeeUpdateGLDtoInput', z.object(withId).extend(z.object(employeeShape).partial().shape));
