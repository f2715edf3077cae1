/**
 * Shared settings (business areas, job areas, payment means and terms) and product command handlers:
 * validate input (zod), decide against the SharedSettings / Catalog aggregate with the chart as a fact,
 * append. Deleting a setting holds the Parties stream too and reads its usage counts.
 */
import { decideCatalog, type CatalogCommand } from '../../domain/catalog/products.ts';
import { decideSettings, type SettingsCommand } from '../../domain/settings/settings.ts';
import type { PartiesState } from '../../domain/parties/parties.ts';
import type { CommandServices as AccountingCommands } from '../services.ts';
import { IdInput } from '../accounting/inputs.ts';
import { newId, parse } from '../handler.ts';
import { AggregateStore, type CommandContext } from '../aggregate-store.ts';
import { CatalogAggregate } from '../catalog/aggregates.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SettingsAggregate } from './aggregates.ts';
import { BusinessAreaCreateInput, JobAreaCreateInput, PaymentMeanCreateInput, PaymentTermCreateInput, ProductCreateInput } from '../parties/inputs.ts';

export class SettingsCommands {
  constructor(
    private readonly accounting: AccountingCommands,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private get aggregates(): AggregateStore {
    return this.accounting.aggregates;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** `build` sees the Parties state when `withParties` (its lock is then held as well). */
  private async settingsCommand(ctx: CommandContext, build: (parties: PartiesState | null) => SettingsCommand, withParties = false) {
    const orgId = ctx.organisationId;
    const partiesLock = AggregateStore.streamId(PartiesAggregate.category, orgId);
    return this.aggregates.execute(SettingsAggregate, orgId, ctx, async (state) => {
      const parties = withParties ? (await this.aggregates.loadHeld(PartiesAggregate, orgId)).state : null;
      return decideSettings(build(parties), state, await this.accounting.organisation(orgId));
    }, withParties ? [partiesLock] : []);
  }

  async createBusinessArea(ctx: CommandContext, input: unknown) {
    const i = parse(BusinessAreaCreateInput, input);
    const businessAreaId = newId(ctx, 'business-area');
    const r = await this.settingsCommand(ctx, () => ({ type: 'CreateBusinessArea', businessAreaId, name: i.name, now: this.now() }));
    return { id: businessAreaId, position: r.position };
  }

  async deleteBusinessArea(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.settingsCommand(ctx, (parties) => ({ type: 'DeleteBusinessArea', businessAreaId: id, usedByParties: parties!.usage.has(id), now: this.now() }), true);
    return { id, position: r.position };
  }

  async createJobArea(ctx: CommandContext, input: unknown) {
    const i = parse(JobAreaCreateInput, input);
    const jobAreaId = newId(ctx, 'job-area');
    const r = await this.settingsCommand(ctx, () => ({ type: 'CreateJobArea', jobAreaId, name: i.name, now: this.now() }));
    return { id: jobAreaId, position: r.position };
  }

  async createPaymentMean(ctx: CommandContext, input: unknown) {
    const i = parse(PaymentMeanCreateInput, input);
    const paymentMeanId = newId(ctx, 'payment-mean');
    const fields = { ...i, iban: i.iban ?? null, bic: i.bic ?? null, bankName: i.bankName ?? null, accountingAccountId: i.accountingAccountId ?? null };
    const r = await this.settingsCommand(ctx, () => ({ type: 'CreatePaymentMean', paymentMeanId, fields, now: this.now() }));
    return { id: paymentMeanId, position: r.position };
  }

  async deletePaymentMean(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.settingsCommand(ctx, (parties) => ({ type: 'DeletePaymentMean', paymentMeanId: id, usedByParties: parties!.usage.has(id), now: this.now() }), true);
    return { id, position: r.position };
  }

  async createPaymentTerm(ctx: CommandContext, input: unknown) {
    const i = parse(PaymentTermCreateInput, input);
    const paymentTermId = newId(ctx, 'payment-term');
    const lines = i.lines.map((l, n) => ({
      lineId: newId(ctx, 'payment-term-line', n), condition: l.condition, day: l.day ?? null, payDays: l.payDays ?? null, type: l.type, value: l.value ?? null, paymentMeanId: l.paymentMeanId ?? null,
    }));
    const r = await this.settingsCommand(ctx, () => ({ type: 'CreatePaymentTerm', paymentTermId, code: i.code, name: i.name, disabled: i.disabled, lines, now: this.now() }));
    return { id: paymentTermId, position: r.position };
  }

  async deletePaymentTerm(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.settingsCommand(ctx, () => ({ type: 'DeletePaymentTerm', paymentTermId: id, now: this.now() }));
    return { id, position: r.position };
  }

  private catalogCommand(ctx: CommandContext, command: CatalogCommand) {
    return this.aggregates.execute(CatalogAggregate, ctx.organisationId, ctx, async (state) => decideCatalog(command, state, await this.accounting.organisation(ctx.organisationId)));
  }

  async createProduct(ctx: CommandContext, input: unknown) {
    const i = parse(ProductCreateInput, input);
    const productId = newId(ctx, 'product');
    const fields = {
      ...i, description: i.description ?? null, unitPrice: i.unitPrice ?? null, taxTreatmentId: i.taxTreatmentId ?? null,
      salesAccountId: i.salesAccountId ?? null, purchaseAccountId: i.purchaseAccountId ?? null,
    };
    const r = await this.catalogCommand(ctx, { type: 'CreateProduct', productId, fields, now: this.now() });
    return { id: productId, position: r.position };
  }

  async deleteProduct(ctx: CommandContext, input: unknown) {
    const { id } = parse(IdInput, input);
    const r = await this.catalogCommand(ctx, { type: 'DeleteProduct', productId: id, now: this.now() });
    return { id, position: r.position };
  }
}
