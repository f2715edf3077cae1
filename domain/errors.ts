/**
 * Business errors: a dotted key clients can switch on (the live API's style), parameters for the
 * message, and the field that failed. Messages are localized in api/i18n.ts, not here.
 */
export class BusinessError extends Error {
  constructor(
    readonly code: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
    this.name = 'BusinessError';
  }
}

export const Errors = {
  organisationNotFound: 'global.businessErrors.organizationNotFound',
  organisationAlreadyExists: 'global.businessErrors.organizationAlreadyExists',
  documentIdAlreadyExists: 'global.businessErrors.documentIdAlreadyExistInOrganization',
  notFound: 'global.businessErrors.entityNotFound',
  invalidInput: 'global.businessErrors.invalidInput',
  concurrencyConflict: 'global.businessErrors.concurrencyConflict',
  idempotencyKeyReused: 'global.businessErrors.idempotencyKeyReused',
} as const;

/**
 * Why an input was refused: the `reason` parameter of invalidInput, invalidLineAmount,
 * invalidPaymentTermLines and invalidProduct. A key, so clients read it in their own language
 * (api/i18n-reasons.ts); its other parameters (minimum, limit...) ride along with the error's.
 */
export const Reasons = {
  // What input validation (zod) finds
  required: 'required',
  expectedType: 'expectedType',
  empty: 'empty',
  tooShort: 'tooShort',
  tooLong: 'tooLong',
  tooFewItems: 'tooFewItems',
  tooManyItems: 'tooManyItems',
  tooSmall: 'tooSmall',
  tooBig: 'tooBig',
  notInteger: 'notInteger',
  notUuid: 'notUuid',
  badFormat: 'badFormat',
  notOneOf: 'notOneOf',
  unknownFields: 'unknownFields',
  notDate: 'notDate',
  nulCharacter: 'nulCharacter',
  illFormedUnicode: 'illFormedUnicode',
  badValue: 'badValue',
  // What the deciders find
  codeFormat: 'codeFormat',
  tooMany: 'tooMany',
  httpUrl: 'httpUrl',
  percentage: 'percentage',
  defaultDeliveryAddress: 'defaultDeliveryAddress',
  amountFormat: 'amountFormat',
  amountRange: 'amountRange',
  oneSide: 'oneSide',
  mergedTooLarge: 'mergedTooLarge',
  termPercentage: 'termPercentage',
  termDay: 'termDay',
  termPayDays: 'termPayDays',
  remainderLast: 'remainderLast',
  remainderEmpty: 'remainderEmpty',
  termTotal: 'termTotal',
  termNeedsLine: 'termNeedsLine',
  termOrder: 'termOrder',
  fixedNeedsRemainder: 'fixedNeedsRemainder',
  nonNegativeDecimal: 'nonNegativeDecimal',
  maxDecimals: 'maxDecimals',
  serviceNoStock: 'serviceNoStock',
  negativeStockNeedsStock: 'negativeStockNeedsStock',
} as const;

export function fail(code: string, params: Record<string, string | number> = {}): never {
  throw new BusinessError(code, params);
}

/** Invariant assertion (TIGER_STYLE): a broken one is a bug in our code, never a user error. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`invariant violated: ${message}`);
}

/**
 * An evolve's answer to an event type its aggregate never records: the stream holds another
 * aggregate's event, or one no upcaster knows, so the store or our code is broken.
 */
export function unknownEvent(aggregate: string, event: { type: string }): never {
  throw new Error(`invariant violated: ${aggregate} has no event ${event.type}`);
}
