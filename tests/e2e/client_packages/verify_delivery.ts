// A receiver's check of a webhook delivery with the built npm tarball (tests/e2e/
// test_client_packages.py): the real delivery, a tampered body, a wrong secret and a stale
// timestamp, one JSON line.
import { readFileSync } from 'node:fs';
import { SIGNATURE_TOLERANCE_S, verifySignature } from 'celestial-client';

declare const process: { argv: string[] };

async function main(bodyPath: string, header: string, secret: string): Promise<void> {
  const body = readFileSync(bodyPath);
  const text = new TextDecoder().decode(body);
  const checks = {
    real: await verifySignature(body, header, secret),
    tampered: await verifySignature(text.replace('"test":true', '"test":false'), header, secret),
    wrong_secret: await verifySignature(body, header, `${secret}0`),
    stale: await verifySignature(body, header, secret, { nowS: Date.now() / 1000 + SIGNATURE_TOLERANCE_S + 60 }),
  };
  console.log(JSON.stringify(checks));
}

void main(process.argv[2]!, process.argv[3]!, process.argv[4]!);
