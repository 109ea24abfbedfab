import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, SETTINGS, resolveConfig } from '../../src/config.js';

describe('gRPC settings', () => {
  it('default to port 50051 without TLS', () => {
    expect(DEFAULTS).toMatchObject({ grpcPort: 50051, grpcTlsCert: undefined, grpcTlsKey: undefined });
  });

  it('read GRPC_PORT, and a flag wins over it', () => {
    expect(resolveConfig({}, { GRPC_PORT: '6000' }).grpcPort).toBe(6000);
    expect(resolveConfig({ 'grpc-port': '7000' }, { GRPC_PORT: '6000' }).grpcPort).toBe(7000);
    expect(() => resolveConfig({}, { GRPC_PORT: '70000' })).toThrow(ConfigError);
  });

  it('turn gRPC off with GRPC_PORT=off or --grpc-port off, and reject other words', () => {
    expect(DEFAULTS.grpcEnabled).toBe(true);
    expect(resolveConfig({}, { GRPC_PORT: 'off' })).toMatchObject({ grpcEnabled: false, grpcPort: 50051 });
    expect(resolveConfig({ 'grpc-port': 'OFF' }, {}).grpcEnabled).toBe(false);
    expect(resolveConfig({ 'grpc-port': '7000' }, { GRPC_PORT: 'off' })).toMatchObject({
      grpcEnabled: true,
      grpcPort: 7000,
    });
    expect(() => resolveConfig({}, { GRPC_PORT: 'none' })).toThrow(
      'GRPC_PORT must be a port number (0-65535) or off (got "none")',
    );
  });

  it('need the TLS certificate and key together', () => {
    expect(resolveConfig({}, { GRPC_TLS_CERT: '/c.pem', GRPC_TLS_KEY: '/k.pem' })).toMatchObject({
      grpcTlsCert: '/c.pem',
      grpcTlsKey: '/k.pem',
    });
    expect(() => resolveConfig({ 'grpc-tls-cert': '/c.pem' }, {})).toThrow(/go together/);
  });

  it('are listed for --help with the variables they read', () => {
    const flags = SETTINGS.filter((s) => s.flag.startsWith('grpc')).map((s) => [s.flag, s.env]);
    expect(flags).toEqual([
      ['grpc-port', ['GRPC_PORT']],
      ['grpc-tls-cert', ['GRPC_TLS_CERT']],
      ['grpc-tls-key', ['GRPC_TLS_KEY']],
      ['grpc-message-limit', ['GAUNTLET_GRPC_MESSAGE_LIMIT']],
    ]);
  });
});
