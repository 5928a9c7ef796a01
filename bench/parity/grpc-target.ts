import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The gRPC target of the differential run: grpc-js serving the standard health service
// (grpc/grpc doc/health-checking.md, health/v1/health.proto), with the whole server SERVING, one
// service NOT_SERVING and every other unknown (NOT_FOUND, as the specification says).

/** The health protocol as Kuma's form shows it (src/pages/EditMonitor.vue protoBufDataPlaceholder). */
export const HEALTH_PROTO = `syntax = "proto3";
package grpc.health.v1;
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
}
message HealthCheckRequest {
  string service = 1;
}
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
`;

export const GRPC_STATUSES: Record<string, string> = { '': 'SERVING', 'parity.serving': 'SERVING', 'parity.down': 'NOT_SERVING' };

/** Starts the health server on 127.0.0.1; `dir` holds its protocol file. */
export async function startGrpcTarget(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  const file = join(dir, 'health.proto');
  writeFileSync(file, HEALTH_PROTO);
  const definition = grpc.loadPackageDefinition(protoLoader.loadSync(file, { enums: String, defaults: true })) as unknown as {
    grpc: { health: { v1: { Health: { service: grpc.ServiceDefinition } } } };
  };
  const server = new grpc.Server();
  server.addService(definition.grpc.health.v1.Health.service, {
    Check(call: grpc.ServerUnaryCall<{ service: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      const status = GRPC_STATUSES[call.request.service];
      if (status === undefined) callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      else callback(null, { status });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { port, close: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}
