export * from './errors.js';
export * from './wire/action.js';
export * from './wire/observation.js';
export * from './wire/state.js';
export * from './wire/requests.js';
export * from './wire/ws.js';
export * from './wire/validate.js';
export * from './wire/depth.js';
