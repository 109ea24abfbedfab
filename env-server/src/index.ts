export { startServer, type RunningServer } from './server/app.js';
export { EnvService } from './server/env-service.js';
export { resolveConfig, DEFAULTS, type ServerConfig } from './config.js';
