// Publishing adapter versions to external vLLM-compatible servers, each load verified (listing
// and a log-prob probe); servers that fail are taken out of rotation.
export * from './adapter-version.js';
export * from './errors.js';
export * from './probe.js';
export * from './server.js';
export * from './publisher.js';
export * from './model-version.js';
