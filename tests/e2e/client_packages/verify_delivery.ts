// A receiver's check of a webhook delivery with the built npm tarball (tests/e2e/
// test_client_packages.py): the real delivery (its headers as a Fetch Headers, as a fetch-style
// server hands them), a tampered body, a wrong secret and a stale timestamp, one JSON line.
import { readFileSync } from 'node:fs';
import { SIGNATURE_TOLERANCE_S, verifySignature } from 'celestial-client';

declare const process: { argv: string[] };

async function main(bodyPath: string, headersJson: string, secret: string): Promise<void> {
  const body = readFileSync(bodyPath);
  const text = new TextDecoder().decode(body);
  const headers = JSON.parse(headersJson) as Record<string, string>;
  const otherSecret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
  const checks = {
    real: await verifySignature(body, new Headers(headers), secret),
    tampered: await verifySignature(text.replace('"test":true', '"test":false'), headers, secret),
    wrong_secret: await verifySignature(body, headers, otherSecret),
    stale: await verifySignature(body, headers, secret, { nowS: Date.now() / 1000 + SIGNATURE_TOLERANCE_S + 60 }),
  };
  console.log(JSON.stringify(checks));
}

void main(process.argv[2]!, process.argv[3]!, process.argv[4]!);
