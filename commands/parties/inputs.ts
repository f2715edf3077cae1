/**
 * Inputs of the party mutations, validated with zod. Each schema is also the
 * GraphQL input type's definition (its name given with named(); api/graphql/input-sdl.ts generates
 * the SDL), so a field is typed once. An update's nested items are the create's, every field optional,
 * with their `id` and `requestedAction` (domain/parties/sub-collections.ts).
 */
import { z } from 'zod';
import {
  ContactCollection, Courtesy, CustomerStatus, CustomerType, EmailUsage, EmployeeStatus, LanguageType, PartyCollection, PhoneType,
  RequestedAction, SupplierStatus, SupplierType,
} from '../../domain/parties/enums.ts';
import { gql, named } from '../input-types.ts';
import { PaymentTermLineInput } from '../settings/inputs.ts';

const text = (max: number) => z.string().max(max).nullish();
const name = (max = 200) => z.string().trim().min(1).max(max);
const ref = gql.uuid.nullish();
/**
 * A field with a default (DEFAULTS: status, type, discount): null means "as it is", as for flags, so
 * that no party reads a null standing or type (NONE is Sage's "no standing").
 */
const defaulted = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
/** A flag the client may leave out: absent or null means "as it is" (create: the default). */
const flag = defaulted(z.boolean());
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
  RequestedAction: gql.enumOf('RequestedAction', RequestedAction),
  PartyCollection: gql.enumOf('PartyCollection', PartyCollection),
  ContactCollection: gql.enumOf('ContactCollection', ContactCollection),
};
const E = ENUM_SCHEMAS;

const addressLines = {
  name: text(200), firstLine: text(200), secondLine: text(200), city: text(100), province: text(100), zipCode: text(20),
  countryIsoCodeAlpha2: z.string().length(2).nullish(),
};
/** An update's item: the create's fields, each optional (only those sent change), named by id and action. */
const itemUpdate = { id: gql.uuid.nullish(), requestedAction: E.RequestedAction.nullish() };
const updated = <T extends z.ZodObject>(name: string, create: T) => named(name, create.partial().extend(itemUpdate));

export const CompanyAddressInput = named('CompanyAddressCreateGLDtoInput', z.object({
  ...addressLines, isMainAddress: itemFlag, isDeliveryAddress: itemFlag, isDefaultDeliveryAddress: itemFlag,
}));
export const EmployeeAddressInput = named('EmployeeAddressCreateGLDtoInput', z.object(addressLines));

const EmailInput = named('ContactEmailCreateGLDtoInput', z.object({ emailAddress: z.string().max(254), usage: E.EmailUsage.nullish(), isDefault: itemFlag }));
const PhoneInput = named('ContactPhoneCreateGLDtoInput', z.object({ number: z.string().max(40), type: E.PhoneType.nullish(), isDefault: itemFlag }));
const SocialMediaInput = named('ContactSocialMediaCreateGLDtoInput', z.object({ name: text(100), link: z.string().max(500) }));
const contactScalars = { courtesy: E.Courtesy.nullish(), name: text(100), surname: text(100), jobName: text(100), jobAreaId: ref, isDefault: itemFlag };
const companyContactScalars = { ...contactScalars, isDefaultCustomer: itemFlag, isDefaultSupplier: itemFlag };
const contactLists = (email: z.ZodType, phone: z.ZodType, socialMedia: z.ZodType) => ({ emails: list(email, 10), phones: list(phone, 10), socialMedias: list(socialMedia, 10) });
const createLists = contactLists(EmailInput, PhoneInput, SocialMediaInput);
export const CompanyContactInput = named('CompanyContactCreateGLDtoInput', z.object({ ...companyContactScalars, ...createLists }));
export const EmployeeContactInput = named('EmployeeContactCreateGLDtoInput', z.object({ ...contactScalars, ...createLists }));

const updateLists = {
  ...contactLists(
    updated('ContactEmailUpdateGLDtoInput', EmailInput), updated('ContactPhoneUpdateGLDtoInput', PhoneInput), updated('ContactSocialMediaUpdateGLDtoInput', SocialMediaInput),
  ),
  replaceAll: z.array(E.ContactCollection).max(ContactCollection.length).nullish(),
};
const CompanyContactUpdateInput = updated('CompanyContactUpdateGLDtoInput', z.object({ ...companyContactScalars, ...updateLists }));
const EmployeeContactUpdateInput = updated('EmployeeContactUpdateGLDtoInput', z.object({ ...contactScalars, ...updateLists }));

/** What customers and suppliers share (a supplier is modelled on a customer). */
const company = {
  socialName: name(), tradeName: text(200), documentId: text(50), vatNumber: text(30), comments: text(2000),
  countryAcronym: z.string().length(2).nullish(), documentTypeId: ref, documentLanguage: E.LanguageType.nullish(),
  businessAreaId: ref, defaultAccountingAccountId: ref, defaultPrepaymentAccountingAccountId: ref,
  discount: defaulted(gql.decimal), hasEquivalenceSurcharge: flag, disabled: flag, paymentTermLines: list(PaymentTermLineInput, 12),
};
const companyLists = { addresses: list(CompanyAddressInput, 20), contacts: list(CompanyContactInput, 50) };
const companyUpdateLists = {
  addresses: list(updated('CompanyAddressUpdateGLDtoInput', CompanyAddressInput), 20), contacts: list(CompanyContactUpdateInput, 50),
};
const customerShape = {
  ...company, specialMention: text(500), eInvoicingAddress: text(200), eInvoicingAddressType: text(50), nafApeCode: text(10),
  customerType: defaulted(E.CustomerType), status: defaulted(E.CustomerStatus), salesDiscountGroupId: ref, salesTariffId: ref,
  nonIdentifiedCustomer: flag, printNameOnPdf: flag, blockDeliveryNoteEnabled: flag, blockInvoiceEnabled: flag, blockOrderEnabled: flag,
};
const supplierShape = { ...company, supplierType: defaulted(E.SupplierType), status: defaulted(E.SupplierStatus), defaultExpenseAccountingAccountId: ref };
const employeeShape = {
  name: name(), shortName: text(50), comments: text(2000), status: defaulted(E.EmployeeStatus), businessAreaId: ref, defaultAccountingAccountId: ref, disabled: flag,
};
const employeeLists = { addresses: list(EmployeeAddressInput, 20), contacts: list(EmployeeContactInput, 50) };
const employeeUpdateLists = {
  addresses: list(updated('EmployeeAddressUpdateGLDtoInput', EmployeeAddressInput), 20), contacts: list(EmployeeContactUpdateInput, 50),
};

const code = z.string().min(1).max(20).nullish();
const withId = { id: gql.uuid };
export const IdOnly = (typeName: string) => named(typeName, z.object(withId));

/**
 * An update: the id, any field of the create (only those sent change), each nested list as patches.
 * `code` and `requestedAction` are what Sage clients send back from the party they read: the code must
 * be the party's and the action MODIFY. replaceAll names the lists that the items sent replace.
 */
const update = (typeName: string, shape: z.ZodRawShape, lists: z.ZodRawShape) => named(typeName, z.object({
  ...withId, ...z.object(shape).partial().shape, ...lists, code, requestedAction: E.RequestedAction.nullish(),
  replaceAll: z.array(E.PartyCollection).max(PartyCollection.length).nullish(),
}));

export const CustomerCreateInput = named('CustomerCreateGLDtoInput', z.object({ code, ...customerShape, ...companyLists }));
export const CustomerUpdateInput = update('CustomerUpdateGLDtoInput', customerShape, companyUpdateLists);
export const SupplierCreateInput = named('SupplierCreateGLDtoInput', z.object({ code, ...supplierShape, ...companyLists }));
export const SupplierUpdateInput = update('SupplierUpdateGLDtoInput', supplierShape, companyUpdateLists);
export const EmployeeCreateInput = named('EmployeeCreateGLDtoInput', z.object({ code, ...employeeShape, ...employeeLists }));
export const EmployeeUpdateInput = update('EmployeeUpdateGLDtoInput', employeeShape, employeeUpdateLists);
