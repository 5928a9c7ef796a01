import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './local-servers.js';

// grpc/grpc's health/v1/health.proto, the part the Check call uses. The server reads it with
// proto-loader, so its encoding is independent of the probe's hand-written one.
const HEALTH_PROTO = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
`;

/** A grpc-js server serving the standard health service. */
export interface HealthServer {
  port: number;
  /** Each known service's status ('' is the whole server); others answer NOT_FOUND, as the spec says. */
  statuses: Map<string, 'SERVING' | 'NOT_SERVING' | 'UNKNOWN'>;
  /** The metadata of the last call. */
  lastMetadata?: grpc.Metadata;
  close(): Promise<void>;
}

/** Starts a health server on 127.0.0.1, plain or with `tls` (PEM key and certificate). */
export async function startHealthServer(tls?: { key: Buffer; cert: Buffer }): Promise<HealthServer> {
  const dir = tempDir('svc-grpc-');
  const protoFile = join(dir, 'health.proto');
  writeFileSync(protoFile, HEALTH_PROTO);
  const definition = grpc.loadPackageDefinition(protoLoader.loadSync(protoFile, { enums: String, defaults: true })) as any;
  const server = new grpc.Server();
  const state: HealthServer = {
    port: 0,
    statuses: new Map([['', 'SERVING']]),
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
  server.addService(definition.grpc.health.v1.Health.service, {
    Check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      state.lastMetadata = call.metadata;
      const status = state.statuses.get(call.request.service);
      if (!status) callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      else callback(null, { status });
    },
  });
  const credentials = tls ? grpc.ServerCredentials.createSsl(null, [{ private_key: tls.key, cert_chain: tls.cert }]) : grpc.ServerCredentials.createInsecure();
  state.port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, port) => (error ? reject(error) : resolve(port))),
  );
  return state;
}
