// A user's program against the built npm tarball (tests/e2e/test_client_packages.py compiles it
// with tsc --strict under module nodenext and under commonjs, then runs it): a chart wheel saved
// as a PNG file, the same wheel as SVG text, sky events as an iCalendar, and a bad house system
// for a PNG caught as InvalidParameter.
import { writeFileSync } from 'node:fs';
import { Celestial, InvalidParameter } from 'celestial-client';

// The program's arguments, without @types/node: the package needs no Node typings.
declare const process: { argv: string[] };

async function main(baseUrl: string, apiKey: string, pngPath: string): Promise<void> {
  const api = new Celestial({ baseUrl, apiKey });
  // London, 15 June 1990, 14:30 UTC: the moment of the API's recorded example.
  const birth = { datetime: '1990-06-15T14:30:00Z', lat: 51.5074, lon: -0.1278 };
  // The annotations are the proof: tsc --strict accepts them only if format types the answer.
  const png: Uint8Array = await api.chartWheel({ ...birth, format: 'png' });
  writeFileSync(pngPath, png);
  const svg: string = await api.chartWheel(birth);
  console.log(JSON.stringify({ head: svg.slice(0, 5), role_img: svg.includes('role="img"') }));
  const ics: string = await api.calendar({ start: '2024-04-01T00:00:00Z', end: '2024-04-10T00:00:00Z', format: 'ics' });
  console.log(JSON.stringify({ first_line: ics.split('\r\n')[0] }));
  try {
    await api.chartWheel({ ...birth, format: 'png', system: 'placidius' });
  } catch (error) {
    if (!(error instanceof InvalidParameter)) throw error;
    console.log(JSON.stringify({ code: error.code, param: error.param }));
  }
}

void main(process.argv[2]!, process.argv[3]!, process.argv[4]!);
