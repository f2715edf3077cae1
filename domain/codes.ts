/**
 * Business codes (an account's, a journal type's, a party's, a product's): letters, digits and `._-`, so
 * they travel through files, URLs and other systems' fields unchanged. One rule, each kind with its length.
 */
import { Errors, Reasons, fail } from './errors.ts';

export const CODE_LENGTH = Object.freeze({ account: 20, journalType: 20, party: 20, paymentMean: 20, paymentTerm: 20, product: 30 });

const CODE_CHARACTERS = /^[0-9A-Za-z._-]+$/;

/** Refuses a code outside the rule, naming the field and the length allowed. */
export function checkCode(code: string, maxLength: number, field = 'code'): void {
  if (code.length < 1 || code.length > maxLength || !CODE_CHARACTERS.test(code)) fail(Errors.invalidInput, { field, value: code, reason: Reasons.codeFormat, maxLength });
}
