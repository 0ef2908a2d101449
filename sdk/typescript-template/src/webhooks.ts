// Verifying a webhook delivery (docs/webhooks.md), signed as Standard Webhooks 1.0 says
// (https://www.standardwebhooks.com): `webhook-signature` lists `v1,<base64 HMAC-SHA256>` of
// `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes of the secret (`whsec_` then
// base64). Any Standard Webhooks library verifies the same deliveries.

/** How far (seconds) a delivery's timestamp may lie from this clock, either way: the
 * specification's five minutes. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Options of verifySignature: the tolerance, the clock, and the Web Crypto to use. */
export interface VerifyOptions {
  /** Seconds a timestamp may lie from `nowS` (default 300). */
  toleranceS?: number;
  /** The present, in Unix seconds (default: Date.now()). */
  nowS?: number;
  /** Web Crypto's SubtleCrypto (default: globalThis.crypto.subtle; on Node 18, pass
   * `require('node:crypto').webcrypto.subtle`). */
  subtle?: SubtleCrypto;
}

/** A delivery's headers: a Fetch `Headers` (names in any case), or a plain object. */
export type DeliveryHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: DeliveryHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

/** The bytes of standard base64 (padding optional), or undefined when it is not base64. */
function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  const bare = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(bare) || bare.length % 4 === 1) return undefined;
  const binary = atob(bare + '='.repeat((4 - (bare.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Resolves whether `headers` (the delivery's `webhook-id`, `webhook-timestamp` and
 * `webhook-signature`) sign `body` (the raw body, as received: bytes or its text) with
 * `secret`, timestamped within the tolerance of now; false when a header is missing or
 * malformed. The HMAC is checked by Web Crypto's verify, in constant time. Rejects when
 * `secret` is not `whsec_` and base64 (a configuration error, not a forged delivery).
 */
export async function verifySignature(
  body: string | Uint8Array,
  headers: DeliveryHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<boolean> {
  const key = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!key || key.length === 0) throw new Error('A webhook secret is whsec_ followed by base64.');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const listed = header(headers, 'webhook-signature');
  if (!id || !listed || timestamp === undefined || !/^\d+$/.test(timestamp)) return false;
  const now = options.nowS ?? Date.now() / 1000;
  if (Math.abs(now - Number(timestamp)) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const entry of listed.split(' ')) {
    const at = entry.indexOf(',');
    if (at < 0 || entry.slice(0, at) !== 'v1') continue;
    const bytes = base64Bytes(entry.slice(at + 1));
    if (bytes && bytes.length > 0) signatures.push(bytes);
  }
  if (signatures.length === 0) return false;
  const subtle = options.subtle ?? globalThis.crypto?.subtle;
  if (!subtle) throw new Error('verifySignature needs Web Crypto: pass options.subtle (Node 18: webcrypto.subtle).');
  const encoder = new TextEncoder();
  const hmacKey = await subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const raw = typeof body === 'string' ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${Number(timestamp)}.`);
  const signed = new Uint8Array(new ArrayBuffer(prefix.length + raw.length));
  signed.set(prefix, 0);
  signed.set(raw, prefix.length);
  let valid = false;
  for (const signature of signatures) {
    // Every candidate is checked, so the time taken tells nothing of which one matched.
    valid = (await subtle.verify('HMAC', hmacKey, signature, signed)) || valid;
  }
  return valid;
}
