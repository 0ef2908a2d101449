// The TypeScript client's calls for tests/e2e/test_sdks.py, compiled with the generated client
// and run by node: prints one JSON line per call ({name, status, data?, error?, retryAfter?}).
import { client } from './client.gen';
import { getAstrocartography, getNatalChart, getPositions, getTransits, postBatch } from './sdk.gen';
import type { ErrorBody as ApiError } from './types.gen';

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

// Reads the typed members of both formats, each after narrowing the answer's union (an
// access before narrowing would not compile under --strict): a line's point, the same line's
// first GeoJSON position.
async function astrocartography(moment: { datetime: string }) {
  const query = { ...moment, bodies: 'sun', angles: 'midheaven' };
  const lines = await getAstrocartography({ query });
  const features = await getAstrocartography({ query: { ...query, format: 'geojson' } });
  const map = lines.data?.data;
  const collection = features.data?.data;
  if (!map || !('lines' in map) || !collection || !('features' in collection)) {
    throw new Error('astrocartography: not the typed answer of each format');
  }
  const line = map.lines[0];
  const firstPoint: { latitude: number; longitude: number } = line.segments[0].points[0];
  const geometry = collection.features[0].geometry;
  if (geometry?.type !== 'LineString') {
    throw new Error('astrocartography: the first feature is not a LineString');
  }
  const firstPosition: number[] = geometry.coordinates[0];
  const answer = { name: 'astrocartography', status: [lines.response.status, features.response.status], line: line.line, firstPoint, firstPosition };
  console.log(JSON.stringify(answer));
}

async function main() {
  const moment = { datetime: '2024-03-20T12:00:00Z' };
  report('position', await getPositions({ query: { ...moment, bodies: 'sun' } }));
  report('natal_chart', await getNatalChart({ query: { ...moment, lat: 51.5, lon: -0.1 } }));
  report('transits', await getTransits({ query: { ...moment, start: '2024-03-01T00:00:00Z', end: '2024-03-15T00:00:00Z', bodies: 'mars' } }));
  report('batch', await postBatch({ body: { requests: [{ endpoint: '/v1/positions', params: { ...moment } }, { endpoint: '/v1/delta-t', params: { ...moment } }] } }));
  await astrocartography(moment);
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
