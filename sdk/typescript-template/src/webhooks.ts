// Verifying a webhook delivery (docs/webhooks.md): Celestial-Signature is
// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the subscription's secret>`.

/** How far (seconds) a delivery's timestamp may lie from this clock, either way. */
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

function hexBytes(hex: string): ArrayBuffer | undefined {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return undefined;
  const bytes = new ArrayBuffer(32);
  const view = new Uint8Array(bytes);
  for (let i = 0; i < 32; i += 1) view[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Resolves whether `header` (the Celestial-Signature header) signs `body` (the raw body, as
 * received: bytes or its text) with `secret`, made within the tolerance of now. The HMAC is
 * compared by Web Crypto's verify, in constant time.
 */
export async function verifySignature(
  body: string | Uint8Array,
  header: string,
  secret: string,
  options: VerifyOptions = {},
): Promise<boolean> {
  let timestamp: string | undefined;
  const signatures: ArrayBuffer[] = [];
  for (const part of String(header ?? '').split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (at < 0) continue;
    if (name === 't' && /^\d+$/.test(value)) timestamp = value;
    if (name === 'v1') {
      const bytes = hexBytes(value);
      if (bytes) signatures.push(bytes);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  const now = options.nowS ?? Date.now() / 1000;
  if (Math.abs(now - Number(timestamp)) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false;
  const subtle = options.subtle ?? globalThis.crypto?.subtle;
  if (!subtle) throw new Error('verifySignature needs Web Crypto: pass options.subtle (Node 18: webcrypto.subtle).');
  const encoder = new TextEncoder();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const raw = typeof body === 'string' ? encoder.encode(body) : body;
  const signed = new Uint8Array(timestamp.length + 1 + raw.length);
  signed.set(encoder.encode(`${timestamp}.`), 0);
  signed.set(raw, timestamp.length + 1);
  let valid = false;
  for (const signature of signatures) {
    // Every candidate is checked, so the time taken tells nothing of which one matched.
    valid = (await subtle.verify('HMAC', key, signature, signed)) || valid;
  }
  return valid;
}
