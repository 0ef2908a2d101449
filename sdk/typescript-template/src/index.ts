// The Celestial API's client: Celestial resolves each operation to its typed answer or throws
// a CelestialError; the generated functions and types are here too.
export { Celestial, retryWait, type CelestialOptions, type RetryOptions } from './celestial.js';
export type { Shaped } from './operations.gen.js';
export {
  AuthenticationError,
  CelestialError,
  InsufficientCredits,
  InvalidParameter,
  NetworkError,
  NotFound,
  RateLimited,
  RequestRejected,
  ServerError,
  ServiceUnavailable,
  type CelestialErrorDetails,
} from './errors.js';
export { ERROR_STATUS } from './errorCodes.gen.js';
export { parseRateLimit, exhaustedWindowSeconds, MalformedField, type ServiceLimit, type ParameterValue } from './rateLimit.js';
export { verifySignature, SIGNATURE_TOLERANCE_S, type DeliveryHeaders, type VerifyOptions } from './webhooks.js';
export * from './generated/index.js';
// The generated functions' shared client, for the low-level calls (client.setConfig({ baseUrl, auth })),
// and createClient for a client of one's own.
export { client } from './generated/client.gen.js';
export { createClient, createConfig } from './generated/client/index.js';
