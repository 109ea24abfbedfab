// dockerode ships no types; this declares the part the Docker provider uses (see docker-api.ts).
declare module 'dockerode' {
  import type { DockerApi } from './docker-api.js';
  const Docker: new (options?: Record<string, unknown>) => DockerApi;
  export default Docker;
}
