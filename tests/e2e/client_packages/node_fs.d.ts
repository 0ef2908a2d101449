// The Node functions chart_wheel.ts and verify_delivery.ts use, declared so the fresh project needs no @types/node
// (the package itself needs no Node typings).
declare module 'node:fs' {
  export function writeFileSync(path: string, data: Uint8Array): void;
  export function readFileSync(path: string): Uint8Array;
}
