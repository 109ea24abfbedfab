import { fileURLToPath } from 'node:url';
import { loadPackageDefinition, type ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import type { ProtoGrpcType } from './generated/env.generated.js';
import { createCodecs, useFastCodecs, type MessageCodec } from './codec.js';

/** proto/env.proto, found next to the package whether running from src/ or dist/. */
export const ENV_PROTO_PATH = fileURLToPath(new URL('../../env.proto', import.meta.url));

/** The fully qualified service name, as health checks and reflection name it. */
export const ENV_SERVICE_NAME = 'gauntlet.env.v1.EnvService';

/**
 * How messages become JS objects. scripts/gen-grpc-types.mjs passes the same choices to the type
 * generator, so the generated types describe these objects exactly.
 */
export const LOADER_OPTIONS: Options = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true };

let cached:
  { definition: PackageDefinition; grpc: ProtoGrpcType; codecFor: (fullName: string) => MessageCodec } | undefined;

function load(): NonNullable<typeof cached> {
  if (!cached) {
    const definition = loadSync(ENV_PROTO_PATH, LOADER_OPTIONS);
    const codecFor = createCodecs(ENV_PROTO_PATH, LOADER_OPTIONS);
    useFastCodecs(definition, ENV_SERVICE_NAME, codecFor);
    cached = { definition, grpc: loadPackageDefinition(definition) as unknown as ProtoGrpcType, codecFor };
  }
  return cached;
}

/** The codec the EnvService methods use for a message, e.g. `gauntlet.env.v1.StepResult`. */
export function envMessageCodec<T = unknown>(fullName: string): MessageCodec<T> {
  return load().codecFor(fullName) as MessageCodec<T>;
}

/** The parsed env.proto (for reflection and raw codecs). */
export function envPackageDefinition(): PackageDefinition {
  return load().definition;
}

/** Typed constructors and the service definition of gauntlet.env.v1. */
export function envGrpc(): ProtoGrpcType['gauntlet']['env']['v1'] {
  return load().grpc.gauntlet.env.v1;
}

export function envServiceDefinition(): ServiceDefinition {
  return envGrpc().EnvService.service;
}
