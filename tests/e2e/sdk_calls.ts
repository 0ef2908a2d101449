// The TypeScript client's calls for tests/e2e/test_sdks.py, compiled with the generated client
// and run by node: prints one JSON line per call ({name, status, data?, error?, retryAfter?}).
import { client } from './client.gen';
import { getNatalChart, getPositions, getTransits, postBatch } from './sdk.gen';
import type { Error as ApiError } from './types.gen';

// The one Node global used here, declared rather than installing @types/node for it.
declare const process: { argv: string[]; exit(code: number): never };

const [baseUrl, key, emptyKey, limitedKey] = process.argv.slice(2);
client.setConfig({ baseUrl, auth: () => key });

function report(name: string, result: { data?: unknown; error?: ApiError; response: Response }) {
  const line = {
    name,
    status: result.response.status,
    data: result.data,
    error: result.error,
    retryAfter: result.response.headers.get('retry-after'),
  };
  console.log(JSON.stringify(line));
}

async function main() {
  const moment = { datetime: '2024-03-20T12:00:00Z' };
  report('position', await getPositions({ query: { ...moment, bodies: 'sun' } }));
  report('natal_chart', await getNatalChart({ query: { ...moment, lat: 51.5, lon: -0.1 } }));
  report('transits', await getTransits({ query: { ...moment, start: '2024-03-01T00:00:00Z', end: '2024-03-15T00:00:00Z', bodies: 'mars' } }));
  report('batch', await postBatch({ body: { requests: [{ endpoint: '/v1/positions', params: { ...moment } }, { endpoint: '/v1/delta-t', params: { ...moment } }] } }));
  report('no_credits', await getPositions({ query: moment, auth: () => emptyKey }));
  // One request a minute: of three calls, two fall in one window, whatever the clock.
  for (let call = 0; call < 3; call++) {
    const result = await getPositions({ query: moment, auth: () => limitedKey });
    if (result.response.status !== 200) {
      report('rate_limited', result);
      break;
    }
  }
}

main().catch((failure) => {
  console.error(failure);
  process.exit(1);
});
