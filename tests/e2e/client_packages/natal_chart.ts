// A user's program against the built npm tarball (tests/e2e/test_client_packages.py compiles it
// with tsc --strict under module nodenext and under commonjs, then runs it): a natal chart from
// a town and a local time, with how the local time was read (meta.moment, typed), and a bad
// house system caught as InvalidParameter.
import { Celestial, CelestialError, InvalidParameter } from 'celestial-client';

// The program's arguments, without @types/node: the package needs no Node typings.
declare const process: { argv: string[] };

async function main(baseUrl: string, apiKey: string): Promise<void> {
  const api = new Celestial({ baseUrl, apiKey });
  const lyon = (await api.places({ q: 'Lyon', country: 'FR' })).data.places[0]!;
  const chart = await api.natalChart({ datetime: '1985-07-13T14:05:00', place: lyon.id });
  const sun = chart.data.positions.find((position) => position.body === 'sun');
  // The annotations are the proof: tsc --strict accepts them only if meta.moment is typed.
  const read = chart.meta.moment?.['datetime'];
  const moment: { tz: string; abbreviation: string; utc: string } | null = read ? { tz: read.tz, abbreviation: read.abbreviation, utc: read.utc } : null;
  console.log(JSON.stringify({ sign: sun?.sign, credits_used: chart.meta.credits_used, moment }));
  try {
    await api.natalChart({ datetime: '1985-07-13T14:05:00', place: lyon.id, system: 'placidius' });
  } catch (error) {
    if (!(error instanceof InvalidParameter)) throw error;
    console.log(
      JSON.stringify({
        name: error.name,
        code: error.code,
        param: error.param,
        suggestion: error.suggestion,
        isError: error instanceof Error,
        isCelestialError: error instanceof CelestialError,
        stack: error.stack,
      }),
    );
  }
}

void main(process.argv[2]!, process.argv[3]!);
