/** The roots a Sage client calls first: the organisation, the user, enumerations (pm-001, 023, 028, 068; s1-057). */
import { assert, nodesOf, type SageOperation } from './operation.ts';

export const ORGANISATION: SageOperation[] = [
  {
    name: 'organizations with only x-api-key and the bearer, filtered by status READY (pm-001, pm-002)',
    headers: 'bearerOnly',
    query: `query organizations { organizations(where: { status: { eq: READY } }, first: 10) { totalCount edges { node { id socialName tenantId legislationCode creationDate modificationDate onboardingCompleted documentTypeId } } } }`,
    expect(data, ctx) {
      assert.deepEqual(nodesOf(data.organizations).map((o) => [o.id, o.legislationCode]), [[ctx.organisationId, 'ES']]);
    },
  },
  {
    name: 'userProfile without X-OrganizationId (pm-068, S1 00)',
    headers: 'bearerOnly',
    query: `query userProfile { userProfile { id fullName authenticationEmail applicationLanguageCode } }`,
    expect(data) { assert.equal(data.userProfile.authenticationEmail, 'demo@example.com'); },
  },
  {
    name: 'users through `... on User`, filtered and ordered by fullName (pm-023, pm-028)',
    query: `query users { users(where: { authenticationEmail: { eq: "demo@example.com" } }, order: [{ fullName: ASC }]) { edges { node { ... on User { id fullName authenticationEmail applicationLanguageCode } } } } }`,
    expect(data) { assert.deepEqual(nodesOf(data.users).map((u) => u.authenticationEmail), ['demo@example.com']); },
  },
  {
    name: 'localizedEnumValues(enumName, language) without X-OrganizationId (s1-057)',
    headers: 'bearerOnly',
    query: `query localizedEnumValues($enumName: String!, $language: String!) { localizedEnumValues(enumName: $enumName, language: $language) { value label } }`,
    variables: () => ({ enumName: 'JournalTypeType', language: 'es' }),
    expect(data) {
      const values = data.localizedEnumValues.map((v: any) => v.value);
      assert.ok(values.includes('FINANCIAL') && values.includes('CARRY_FORWARD'), `values ${values}`);
    },
  },
  {
    name: 'organizationById with $id: ID! (pm-070 action list, §1.3)',
    query: `query organizationById($id: ID!) { organizationById(id: $id) { id socialName legislationCode } }`,
    variables: (ctx) => ({ id: ctx.organisationId }),
    expect(data, ctx) { assert.deepEqual([data.organizationById.id, data.organizationById.legislationCode], [ctx.organisationId, 'ES']); },
  },
  {
    name: 'userAccessPolicyCheck(actions: [String!]!) on roots and mutations we serve (pm-070, s1-045)',
    query: `query userAccessPolicyCheck($actions: [String!]!) { userAccessPolicyCheck(actions: $actions) { action isAllowed } }`,
    variables: () => ({ actions: ['accountingEntries', 'createAccountingEntryUsingCodes', 'deleteCustomer'] }),
    expect(data) {
      assert.deepEqual(data.userAccessPolicyCheck, [
        { action: 'accountingEntries', isAllowed: true }, { action: 'createAccountingEntryUsingCodes', isAllowed: true }, { action: 'deleteCustomer', isAllowed: true },
      ]);
    },
  },
  {
    name: 'thirdPartyCodeModeSettings (s1-052)',
    query: `query thirdPartyCodeModeSettings { thirdPartyCodeModeSettings { customerCodeIsManual supplierCodeIsManual employeeCodeIsManual } }`,
    expect(data) { assert.deepEqual(Object.values(data.thirdPartyCodeModeSettings).map((v) => typeof v), ['boolean', 'boolean', 'boolean']); },
  },
  {
    name: 'localizedErrorMessage(errorCode, language) without X-OrganizationId (s1-058)',
    headers: 'bearerOnly',
    query: `query localizedErrorMessage($errorCode: String!, $language: String!) { localizedErrorMessage(errorCode: $errorCode, language: $language) { errorCode language message } }`,
    variables: () => ({ errorCode: 'global.businessErrors.invalidVatNumber', language: 'es' }),
    expect(data) { assert.equal(data.localizedErrorMessage.errorCode, 'global.businessErrors.invalidVatNumber'); assert.ok(data.localizedErrorMessage.message); },
  },
];
