/**
 * A line's third party (Sage's AccountingEntryThirdParty): the code, party id and kind the posting recorded
 * (stored on the line, filterable), completed at read time with the party's current name and identifiers from
 * the parties' read models, so an erased party reads as its read model shows it. Completed by the recorded id
 * only: lines stored before it was recorded got it in the projection from the party they named when posted
 * (third-party-references.ts); a line naming no party (free text) shows its code and nothing of any party.
 */
import { derivedId } from '../../domain/ids.ts';
import type { ThirdPartyOrigin } from '../../domain/accounting/ledger.ts';
import { f, type Resource } from '../engine/resource.ts';
import { Customer, Employee, Supplier } from '../parties/read-models.ts';

type Row = Record<string, unknown>;

const PARTY_RESOURCES: Record<ThirdPartyOrigin, () => Resource> = { CUSTOMER: () => Customer, EMPLOYEE: () => Employee, SUPPLIER: () => Supplier };

export const accountingEntryThirdParty = f.embedded('accountingEntryThirdParty', 'AccountingEntryThirdParty', {
  filterBy: { code: 'thirdCode', thirdPartyId: 'thirdPartyId', origin: 'thirdPartyOrigin' },
  completedBy: { idField: 'thirdPartyId', kindField: 'thirdPartyOrigin', resources: PARTY_RESOURCES },
  resolve: (line: Row, party: { kind: string; row: Row } | null) => {
    if (!line.thirdCode) return null;
    const p = party?.row ?? {};
    return {
      // One per line: an id of its own, derived from the line's.
      id: derivedId(String(line.id), 'accounting-entry-third-party', 'line'),
      code: party ? p.code : line.thirdCode,
      thirdPartyId: line.thirdPartyId ?? null,
      origin: line.thirdPartyOrigin ?? null,
      // An employee has a name, not a social name.
      socialName: p.socialName ?? p.name ?? null,
      vatNumber: p.vatNumber ?? null,
      documentId: p.documentId ?? null,
      identificationTypeId: p.documentTypeId ?? null,
      countryAcronym: p.countryAcronym ?? null,
      viesCode: p.viesCode ?? null,
      creationDate: line.creationDate,
      modificationDate: line.modificationDate,
    };
  },
});
