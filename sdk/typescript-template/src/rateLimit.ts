// The IETF RateLimit field (draft-ietf-httpapi-ratelimit-headers-11, section 4) as a client
// reads it: how long to wait when a quota is used up. The field is a Structured Field List
// (RFC 9651) of service limits, e.g. `"minute";r=0;t=37`: `r` is what is left of a policy's
// quota, `t` the seconds within which no more than that may be used. This reads the part of
// the syntax the draft uses (string or token names; integer, decimal, string, token, boolean
// and byte-sequence parameters) and treats anything else as malformed, which the draft has a
// client ignore. It imports nothing, so it can be compiled and tested on its own.

/** A parameter's value: a number, a string or token, a boolean, or a byte sequence (base64). */
export type ParameterValue = number | string | boolean | { bytes: string };

/** One service limit: the policy's name and its parameters. */
export interface ServiceLimit {
  policy: string;
  parameters: Record<string, ParameterValue>;
}

const TOKEN_START = /[A-Za-z*]/;
const TOKEN_CHAR = /[A-Za-z0-9*!#$%&'+\-.^_`|~:/]/;
const KEY_START = /[a-z*]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;

/** Thrown for a RateLimit value that is not a Structured Field List of the draft's items. */
export class MalformedField extends Error {}

/** Returns the service limits of a RateLimit value, in order; throws MalformedField. */
export function parseRateLimit(value: string): ServiceLimit[] {
  let at = 0;
  const peek = (): string => value.charAt(at);
  const skip = (characters: string): void => {
    while (at < value.length && characters.includes(value.charAt(at))) at += 1;
  };
  const fail = (what: string): never => {
    throw new MalformedField(`${what} at ${at} in ${JSON.stringify(value)}`);
  };
  const string = (): string => {
    at += 1;
    let out = '';
    while (at < value.length) {
      const character = value.charAt(at);
      at += 1;
      if (character === '\\') {
        const escaped = peek();
        if (escaped !== '"' && escaped !== '\\') fail('Only a quote or a backslash is escaped');
        out += escaped;
        at += 1;
      } else if (character === '"') {
        return out;
      } else if (character < ' ' || character > '~') {
        fail('A string holds printable ASCII only');
      } else {
        out += character;
      }
    }
    return fail('A string is not closed');
  };
  const number = (): number => {
    const match = /^-?(\d{1,15})(\.\d{1,3})?/.exec(value.slice(at));
    if (match === null || (match[2] !== undefined && match[1]!.length > 12)) return fail('Not a number');
    const text = match[0];
    const next = value.charAt(at + text.length);
    if (next === '.' || (next >= '0' && next <= '9')) fail('Not a number');
    at += text.length;
    return Number(text);
  };
  const bareItem = (): ParameterValue => {
    const first = peek();
    if (first === '"') return string();
    if (first === '-' || (first >= '0' && first <= '9')) return number();
    if (first === '?') {
      at += 1;
      const flag = peek();
      if (flag !== '0' && flag !== '1') fail('A boolean is ?0 or ?1');
      at += 1;
      return flag === '1';
    }
    if (first === ':') {
      const end = value.indexOf(':', at + 1);
      if (end < 0) fail('A byte sequence is not closed');
      const bytes = value.slice(at + 1, end);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(bytes)) fail('A byte sequence is base64');
      at = end + 1;
      return { bytes };
    }
    if (first !== '' && TOKEN_START.test(first)) {
      const start = at;
      while (at < value.length && TOKEN_CHAR.test(value.charAt(at))) at += 1;
      return value.slice(start, at);
    }
    return fail('No item');
  };
  const parameters = (): Record<string, ParameterValue> => {
    const found: Record<string, ParameterValue> = {};
    while (peek() === ';') {
      at += 1;
      skip(' ');
      if (!KEY_START.test(peek())) fail("A parameter's key must start with a lowercase letter or '*'");
      const start = at;
      while (at < value.length && KEY_CHAR.test(value.charAt(at))) at += 1;
      const key = value.slice(start, at);
      if (peek() === '=') {
        at += 1;
        found[key] = bareItem();
      } else {
        found[key] = true;
      }
    }
    return found;
  };

  const limits: ServiceLimit[] = [];
  skip(' ');
  if (at >= value.length) return limits;
  for (;;) {
    const policy = bareItem();
    if (typeof policy !== 'string') fail('A policy is named by a string or a token');
    limits.push({ policy: policy as string, parameters: parameters() });
    skip(' \t');
    if (at >= value.length) return limits;
    if (peek() !== ',') fail("Expected ','");
    at += 1;
    skip(' \t');
    if (at >= value.length) fail('A list ends after a comma');
  }
}

/**
 * Returns the seconds to wait before a quota has room again: the longest `t` of a service limit
 * whose `r` is 0 in a RateLimit value; undefined when no quota is used up or the field is
 * malformed (draft-11: a client ignores it then).
 */
export function exhaustedWindowSeconds(value: string | null): number | undefined {
  if (value === null) return undefined;
  let limits: ServiceLimit[];
  try {
    limits = parseRateLimit(value);
  } catch (error) {
    if (error instanceof MalformedField) return undefined;
    throw error;
  }
  const windows = limits
    .filter(({ parameters }) => parameters['r'] === 0)
    .map(({ parameters }) => parameters['t'])
    .filter((t): t is number => typeof t === 'number' && Number.isInteger(t) && t >= 0);
  return windows.length > 0 ? Math.max(...windows) : undefined;
}
