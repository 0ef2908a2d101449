// A user's program against the built npm tarball (tests/e2e/test_client_packages.py compiles it
// with tsc --strict under module nodenext and under commonjs, then runs it): an empty key is an
// AuthenticationError when Celestial is made, before any request (issue 49: it read as a network
// failure). Prints one JSON line per key tried, then the number of requests sent.
import { AuthenticationError, Celestial } from 'celestial-client';

let requests = 0;
const counting: typeof fetch = async () => {
  requests += 1;
  return new Response('{}', { headers: { 'content-type': 'application/json' } });
};
for (const apiKey of ['', '   ']) {
  try {
    new Celestial({ baseUrl: 'http://api.invalid', apiKey, fetch: counting });
    console.log(JSON.stringify({ made: true }));
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    console.log(JSON.stringify({ name: error.name, code: error.code, param: error.param }));
  }
}
console.log(JSON.stringify({ requests }));
