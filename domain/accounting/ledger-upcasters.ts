/** The Ledger's event shapes over time (see upcasters.ts). */
import type { EventUpcaster } from '../upcasters.ts';
import { RENAMED } from './enums.ts';
import { renamed } from '../renaming.ts';
import type { PostedLine } from './ledger.ts';

/**
 * AccountingEntryPosted 1 -> 2: a line without a third party has thirdCode null, never ''. Until 3d5a33d
 * (22 Nov 2026) a code sent empty was posted as '', so a read model showed an empty third party and the
 * ledger counted '' as a party in use.
 */
const emptyThirdCodeIsNone: EventUpcaster = {
  type: 'AccountingEntryPosted',
  from: 1,
  upcast(data) {
    const lines = data.lines as PostedLine[];
    if (!lines.some((l) => l.thirdCode === '')) return data;
    return { ...data, lines: lines.map((l) => (l.thirdCode === '' ? { ...l, thirdCode: null } : l)) };
  },
};

/** AccountingEntryPosted 2 -> 3: the entry and source types with Sage's values (enums.ts RENAMED). */
const sageEntryValues: EventUpcaster = {
  type: 'AccountingEntryPosted',
  from: 2,
  upcast: (data) => ({
    ...data, entryType: renamed(data.entryType, RENAMED.entryType), sourceType: renamed(data.sourceType, RENAMED.sourceType),
  }),
};

export const LEDGER_UPCASTERS: readonly EventUpcaster[] = [emptyThirdCodeIsNone, sageEntryValues];
