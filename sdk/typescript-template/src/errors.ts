// The errors a Celestial call throws: one family, CelestialError, chosen by the error's code
// (the server's catalogue, copied into errorCodes.gen.ts when the client is generated).
import { ERROR_STATUS } from './errorCodes.gen.js';
import { exhaustedWindowSeconds } from './rateLimit.js';

/** What every CelestialError carries besides its message. */
export interface CelestialErrorDetails {
  /** Stable and machine-readable: branch on it, never on the message. */
  code: string;
  /** What to do next. */
  suggestion?: string;
  /** The parameter at fault, when one is. */
  param?: string;
  /** The id to quote when reporting a problem. */
  requestId?: string;
  /** The HTTP status; undefined when no answer came. */
  status?: number;
  /**
   * The seconds the answer asked to wait, when it did: its Retry-After, else the window of a
   * quota its IETF RateLimit field says is used up.
   */
  retryAfter?: number;
}

/** An error the API answered, or a request that got no answer. */
export class CelestialError extends Error {
  readonly code: string;
  readonly suggestion: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly status?: number;
  readonly retryAfter?: number;

  constructor(message: string, details: CelestialErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = details.code;
    this.suggestion = details.suggestion ?? '';
    this.param = details.param;
    this.requestId = details.requestId;
    this.status = details.status;
    this.retryAfter = details.retryAfter;
  }
}

/** 400: the request breaks a rule, or asks what cannot be computed; it fails again unchanged. */
export class InvalidParameter extends CelestialError {}
/** 401 or 403: no key, an unknown, expired or revoked one, or an origin the key refuses. */
export class AuthenticationError extends CelestialError {}
/** 402: the account's balance does not cover the request (which cost nothing). */
export class InsufficientCredits extends CelestialError {}
/** 404 or 405: no such path, or a method it does not take. */
export class NotFound extends CelestialError {}
/** Any other 4xx: a request too large, too long or too slow for the server to read. */
export class RequestRejected extends CelestialError {}
/** 429: over the account's requests per minute or in flight; retry after `retryAfter` s. */
export class RateLimited extends CelestialError {}
/** 5xx: the server failed (or an answer the client cannot read); the request cost nothing. */
export class ServerError extends CelestialError {}
/** 503: a service is down or busy; retry after `retryAfter` seconds. */
export class ServiceUnavailable extends ServerError {}
/** No answer: the connection failed or timed out (`cause` is fetch's error). */
export class NetworkError extends CelestialError {}

type ErrorClass = new (message: string, details: CelestialErrorDetails, options?: { cause?: unknown }) => CelestialError;

/** Returns the family an HTTP status belongs to. */
function classForStatus(status: number): ErrorClass {
  if (status === 400) return InvalidParameter;
  if (status === 401 || status === 403) return AuthenticationError;
  if (status === 402) return InsufficientCredits;
  if (status === 404 || status === 405) return NotFound;
  if (status === 429) return RateLimited;
  if (status === 503) return ServiceUnavailable;
  if (status >= 500) return ServerError;
  return RequestRejected;
}

/** Returns the class of an error: by its code's status in the catalogue, else the answer's. */
export function errorClass(code: string, status: number): ErrorClass {
  return classForStatus(ERROR_STATUS[code] ?? status);
}

/**
 * Returns the seconds the answer asks to wait: its Retry-After (the draft-11 RateLimit fields
 * defer to it), else the `t` of a quota its IETF RateLimit field says is used up (`r=0`);
 * undefined when it says neither (or a date).
 */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  const seconds = value === null || value.trim() === '' ? NaN : Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  return exhaustedWindowSeconds(headers.get('ratelimit'));
}

interface ErrorMember {
  code?: unknown;
  message?: unknown;
  suggestion?: unknown;
  param?: unknown;
}

/** Returns the error an answer that is not a 2xx stands for (its first `errors[]` member). */
export function errorFromAnswer(response: Response, body: unknown): CelestialError {
  const errors = (body as { errors?: ErrorMember[] } | undefined)?.errors;
  // Not the API's error body (a proxy's page, say): the status alone says what happened.
  const first: ErrorMember = Array.isArray(errors) && errors.length > 0 ? errors[0]! : {};
  const meta = (body as { meta?: { request_id?: unknown } } | undefined)?.meta;
  const code = typeof first.code === 'string' ? first.code : `http_${response.status}`;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return new (errorClass(code, response.status))(text(first.message) ?? `HTTP ${response.status}`, {
    code,
    suggestion: text(first.suggestion),
    param: text(first.param),
    requestId: text(meta?.request_id) ?? response.headers.get('x-request-id') ?? undefined,
    status: response.status,
    retryAfter: retryAfterSeconds(response.headers),
  });
}

/** Returns the error for a request that got no answer (connection refused, timeout ...). */
export function errorFromTransport(failure: unknown): NetworkError {
  const timedOut = failure instanceof DOMException && failure.name === 'TimeoutError';
  const detail = failure instanceof Error ? failure.message : String(failure);
  return new NetworkError(
    `No answer from the API: ${detail}`,
    {
      code: timedOut ? 'timeout' : 'connection_failed',
      suggestion: 'Check the base URL and the network; retry later if the server is restarting.',
    },
    { cause: failure },
  );
}
