// Celestial: the API's operations as methods that resolve to their typed answer (or, for a
// document format, its text or bytes) or throw a CelestialError, retrying what the API says may
// be retried.
import { createClient, createConfig, type Client } from './generated/client/index.js';
import { AuthenticationError, CelestialError, ServerError, errorFromAnswer, errorFromTransport } from './errors.js';
import { Operations, type SendResult } from './operations.gen.js';

/**
 * When a call is tried again: a 429 or 503 (which cost nothing) and a refused connection (the
 * request never left), up to `attempts` tries in all. The wait is the answer's Retry-After when
 * it gives one, else `backoffSeconds` doubled at each try; a wait over `maxWaitSeconds` is not
 * waited: the error is thrown at once. `{ attempts: 1 }` never retries.
 */
export interface RetryOptions {
  attempts?: number;
  backoffSeconds?: number;
  maxWaitSeconds?: number;
}

export interface CelestialOptions {
  baseUrl: string;
  apiKey: string;
  retry?: RetryOptions;
  /** Each try's time limit (default 90 s: a scan's own deadline is 60 s). */
  timeoutSeconds?: number;
  /** Another fetch (default: the global one of Node 18+, browsers, Deno, Bun). */
  fetch?: typeof fetch;
}

const RETRIED_STATUSES = new Set([429, 503]);

/** Returns the seconds to wait before try `attempt + 1`, or undefined to give up. */
export function retryWait(retry: Required<RetryOptions>, attempt: number, retryAfter: number | undefined): number | undefined {
  if (attempt >= retry.attempts) return undefined;
  const seconds = retryAfter ?? retry.backoffSeconds * 2 ** (attempt - 1);
  return seconds <= retry.maxWaitSeconds ? seconds : undefined;
}

/** Returns whether fetch failed before the request left (a refused connection). */
function neverSent(failure: unknown): boolean {
  const cause = (failure as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

/**
 * The API at `baseUrl` with one key. Each operation is a method named after its path
 * (`natalChart` for `/v1/natal-chart`) taking the query parameters as one object; it resolves to
 * the answer or throws a CelestialError. A missing or empty `apiKey` throws an
 * AuthenticationError here, before any request.
 */
export class Celestial extends Operations {
  /** The generated client the methods send with (for the generated functions, too). */
  readonly client: Client;
  readonly retry: Required<RetryOptions>;

  constructor(options: CelestialOptions) {
    super();
    // Refused here, before any request (a JavaScript caller may pass none): sent empty, the key
    // would fail as a network error, which sends the user to the wrong place.
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new AuthenticationError('No API key: apiKey is empty', {
        code: 'invalid_api_key',
        param: 'apiKey',
        suggestion: "Pass the account's key (svc_live_... or svc_test_...) as apiKey.",
      });
    }
    const send = options.fetch ?? globalThis.fetch;
    const timeoutMs = (options.timeoutSeconds ?? 90) * 1000;
    this.client = createClient(
      createConfig({
        baseUrl: options.baseUrl,
        auth: options.apiKey,
        fetch: (input: RequestInfo | URL, init?: RequestInit) => send(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
      }),
    );
    this.retry = { attempts: 3, backoffSeconds: 0.5, maxWaitSeconds: 30, ...options.retry };
  }

  protected async call<T>(send: (client: Client) => Promise<SendResult>): Promise<T> {
    return (await this.answered(send)).data as T;
  }

  protected async text(send: (client: Client) => Promise<SendResult>, mediaType: string): Promise<string> {
    const data = await this.document(send, mediaType);
    if (typeof data === 'string') return data;
    throw new ServerError(`A ${mediaType} answer the client cannot read as text`, { code: 'unreadable_answer' });
  }

  protected async bytes(send: (client: Client) => Promise<SendResult>, mediaType: string): Promise<Uint8Array> {
    const data = await this.document(send, mediaType);
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    throw new ServerError(`A ${mediaType} answer the client cannot read as bytes`, { code: 'unreadable_answer' });
  }

  /** Resolves to the data of `send`'s answer when it is a `mediaType` document (an SVG, a PNG,
   * an iCalendar); throws as `call` does, or a ServerError for an answer of another type. */
  private async document(send: (client: Client) => Promise<SendResult>, mediaType: string): Promise<unknown> {
    const { data, response } = await this.answered(send);
    const answered = response.headers.get('content-type')?.split(';')[0]?.trim();
    if (answered === mediaType) return data;
    throw new ServerError(`An answer ${answered ?? 'without a Content-Type'} where ${mediaType} was asked for`, {
      code: 'unreadable_answer',
      status: response.status,
    });
  }

  /** Resolves to `send`'s 2xx answer, retried as `this.retry` says; throws the CelestialError of
   * an error answer or of no answer. */
  private async answered(send: (client: Client) => Promise<SendResult>): Promise<{ data: unknown; response: Response }> {
    for (let attempt = 1; ; attempt++) {
      const result = await send(this.client);
      let error: CelestialError;
      let retryable: boolean;
      if (result.response === undefined) {
        error = errorFromTransport(result.error);
        retryable = neverSent(result.error);
      } else if (result.response.ok) {
        if (result.data === undefined) {
          throw new ServerError(`An answer ${result.response.status} the client cannot read`, {
            code: 'unreadable_answer',
            status: result.response.status,
          });
        }
        return { data: result.data, response: result.response };
      } else {
        error = errorFromAnswer(result.response, result.error);
        retryable = RETRIED_STATUSES.has(result.response.status);
      }
      const seconds = retryable ? retryWait(this.retry, attempt, error.retryAfter) : undefined;
      if (seconds === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}
