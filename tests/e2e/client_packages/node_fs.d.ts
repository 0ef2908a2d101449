// The one Node function chart_wheel.ts uses, declared so the fresh project needs no @types/node
// (the package itself needs no Node typings).
declare module 'node:fs' {
  export function writeFileSync(path: string, data: Uint8Array): void;
}
