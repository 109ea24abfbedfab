import protobuf from 'protobufjs';
import type { PackageDefinition } from '@grpc/proto-loader';

/** How a message becomes bytes and back on the wire. */
export interface MessageCodec<T = unknown> {
  serialize(message: T): Buffer;
  deserialize(bytes: Buffer): T;
}

/**
 * proto-loader's serializer runs protobufjs `fromObject` (a coercing deep copy) before `encode`,
 * which tripled the cost of a step reply. Our converters already build encode-ready objects
 * (numbers, Buffers, enum numbers), so they are encoded as they are. Decoding keeps the
 * loader's `toObject` with the same options, so the generated `__Output` types stay exact.
 */
export function createCodecs(
  protoPath: string,
  toObjectOptions: protobuf.IConversionOptions,
): (fullName: string) => MessageCodec {
  const root = new protobuf.Root().loadSync(protoPath, { keepCase: true });
  const cache = new Map<string, MessageCodec>();
  return (fullName) => {
    let codec = cache.get(fullName);
    if (!codec) {
      const type = root.lookupType(fullName);
      codec = {
        serialize: (message) => Buffer.from(type.encode(message as protobuf.Message).finish()),
        deserialize: (bytes) => type.toObject(type.decode(bytes), toObjectOptions),
      };
      cache.set(fullName, codec);
    }
    return codec;
  };
}

interface MethodCodecs {
  requestType: { type: { name: string } };
  responseType: { type: { name: string } };
  requestSerialize(value: unknown): Buffer;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: unknown): Buffer;
  responseDeserialize(bytes: Buffer): unknown;
}

/** Points every method of `serviceName` at the fast codecs (client and server use the same definition). */
export function useFastCodecs(
  definition: PackageDefinition,
  serviceName: string,
  codecFor: (fullName: string) => MessageCodec,
): void {
  const pkg = serviceName.slice(0, serviceName.lastIndexOf('.'));
  for (const method of Object.values(definition[serviceName] as unknown as Record<string, MethodCodecs>)) {
    const request = codecFor(`${pkg}.${method.requestType.type.name}`);
    const response = codecFor(`${pkg}.${method.responseType.type.name}`);
    method.requestSerialize = request.serialize;
    method.requestDeserialize = request.deserialize;
    method.responseSerialize = response.serialize;
    method.responseDeserialize = response.deserialize;
  }
}
