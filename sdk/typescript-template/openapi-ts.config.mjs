// @hey-api/openapi-ts's settings for sdk/typescript/src/generated (make sdk: deploy/generate_sdks.py
// passes the document and the folder in the environment).
export default {
  input: process.env.CELESTIAL_OPENAPI,
  output: {
    path: process.env.CELESTIAL_TS_OUTPUT,
    // Node's ES modules need the extension in relative imports (module nodenext).
    importFileExtension: '.js',
  },
  plugins: [
    '@hey-api/client-fetch',
    // The API's error body is `Error` in the document; as a TypeScript name it would shadow
    // the global Error class for whoever imports it.
    { name: '@hey-api/typescript', definitions: { name: (name) => (name === 'Error' ? 'ErrorBody' : name) } },
    '@hey-api/sdk',
  ],
};
