/**
 * JSON numbers as the client wrote them. JSON.parse reads each into a binary double, and a number of more than
 * DECIMAL_LIMITS.exactNumberDigits significant digits may come back as a shorter one (99999999999999.09 reads as
 * 99999999999999.1), which the Decimal scalar cannot tell from a number the client wrote. The text can: /graphql
 * parses its JSON bodies here and keeps the numbers whose parse changed them, and the request gate refuses those.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DECIMAL_LIMITS } from '../../commands/input-types.ts';
import { Decimal } from '../../domain/money.ts';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Digits of a JSON number token without its sign, point, exponent, leading and trailing zeros. */
const significantDigits = (token: string) => token.replace(/[eE].*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;

/** The first number in a JSON text that JSON.parse does not read as written, or undefined. */
export function changedNumber(json: string): string | undefined {
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      for (i++; i < json.length && json[i] !== '"'; i += json[i] === '\\' ? 2 : 1);
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(json)?.[0];
      if (!token) continue;
      i += token.length - 1;
      if (significantDigits(token) > DECIMAL_LIMITS.exactNumberDigits && !new Decimal(token).eq(new Decimal(String(Number(token))))) return token;
    }
  }
  return undefined;
}

type Parsed = FastifyRequest & { changedNumber?: string };

/** Fastify's own JSON parser (same limits and poisoning checks), noting the first number the parse changed. */
export function parseJsonKeepingNumbers(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    (request as Parsed).changedNumber = changedNumber(body as string);
    json(request, body as string, done);
  });
}

/** The number of the request's JSON (body, or a GET's variables) that its parse changed. */
export const numberChangedIn = (request: FastifyRequest, variablesText: unknown): string | undefined =>
  typeof variablesText === 'string' ? changedNumber(variablesText) : (request as Parsed).changedNumber;
