import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Metadata,
  credentials,
  loadPackageDefinition,
  status as Status,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { UnauthorizedError } from '@gauntlet/proto';
import { createEnvClient } from '@gauntlet/proto/client';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { ok, rawClient, unary } from './raw-client.js';

// A test-only self-signed certificate for localhost / 127.0.0.1 (valid 100 years).
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const ca = readFileSync(fixture('localhost.crt'));
const TOKEN = 'grpc-s3cret';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({
    bearerToken: TOKEN,
    grpcTlsCert: fixture('localhost.crt'),
    grpcTlsKey: fixture('localhost.key'),
  });
});
afterAll(() => server.close());

const tls = () => credentials.createSsl(ca);

describe('gRPC over TLS with the bearer token', () => {
  it('serves grpcs:// and requires the same token as HTTP', async () => {
    expect(server.grpcUrl).toMatch(/^grpcs:\/\//);
    const client = rawClient(server.grpcUrl, tls());
    const denied = await unary(client, 'Reset', {});
    expect(denied.error?.code).toBe(Status.UNAUTHENTICATED);
    const reply = await ok<{ session_id: string }>(client, 'Reset', { seed: 1 }, { token: TOKEN });
    await ok(client, 'Close', { session_id: reply.session_id }, { token: TOKEN });
    client.getChannel().close();
  });

  it('the SDK speaks grpcs:// with a trusted CA and reports a bad token as UnauthorizedError', async () => {
    const good = createEnvClient(server.grpcUrl, { token: TOKEN, tlsCa: ca, validateReplies: true });
    expect((await good.reset({ task_name: 'click-test', seed: 1 })).done).toBe(false);
    await good.close();
    await expect(createEnvClient(server.grpcUrl, { tlsCa: ca }).state()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a plaintext client cannot talk to the TLS port', async () => {
    const plain = rawClient(server.grpcUrl.replace('grpcs', 'grpc'));
    expect((await unary(plain, 'State', { session_id: 'x' }, { token: TOKEN, deadlineMs: 5_000 })).error?.code).toBe(
      Status.UNAVAILABLE,
    );
    plain.getChannel().close();
  });
});

describe('standard services', () => {
  it('grpc.health.v1 answers without a token: SERVING overall and for the env service', async () => {
    // Loaded from the proto files at run time, so untyped.
    const health = loadPackageDefinition(loadSync(healthProtoPath, { enums: String })) as any;
    const client: Client & Record<string, any> = new health.grpc.health.v1.Health(
      server.grpcUrl.replace('grpcs://', ''),
      tls(),
    );
    const check = (service: string) =>
      new Promise<{ status: string }>((resolve, reject) =>
        client.Check({ service }, (e: ServiceError | null, r: { status: string }) => (e ? reject(e) : resolve(r))),
      );
    expect(await check('')).toEqual({ status: 'SERVING' });
    expect(await check('gauntlet.env.v1.EnvService')).toEqual({ status: 'SERVING' });
    client.close();
  });

  it('server reflection lists EnvService (token required, like /schema)', async () => {
    const require = createRequire(import.meta.url);
    const reflectionProto = join(
      dirname(require.resolve('@grpc/reflection/package.json')),
      'build/proto/grpc/reflection/v1/reflection.proto',
    );
    const pkg = loadPackageDefinition(loadSync(reflectionProto, { keepCase: true })) as any;
    const client: Client & Record<string, any> = new pkg.grpc.reflection.v1.ServerReflection(
      server.grpcUrl.replace('grpcs://', ''),
      tls(),
    );
    const metadata = new Metadata();
    metadata.set('authorization', `Bearer ${TOKEN}`);
    const stream = client.ServerReflectionInfo(metadata);
    const reply = new Promise<{ list_services_response: { service: { name: string }[] } }>((resolve) =>
      stream.once('data', resolve),
    );
    const done = new Promise((resolve) => stream.on('status', resolve).on('error', resolve));
    stream.write({ list_services: '' });
    const services = (await reply).list_services_response.service.map((s) => s.name);
    expect(services).toContain('gauntlet.env.v1.EnvService');
    stream.end();
    await done;
    client.close();
  });
});
