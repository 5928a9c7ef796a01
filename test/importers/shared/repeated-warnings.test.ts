import { describe, expect, test } from 'vitest';
import { convertSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { convertUptimeApiMonitor } from '../../../importers/uptimerobot/index.js';

describe('warnings that would repeat for every item', () => {
  test('the uptime API listing says once that status history never carries over', () => {
    const monitors = Array.from({ length: 16 }, (_, i) => ({
      id: i + 1,
      friendly_name: `Site ${i + 1}`,
      url: `https://site${i + 1}.example.com`,
      type: 1,
      interval: 300,
      logs: [{ type: 1, datetime: 1700000000 }],
      response_times: i % 2 ? [{ datetime: 1700000000, value: 120 }] : [],
    }));
    const result = convertUptimeApiMonitor(JSON.stringify({ stat: 'ok', monitors }));
    expect(result.checks).toHaveLength(16);
    const history = result.warnings.filter((warning) => warning.message.includes('status history'));
    expect(history).toEqual([
      {
        item: 'status history',
        code: 'UNSUPPORTED_SETTING',
        field: 'logs',
        message: 'status history (logs, response_times) of 16 monitors never carries over',
      },
    ]);
  });
});

describe('the gRPC health-check warning', () => {
  const grpc = (extra: Record<string, unknown>) =>
    convertSelfhostedMonitorDb(
      JSON.stringify({
        version: '1.23.16',
        notificationList: [],
        monitorList: [{ id: 1, name: 'Orders gRPC', type: 'grpc-keyword', grpcUrl: 'grpc.example.com:443', interval: 60, ...extra }],
      }),
    );
  const grpcWarnings = (extra: Record<string, unknown>) => grpc(extra).warnings.filter((warning) => warning.message.includes('health service'));

  test('says nothing when the monitor already calls the standard health service', () => {
    expect(grpc({ grpcServiceName: 'grpc.health.v1.Health', grpcMethod: 'Check' }).checks).toHaveLength(1);
    expect(grpcWarnings({ grpcServiceName: 'grpc.health.v1.Health', grpcMethod: 'Check' })).toEqual([]);
    expect(grpcWarnings({ grpcMethod: 'Check' })).toEqual([]);
  });

  test('never says "instead of" the very service it calls; a body with more than the service is still reported', () => {
    expect(grpcWarnings({ grpcServiceName: 'grpc.health.v1.Health', grpcMethod: 'Check', grpcBody: '{"service": "orders"}' })).toEqual([]);
    const [warning] = grpcWarnings({ grpcServiceName: 'Health', grpcMethod: 'check', grpcBody: '{"service": "orders", "deadline": 5}' });
    expect(warning.message).not.toContain('instead of');
    expect(warning.message).toContain('only the service of the request body was kept');
  });

  test('names another method it replaces', () => {
    const [warning] = grpcWarnings({ grpcServiceName: 'orders.Orders', grpcMethod: 'Ping' });
    expect(warning.message).toContain('instead of orders.Orders/Ping');
    expect(warning.field).toBe('grpcMethod');
  });
});
