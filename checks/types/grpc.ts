import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { headerMap, headerName, ignoreTlsErrors, invert, keyword, useTls } from '../fields.js';
import { hostPortTarget } from '../targets.js';

// gRPC metadata keys are lowercase (HTTP/2 header names); "-bin" keys carry binary values,
// which a JSON definition cannot hold.
const METADATA_KEY = /^(?!.*-bin$)[0-9a-z_.-]{1,256}$/;

/** The gRPC health-checking protocol. */
export const grpcCheck = defineCheckType({
  type: 'grpc',
  title: 'gRPC health',
  description:
    'Calls grpc.health.v1.Health/Check; the check succeeds when the service reports SERVING ' + '(and the response contains the keyword, when one is set).',
  target: hostPortTarget('The server as host:port.', 'grpc.example.com:443'),
  config: z.strictObject({
    service: z.string().max(255).default('').describe('The service name sent in the health request; empty asks about the whole server.'),
    useTls,
    ignoreTlsErrors,
    metadata: headerMap(headerName(METADATA_KEY, 'metadata keys are lowercase letters, digits, "_", "." and "-"'), 50)
      .default({})
      .describe('Request metadata. Authorization metadata must refer to a secret, e.g. "Bearer {{secrets.API_TOKEN}}".'),
    keyword: keyword.optional(),
    invert,
  }),
  sample: {
    name: 'Orders service health',
    target: 'orders.internal.example.com:50051',
    config: { service: 'orders.v1.Orders', useTls: true },
  },
});
