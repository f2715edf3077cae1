/**
 * Party command handlers (customers, suppliers, employees): validate input (zod), assign child ids,
 * decide against the Parties aggregate with the chart and shared settings as facts, seal the personal
 * part of every event with the data subject's key, append. Erasure destroys the key, then records it.
 */
import { z } from 'zod';
import { Errors, fail } from '../../domain/errors.ts';
import type { LedgerState } from '../../domain/accounting/ledger.ts';
import { PERSONAL_FIELDS, type ClearFields, type PartyKind, type PartyPersonal, type PersonalFields } from '../../domain/parties/fields.ts';
import { decideParties, type PartiesState, type PartyCommand, type PartyEvent, type PartyFacts } from '../../domain/parties/parties.ts';
import type { PartyInput } from '../../domain/parties/party-body.ts';
import { seal } from '../../platform/sealed.ts';
import type { SubjectKeys } from '../../platform/subject-keys.ts';
import { type AccountingCommands } from '../accounting/handlers.ts';
import { IdInput } from '../accounting/inputs.ts';
import { LedgerAggregate } from '../accounting/aggregates.ts';
import { defined, newId, parse } from '../handler.ts';
import { AggregateStore, type CommandContext } from '../aggregate-store.ts';
import { PartiesAggregate } from './aggregates.ts';
import { SettingsAggregate } from '../settings/aggregates.ts';
import {
  CustomerCreateInput, CustomerUpdateInput, EmployeeCreateInput, EmployeeUpdateInput, SupplierCreateInput, SupplierUpdateInput,
} from './inputs.ts';

type Loose = Record<string, any>;

export class PartyCommands {
  constructor(
    private readonly accounting: AccountingCommands,
    private readonly keys: SubjectKeys,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private get aggregates(): AggregateStore {
    return this.accounting.aggregates;
  }

  createCustomer = (ctx: CommandContext, input: unknown) => this.create(ctx, 'customer', CustomerCreateInput, input);
  updateCustomer = (ctx: CommandContext, input: unknown) => this.update(ctx, 'customer', CustomerUpdateInput, input);
  deleteCustomer = (ctx: CommandContext, input: unknown) => this.delete(ctx, 'customer', input);
  applyGdprCustomer = (ctx: CommandContext, input: unknown) => this.applyGdpr(ctx, 'customer', input);
  createSupplier = (ctx: CommandContext, input: unknown) => this.create(ctx, 'supplier', SupplierCreateInput, input);
  updateSupplier = (ctx: CommandContext, input: unknown) => this.update(ctx, 'supplier', SupplierUpdateInput, input);
  deleteSupplier = (ctx: CommandContext, input: unknown) => this.delete(ctx, 'supplier', input);
  applyGdprSupplier = (ctx: CommandContext, input: unknown) => this.applyGdpr(ctx, 'supplier', input);
  createEmployee = (ctx: CommandContext, input: unknown) => this.create(ctx, 'employee', EmployeeCreateInput, input);
  updateEmployee = (ctx: CommandContext, input: unknown) => this.update(ctx, 'employee', EmployeeUpdateInput, input);
  deleteEmployee = (ctx: CommandContext, input: unknown) => this.delete(ctx, 'employee', input);
  applyGdprEmployee = (ctx: CommandContext, input: unknown) => this.applyGdpr(ctx, 'employee', input);

  async parties(organisationId: string): Promise<PartiesState> {
    return (await this.aggregates.load(PartiesAggregate, organisationId)).state;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  private async create(ctx: CommandContext, kind: PartyKind, schema: z.ZodType, input: unknown) {
    const { code, ...values } = parse(schema, input) as Loose;
    const partyId = newId(ctx, kind);
    const partyInput = this.toPartyInput(ctx, kind, values);
    const r = await this.partiesCommand(ctx, { type: 'CreateParty', kind, partyId, code: code ?? null, input: partyInput, now: this.now() });
    return { id: partyId, code: (r.events[0].data as { code: string }).code, position: r.position };
  }

  private async update(ctx: CommandContext, kind: PartyKind, schema: z.ZodType, input: unknown) {
    const { id, ...values } = parse(schema, input) as Loose;
    const r = await this.partiesCommand(ctx, { type: 'UpdateParty', kind, partyId: id, input: this.toPartyInput(ctx, kind, defined(values)), now: this.now() });
    return { id: id as string, position: r.position };
  }

  /** Refused while a live entry of any exercise names the party; all ledgers are locked meanwhile. */
  private async delete(ctx: CommandContext, kind: PartyKind, input: unknown) {
    const { id } = parse(IdInput, input);
    return this.withAllLedgers(ctx, async (ledgers) => {
      const usedByEntries = (codeOrId: string) => ledgers.some((l) => l.thirdCodeUsage.has(codeOrId));
      const r = await this.partiesCommand(ctx, { type: 'DeleteParty', kind, partyId: id, now: this.now() }, usedByEntries);
      return { id, position: r.position };
    });
  }

  /**
   * Erasure: decided first (the party exists, of this kind, not yet erased), then the key is destroyed,
   * then the event appended. Should the append fail, the data is already unreadable and a retry
   * completes the record (destroying is idempotent).
   */
  private async applyGdpr(ctx: CommandContext, kind: PartyKind, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.partiesCommand(ctx, { type: 'ApplyGdpr', kind, partyId: id, now: this.now() }, () => false, () => this.keys.destroy(ctx.organisationId, id));
    return { id, position: r.position };
  }

  private partiesCommand(ctx: CommandContext, command: PartyCommand, usedByEntries: PartyFacts['usedByEntries'] = () => false, afterDecide?: () => Promise<void>) {
    const organisationId = ctx.organisationId;
    const settingsLock = AggregateStore.streamId(SettingsAggregate.category, organisationId);
    return this.aggregates.execute(PartiesAggregate, organisationId, ctx, async (state) => {
      // The settings' lock is held too: a business area cannot be deleted while a party starts using it.
      const organisation = await this.accounting.organisation(organisationId);
      const settings = (await this.aggregates.loadHeld(SettingsAggregate, organisationId)).state;
      const events = decideParties(command, state, { organisation, settings, usedByEntries });
      await afterDecide?.();
      return Promise.all(events.map((e) => this.sealed(organisationId, e)));
    }, [settingsLock]);
  }

  /** The event with its personal part sealed by the subject's key; refused once the key is destroyed. */
  private async sealed(organisationId: string, event: PartyEvent<PartyPersonal>): Promise<PartyEvent> {
    if (!('personal' in event.data) || event.data.personal === null) return event;
    const partyId = event.data.partyId;
    const key = (await this.keys.ensure(organisationId, partyId)) ?? fail(Errors.partyGdprApplied, { id: partyId });
    return { ...event, data: { ...event.data, personal: seal(event.data.personal, key, partyId) } } as PartyEvent;
  }

  /** Splits validated input into clear and personal fields and gives every nested item its id. */
  private toPartyInput(ctx: CommandContext, kind: PartyKind, values: Loose): PartyInput {
    const { addresses, contacts, paymentTermLines, ...scalars } = values;
    const personalNames: readonly string[] = PERSONAL_FIELDS[kind];
    const fields: ClearFields = {};
    const personal: PersonalFields = {};
    for (const [name, value] of Object.entries(scalars)) {
      if (value === undefined) continue;
      if (personalNames.includes(name)) personal[name] = value ?? null;
      else fields[name] = value ?? null;
    }
    const id = (what: string, i: number) => newId(ctx, what, i);
    return {
      fields,
      personal,
      addresses: addresses ? (addresses as Loose[]).map((a, i) => ({
        addressId: id('address', i), countryIsoCodeAlpha2: a.countryIsoCodeAlpha2 ?? null,
        isMainAddress: a.isMainAddress ?? false, isDeliveryAddress: a.isDeliveryAddress ?? false, isDefaultDeliveryAddress: a.isDefaultDeliveryAddress ?? false,
        name: a.name ?? null, firstLine: a.firstLine ?? null, secondLine: a.secondLine ?? null, city: a.city ?? null, province: a.province ?? null, zipCode: a.zipCode ?? null,
      })) : null,
      contacts: contacts ? (contacts as Loose[]).map((c, i) => ({
        contactId: id('contact', i), jobAreaId: c.jobAreaId ?? null,
        isDefault: c.isDefault ?? false, isDefaultCustomer: c.isDefaultCustomer ?? false, isDefaultSupplier: c.isDefaultSupplier ?? false,
        courtesy: c.courtesy ?? null, name: c.name ?? null, surname: c.surname ?? null, jobName: c.jobName ?? null,
        emails: ((c.emails ?? []) as Loose[]).map((e, j) => ({ emailId: id(`contact-${i}-email`, j), emailAddress: e.emailAddress, usage: e.usage ?? null, isDefault: e.isDefault ?? false })),
        phones: ((c.phones ?? []) as Loose[]).map((p, j) => ({ phoneId: id(`contact-${i}-phone`, j), number: p.number, type: p.type ?? null, isDefault: p.isDefault ?? false })),
        socialMedias: ((c.socialMedias ?? []) as Loose[]).map((s, j) => ({ socialMediaId: id(`contact-${i}-social`, j), name: s.name ?? null, link: s.link })),
      })) : null,
      paymentTermLines: paymentTermLines ? (paymentTermLines as Loose[]).map((l, i) => ({
        lineId: id('payment-term-line', i), condition: l.condition, day: l.day ?? null, payDays: l.payDays ?? null, type: l.type, value: l.value ?? null, paymentMeanId: l.paymentMeanId ?? null,
      })) : null,
    };
  }

  /** Loads every ledger of the organisation while holding their locks, and the organisation's alone (deletion guard). */
  private withAllLedgers<T>(ctx: CommandContext, fn: (ledgers: LedgerState[]) => Promise<T>): Promise<T> {
    return this.accounting.locks.exclusive(ctx.organisationId, async () => {
      const org = await this.accounting.organisation(ctx.organisationId);
      const ids = [...org.exercises.keys()];
      const lockNames = ids.map((id) => AggregateStore.streamId(LedgerAggregate.category, id));
      return this.aggregates.withLocks(lockNames, async () => fn(await Promise.all(ids.map(async (id) => (await this.aggregates.loadHeld(LedgerAggregate, id)).state))));
    });
  }
}
